import { writeFileSync } from "node:fs";
import { seededRandom } from "../../src/core/seeded-random.js";
import { weeklyReportCase } from "./report-cases.js";
import { retailCase, retailTasks } from "./retail-cases.js";
import { SuiteWriter, type SuiteCase } from "./suite-writer.js";

/** Weekly reports from the demo's data (one week per seed) and summaries of τ-bench retail tasks. */
const reportSeeds = Array.from({ length: 30 }, (_, index) => 101 + index);
const retailCount = 40;
/** Wrong figures planted across the suite. */
export const wrongFigures = 100;

function write(corrupt: ReadonlySet<number>): SuiteWriter {
  const writer = new SuiteWriter(corrupt, seededRandom(43));
  for (const seed of reportSeeds) weeklyReportCase(writer, seed);
  for (const task of retailTasks().slice(0, retailCount)) retailCase(writer, task);
  return writer;
}

/**
 * The suite: written once to count its slots, then again with `wrongFigures` of them, chosen
 * by a seeded draw, written wrong. The same every time.
 */
export function groundingSuite(): SuiteCase[] {
  const total = write(new Set()).slots;
  const random = seededRandom(2026);
  const corrupt = new Set<number>();
  while (corrupt.size < wrongFigures) corrupt.add(Math.floor(random() * total));
  return write(corrupt).cases;
}

export const suitePath = "bench/grounding/suite.jsonl";

if (process.argv[1]?.endsWith("make-suite.ts")) {
  const cases = groundingSuite();
  writeFileSync(suitePath, cases.map((item) => JSON.stringify(item)).join("\n") + "\n");
  const slots = cases.flatMap((item) => item.slots);
  console.log(`${suitePath}: ${cases.length} cases, ${slots.length} figures, ${slots.filter((slot) => slot.wrong).length} wrong`);
}
