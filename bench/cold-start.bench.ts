// How long a planloop command takes to start, as whole processes, against a bare node:
// `--help` and `validate` on a well-formed plan (target: within 1.5x of bare node).
// Run: npm run bench:cold (after npm run build)
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const cli = fileURLToPath(new URL("../dist/cli/main.js", import.meta.url));
const plan = join(mkdtempSync(join(tmpdir(), "planloop-cold-")), "plan.json");
writeFileSync(
  plan,
  JSON.stringify({
    steps: [
      { id: 1, task: "a", tool: "t", args: {} },
      { id: 2, task: "b", depends_on: [1] },
    ],
  }),
);
const runs = 15;

function medianMs(args: string[]): number {
  const times: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const started = performance.now();
    const result = spawnSync(process.execPath, args, { stdio: "ignore" });
    if (result.status !== 0) throw new Error(`${args.join(" ")} exited ${result.status}`);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(runs / 2)]!;
}

const bare = medianMs(["-e", "0"]);
console.log(`# median of ${runs} whole processes`);
console.log(`bare node: ${bare.toFixed(0)} ms`);
for (const [label, args] of [
  ["planloop --help", [cli, "--help"]],
  ["planloop validate plan.json", [cli, "validate", plan]],
] as const) {
  const ms = medianMs([...args]);
  console.log(`${label}: ${ms.toFixed(0)} ms, ${(ms / bare).toFixed(2)}x bare node`);
}
