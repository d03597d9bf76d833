// The example suites converted from public benchmarks (examples/suites: BFCL's parallel cases,
// τ-bench's retail tasks), a sample of each run through all five strategies with the gold-plan
// model: the planning strategies and code mode make every gold call; ReAct (8 steps) is cut short exactly
// where the gold sequence needs more turns than it has, or repeats one call three times.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli } from "../helpers/run-cli.js";
import { repoRoot } from "../helpers/paths.js";

const suites = join(repoRoot, "examples", "suites");

interface Task {
  id: string;
  plan: { steps: Array<{ tool: string; args: unknown }> };
}

/** Where ReAct runs out: more gold calls than its 8 steps leave turns for, or one call made three times (no progress). */
function reactCannot(task: Task): boolean {
  const counts = new Map<string, number>();
  for (const step of task.plan.steps)
    counts.set(JSON.stringify([step.tool, step.args]), (counts.get(JSON.stringify([step.tool, step.args])) ?? 0) + 1);
  return task.plan.steps.length >= 8 || Math.max(0, ...counts.values()) >= 3;
}

describe("example suites from public benchmarks", () => {
  for (const [name, every] of [
    ["bfcl", 20],
    ["tau-retail", 5],
  ] as const) {
    it(`${name}: a sample through all five strategies`, async () => {
      const lines = readFileSync(join(suites, name, "tasks.jsonl"), "utf8")
        .split("\n")
        .filter(Boolean);
      const dir = mkdtempSync(join(tmpdir(), `planloop-${name}-`));
      const sample = join(dir, "tasks.jsonl");
      writeFileSync(sample, `${lines.filter((_, index) => index % every === 0).join("\n")}\n`);
      const tasks = readFileSync(sample, "utf8")
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Task);
      process.env.PLANLOOP_SUITE = sample;
      try {
        const ran = await cli(
          "bench",
          "--suite",
          sample,
          "--tools",
          join(suites, name, "tools.mjs"),
          "--model",
          join(suites, "gold-model.mjs"),
          "--scorers",
          join(suites, "scorers.mjs"),
          "--out",
          dir,
          "--no-store",
        );
        expect(ran).toMatchObject({ code: 0, err: "" });
      } finally {
        delete process.env.PLANLOOP_SUITE;
      }
      const { records } = JSON.parse(readFileSync(join(dir, "results.json"), "utf8")) as {
        records: Array<{ task: string; strategy: string; passed: boolean; scorecard: { calls: { recall: number } } }>;
      };
      expect(records).toHaveLength(tasks.length * 5);
      const failed = (strategy: string) =>
        records.filter((record) => record.strategy === strategy && !record.passed).map((record) => record.task);
      for (const strategy of ["plan-and-execute", "rewoo", "llm-compiler", "code"]) expect(failed(strategy), strategy).toEqual([]);
      expect(failed("react")).toEqual(tasks.filter(reactCannot).map((task) => task.id));
      // Every planning run, and every program, made every gold call.
      for (const record of records.filter((each) => each.strategy !== "react")) expect(record.scorecard.calls.recall, record.task).toBe(1);
    });
  }
});
