// How the grounding check's time grows with the answer (issue 55): one sentence of 50, 200, 400
// and 2,000 numbers, and an answer of 1 MB, checked against a weekly report's steps. Before,
// a sentence's numbers were tried in pairs with each other: 400 numbers took 23 s. The check
// must grow linearly: a sentence of 400 numbers under 100 ms, a 1 MB answer under 1 s.
// Run: npm run bench:grounding-time (it builds first: the times are those of the built code, dist/)
import { checkClaims } from "../dist/grounding/check-claims.js";
import { seededRandom } from "../dist/core/seeded-random.js";

const random = seededRandom(55);
const days = Array.from({ length: 7 }, (_, day) => ({
  day: `2026-11-${16 + day}`,
  orders: 15 + Math.floor(random() * 10),
  revenue_cny: Math.round(random() * 1_200_000) / 100,
}));
const week = 137;
const steps = [
  { id: 1, output: { orders_this_week: week, orders_last_week: 120, revenue_cny: 69136.98, refund_rate: 0.0422, tickets: 30 } },
  { id: 2, output: days },
];
const figure = () => {
  const value = Math.round(random() * 100_000) / 100;
  return random() < 0.5 ? `¥${value.toLocaleString("en")}` : `${Math.round(value)}`;
};

/** Wall time and the process's CPU time (on a busy machine the wall time is longer than the work). */
function timed(answer: string): { ms: number; cpu: number; claims: number } {
  checkClaims("Warm up: 137 orders [s1].", steps);
  const started = performance.now();
  const cpu = process.cpuUsage();
  const report = checkClaims(answer, steps);
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - started, cpu: (used.user + used.system) / 1000, claims: report.claims.length };
}

for (const count of [50, 200, 400, 2_000]) {
  const sentence = `Orders rose to ${Array.from({ length: count }, figure).join(", ")} over the weeks [s1, s2].`;
  const { ms, cpu, claims } = timed(sentence);
  console.log(`one sentence of ${count} numbers: ${ms.toFixed(1)} ms (${cpu.toFixed(1)} ms CPU; ${claims} claims)`);
}

/** An answer of some 1 MB made of `line` again and again. */
function megabyteOf(line: (index: number) => string): string {
  const lines: string[] = [];
  let size = 0;
  while (size < 1_000_000) {
    lines.push(line(lines.length));
    size += lines.at(-1)!.length + 1;
  }
  return lines.join("\n");
}

// Figures the steps show (the usual answer), then figures no step shows (each one searched for in vain, the worst case).
const shown = megabyteOf((index) => {
  const day = days[index % 7]!;
  return `On ${day.day} the shop took ${day.orders} orders worth ¥${day.revenue_cny.toLocaleString("en")}, and the week ${week} [s1, s2].`;
});
const wrong = megabyteOf(
  (index) => `On ${days[index % 7]!.day} the shop took ${figure()} orders worth ${figure()}, ${figure()} more than the day before [s2].`,
);
for (const [what, answer] of [
  ["figures the steps show", shown],
  ["figures no step shows", wrong],
] as const) {
  const { ms, cpu, claims } = timed(answer);
  const sentences = answer.split("\n").length;
  console.log(
    `an answer of ${(answer.length / 1e6).toFixed(2)} MB, ${what} (${sentences} sentences): ${ms.toFixed(0)} ms (${cpu.toFixed(0)} ms CPU; ${claims} claims)`,
  );
}

// A run of many steps: each sentence cites one of 300 steps (tables of 40 rows). What a sentence asks of every step
// (the rows it names) is asked only for a sentence that cites nothing, so the time grows with the sentences, not
// with sentences times steps.
const manySteps = Array.from({ length: 300 }, (_, id) => ({
  id: id + 1,
  output: Array.from({ length: 40 }, (_, row) => ({
    day: `2026-11-${String(1 + (row % 28)).padStart(2, "0")}`,
    region: `Region ${row}`,
    orders: row * 3 + id,
    revenue: row * 101.5 + id,
  })),
}));
const citingOne = Array.from(
  { length: 3_000 },
  (_, index) =>
    `On 2026-11-${String(1 + (index % 28)).padStart(2, "0")} Region ${index % 40} took ${(index % 40) * 3 + (index % 300)} orders [s${(index % 300) + 1}].`,
).join("\n");
checkClaims("Warm up: 3 orders [s1].", manySteps);
const cpu = process.cpuUsage();
const started = performance.now();
const report = checkClaims(citingOne, manySteps);
const used = process.cpuUsage(cpu);
console.log(
  `3,000 sentences, each citing one of 300 steps of 40 rows: ${(performance.now() - started).toFixed(0)} ms (${((used.user + used.system) / 1000).toFixed(0)} ms CPU; ${report.claims.length} claims)`,
);
