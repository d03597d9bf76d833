// `planloop bench --suite` on a file of the user's own tasks: every task × strategy × trial on a
// model module, scored against `expected`; the table's success (with its interval), pass^k and
// pass@k; every run kept in the store under the bench run's id.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sqliteStore } from "planloop/sqlite";
import { readTaskSuite } from "../../src/evals/task-suite.js";
import { llmJudge, scoreRun } from "../../src/evals/scorers.js";
import { wilson } from "../../src/evals/task-suite-stats.js";
import { cassetteKey, emptyCassette, replayingTools } from "../../src/evals/tool-cassette.js";
import type { ModelRequest, StrategyResult, Tool } from "planloop";
import { cli } from "../helpers/run-cli.js";
import { testRoot } from "../helpers/paths.js";

const fixtures = join(testRoot, "fixtures");

describe("planloop bench --suite <file>", () => {
  it("runs tasks × 2 strategies × 3 trials, scores them, and reports success, pass^k and pass@k", async () => {
    const dir = mkdtempSync(join(tmpdir(), "planloop-suite-"));
    const suite = join(dir, "doubling.jsonl");
    writeFileSync(
      suite,
      [
        {
          id: "a",
          task: "double 21",
          expected: { number: 42 },
          plan: { steps: [{ id: 1, task: "d", tool: "double", args: { value: 21 } }] },
        },
        { id: "b", task: "double 5", expected: "The answer is 10." },
        { id: "c", task: "double 7", expected: { regex: "\\b14\\b" } },
      ]
        .map((task) => JSON.stringify(task))
        .join("\n"),
    );
    const store = `sqlite:${join(dir, "runs.sqlite")}`;
    const out = join(dir, "out");
    const args = ["--tools", join(fixtures, "plan-tools.ts"), "--model", join(fixtures, "suite-model.mjs")];
    const ran = await cli(
      "bench",
      "--suite",
      suite,
      ...args,
      "--strategies",
      "react,plan-and-execute",
      "--trials",
      "3",
      "--concurrency",
      "1",
      "--out",
      out,
      "--store",
      store,
    );
    expect(ran.err).toBe("");
    expect(ran.code).toBe(0);
    // Task c's answers alternate wrong / right across the runs, one at a time: react gets it
    // right once in three, plan-and-execute twice.
    const results = JSON.parse(readFileSync(join(out, "results.json"), "utf8"));
    expect(results.records).toHaveLength(18);
    const react = results.stats.find((entry: { strategy: string }) => entry.strategy === "react");
    const planned = results.stats.find((entry: { strategy: string }) => entry.strategy === "plan-and-execute");
    expect(react).toMatchObject({ runs: 9, successRate: 7 / 9, passAll: 2 / 3, passAny: 1, trials: 3 });
    expect(planned).toMatchObject({ runs: 9, successRate: 8 / 9, passAll: 2 / 3, passAny: 1 });
    expect(react.modelCalls).toBe(2);
    expect(planned.modelCalls).toBe(2);
    expect(react.successLow).toBeCloseTo(wilson(7, 9)[0], 10);
    expect(react.costUsd).toBeCloseTo(0.002, 10);
    expect(react.totalCostUsd).toBeCloseTo(0.018, 10);
    expect(ran.out).toContain("| $0.0020 ($0.0180) |");
    // The report: Markdown with each task's runs, and a page with the spread of each column.
    const markdown = readFileSync(join(out, "report.md"), "utf8");
    expect(markdown).toMatch(/\| c \| 1\/3 \(`bench-[^`]+~c~react~[^`]+~1`/);
    const page = readFileSync(join(out, "report.html"), "utf8");
    expect(page.match(/class="spread"/g)?.length).toBeGreaterThanOrEqual(2);
    expect(page).not.toMatch(/<script|(?:src|href)="https?:/);
    expect(ran.out).toMatch(/\| react \| .*suite-model\.mjs \| 78% \(\d+%–\d+%\) \| 67% \| 100% \|/);
    expect(ran.out).toContain("tasks that failed at least once: c");
    // Task a has a gold plan: both strategies made its one call, and nothing else.
    expect(ran.out).toMatch(/\| a \| react \| .* \| 100% \/ 100% \| 100% \/ 100% \| 1\.0 \/ 1 \| 0\.0 \| — \|/);
    expect(ran.out).toMatch(/\| a \| plan-and-execute \| .* \| 100% \/ 100% \| 100% \/ 100% \| 1\.0 \/ 1 \| 0\.0 \| \d+\.\d\d \|/);
    expect(results.records.find((record: { task: string }) => record.task === "a").scorecard.calls).toMatchObject({ found: 1, recall: 1 });
    // Every run is in the store, under the bench run's id.
    const kept = sqliteStore({ path: join(dir, "runs.sqlite"), readonly: true });
    const runs = (await kept.listRuns({ limit: 100, topLevel: true })).map((run) => run.runId);
    kept.close();
    const ids = runs;
    expect(ids.filter((id: string) => id.startsWith(results.benchId))).toHaveLength(18);
  });

  it("records every tool call, then replays them: identical outputs, and no tool runs", async () => {
    const dir = mkdtempSync(join(tmpdir(), "planloop-cassette-"));
    const suite = join(dir, "tasks.json");
    writeFileSync(
      suite,
      JSON.stringify({
        tasks: [
          {
            id: "a",
            task: "double 21",
            expected: { number: 42 },
            plan: { steps: [{ id: 1, task: "d", tool: "double", args: { value: 21 } }] },
          },
          { id: "b", task: "double 4" },
        ],
      }),
    );
    const log = join(dir, "tools.log");
    process.env.PLANLOOP_TOOL_LOG = log;
    try {
      const cassette = join(dir, "tools.cassette");
      const common = ["--suite", suite, "--tools", join(fixtures, "logged-tools.mjs"), "--model", join(fixtures, "suite-model.mjs")];
      const options = ["--strategies", "react,rewoo", "--concurrency", "1", "--no-store"];
      const recorded = await cli("bench", ...common, ...options, "--out", join(dir, "recorded"), "--record", cassette);
      expect(recorded).toMatchObject({ code: 0, err: "" });
      expect(recorded.out).toContain(`tool calls recorded: ${cassette} (2 distinct calls)`);
      const ranWhileRecording = readFileSync(log, "utf8").trim().split("\n");
      expect(ranWhileRecording).toHaveLength(4);
      const replayed = await cli("bench", ...common, ...options, "--out", join(dir, "replayed"), "--replay", cassette);
      expect(replayed).toMatchObject({ code: 0, err: "" });
      expect(readFileSync(log, "utf8").trim().split("\n")).toEqual(ranWhileRecording);
      const outputs = (folder: string) =>
        JSON.parse(readFileSync(join(dir, folder, "results.json"), "utf8")).records.map((record: { output?: string }) => record.output);
      expect(outputs("replayed")).toEqual(outputs("recorded"));
      expect(await cli("bench", ...common, "--record", cassette, "--replay", cassette, "--no-store")).toMatchObject({
        code: 2,
        err: expect.stringContaining("--record and --replay: one or the other"),
      });
    } finally {
      delete process.env.PLANLOOP_TOOL_LOG;
    }
  });

  it("a call the cassette does not hold fails naming it, or runs for real with miss: run", async () => {
    const module = join(fixtures, "logged-tools.mjs");
    const { tools } = (await import(module)) as { tools: Tool[] };
    const cassette = emptyCassette();
    cassette.calls[cassetteKey("double", { value: 2 })] = [{ output: 4 }, { error: "rate limited" }];
    const [replayed] = replayingTools(tools, cassette);
    const context = { signal: new AbortController().signal, callId: 1, step: 0 };
    expect(await replayed!.execute!({ value: 2 }, context)).toBe(4);
    await expect(replayed!.execute!({ value: 2 }, context)).rejects.toThrow("rate limited");
    await expect(replayed!.execute!({ value: 3 }, context)).rejects.toThrow('the cassette holds no call double {"value":3}');
    const [running] = replayingTools(tools, cassette, { miss: "run" });
    expect(await running!.execute!({ value: 3 }, context)).toBe(6);
  });

  it("the baseline gate: exits 1 naming the tasks whose success fell more than --max-drop below the baseline's", async () => {
    const dir = mkdtempSync(join(tmpdir(), "planloop-gate-"));
    const suite = join(dir, "tasks.jsonl");
    writeFileSync(
      suite,
      ["double 21", "double 7"]
        .map((task, index) => JSON.stringify({ id: `t${index}`, task, expected: { number: index === 0 ? 42 : 14 } }))
        .join("\n"),
    );
    const args = ["--suite", suite, "--tools", join(fixtures, "plan-tools.ts"), "--model", join(fixtures, "suite-model.mjs")];
    const options = ["--strategies", "react", "--trials", "2", "--concurrency", "1", "--no-store"];
    const first = await cli("bench", ...args, ...options, "--out", join(dir, "first"));
    expect(first.code).toBe(0);
    // The baseline as it would be had every run passed.
    const results = JSON.parse(readFileSync(join(dir, "first", "results.json"), "utf8"));
    const baseline = join(dir, "baseline.json");
    writeFileSync(
      baseline,
      JSON.stringify({
        ...results,
        stats: results.stats.map((entry: object) => ({ ...entry, successRate: 1 })),
        records: results.records.map((record: object) => ({ ...record, passed: true })),
      }),
    );
    const gated = await cli("bench", ...args, ...options, "--out", join(dir, "second"), "--baseline", baseline);
    expect(gated.code).toBe(1);
    expect(gated.out).toMatch(
      /below the baseline: react on .*suite-model\.mjs: success \d+%, \d+% below the baseline's 100%; tasks that fell: t1$/m,
    );
    const lenient = await cli("bench", ...args, ...options, "--out", join(dir, "third"), "--baseline", baseline, "--max-drop", "0.6");
    expect(lenient.code).toBe(0);
    expect(lenient.out).toContain(`the baseline ${baseline} holds (compared react on`);
    // A baseline of another model (one each side): held strategy to strategy, not skipped.
    const renamed = join(dir, "baseline-other-model.json");
    const other = JSON.parse(readFileSync(baseline, "utf8"));
    writeFileSync(
      renamed,
      JSON.stringify({
        stats: other.stats.map((entry: object) => ({ ...entry, model: "old-model" })),
        records: other.records.map((record: object) => ({ ...record, model: "old-model" })),
      }),
    );
    const againstOld = await cli("bench", ...args, ...options, "--out", join(dir, "fourth"), "--baseline", renamed, "--max-drop", "0.05");
    expect(againstOld.code).toBe(1);
    expect(againstOld.out).toMatch(/below the baseline: react on .*suite-model\.mjs \(against react on old-model\): success/);
  });

  it("several --model values make several columns", async () => {
    const dir = mkdtempSync(join(tmpdir(), "planloop-columns-"));
    const suite = join(dir, "tasks.json");
    writeFileSync(suite, JSON.stringify([{ id: "a", task: "What is twice 21? double 21", expected: { contains: "42" } }]));
    const models = [join(fixtures, "suite-model.mjs"), join(fixtures, "scripted-model.mjs")];
    const ran = await cli(
      "bench",
      "--suite",
      suite,
      "--tools",
      join(fixtures, "plan-tools.ts"),
      ...models.flatMap((model) => ["--model", model]),
      "--strategies",
      "react",
      "--out",
      dir,
      "--no-store",
    );
    expect(ran).toMatchObject({ code: 0, err: "" });
    const { stats } = JSON.parse(readFileSync(join(dir, "results.json"), "utf8"));
    expect(stats.map((entry: { model: string; successRate: number }) => [entry.model, entry.successRate])).toEqual([
      [models[0], 1],
      [models[1], 1],
    ]);
    expect(ran.out).toContain("1 tasks × 1 strategies × 2 models × 1 trials");
    // Tiers: --planner plans for the planning strategies, --model runs the steps.
    const tiered = await cli(
      "bench",
      "--suite",
      suite,
      "--tools",
      join(fixtures, "plan-tools.ts"),
      "--model",
      models[1]!,
      "--planner",
      models[0]!,
      "--strategies",
      "plan-and-execute",
      "--out",
      join(dir, "tiers"),
      "--no-store",
    );
    expect(tiered).toMatchObject({ code: 0, err: "" });
    const tiers = JSON.parse(readFileSync(join(dir, "tiers", "results.json"), "utf8"));
    expect(tiers.stats[0]).toMatchObject({ model: `${models[1]} (planner ${models[0]})`, successRate: 1 });
  });

  it("--plan-cache: the later trials of a recurring task start from the plan that succeeded, with no planner call", async () => {
    const dir = mkdtempSync(join(tmpdir(), "planloop-plan-cache-"));
    const suite = join(dir, "recurring.jsonl");
    writeFileSync(
      suite,
      [21, 5].map((n) => JSON.stringify({ id: `double-${n}`, task: `double ${n}`, expected: { number: n * 2 } })).join("\n"),
    );
    const args = ["--suite", suite, "--tools", join(fixtures, "plan-tools.ts"), "--model", join(fixtures, "suite-model.mjs")];
    const options = ["--strategies", "plan-and-execute", "--trials", "3", "--concurrency", "1", "--no-store"];
    const stats = async (folder: string, ...more: string[]) => {
      const ran = await cli("bench", ...args, ...options, "--out", join(dir, folder), ...more);
      expect(ran).toMatchObject({ code: 0, err: "" });
      return JSON.parse(readFileSync(join(dir, folder, "results.json"), "utf8")).stats[0];
    };
    const without = await stats("without");
    const withCache = await stats("with", "--plan-cache");
    expect(without).toMatchObject({ successRate: 1, modelCalls: 2 });
    // One plan call per task instead of three: a plan and an answer, then answers only.
    expect(withCache.successRate).toBe(1);
    expect(withCache.modelCalls).toBeCloseTo(4 / 3, 10);
    expect(withCache.inputTokens).toBeLessThan(without.inputTokens);
  });

  it("says what is wrong with a suite file: its line and the field", async () => {
    const dir = mkdtempSync(join(tmpdir(), "planloop-suite-bad-"));
    const bad = join(dir, "bad.jsonl");
    writeFileSync(bad, `${JSON.stringify({ id: "a", task: "t" })}\n${JSON.stringify({ id: "b", task: "t", expected: { regex: "(" } })}\n`);
    expect(() => readTaskSuite(bad)).toThrow(`${bad} line 2 (b): "expected" must be a value, or one of`);
    writeFileSync(bad, `${JSON.stringify({ id: "a", task: "t" })}\n${JSON.stringify({ id: "a", task: "u" })}\n`);
    expect(() => readTaskSuite(bad)).toThrow('two tasks with the id "a"');
    const ran = await cli("bench", "--suite", bad, "--model", join(fixtures, "suite-model.mjs"), "--no-store");
    expect(ran).toMatchObject({ code: 2, err: expect.stringContaining('two tasks with the id "a"') });
  });

  it("scores by value, contains, number with a tolerance, oneOf, regex and a scorer of one's own; a run that did not complete fails", async () => {
    const result = (output: string, status = "completed") => ({ status, output }) as unknown as StrategyResult;
    const task = (expected: unknown) => ({ id: "t", task: "t", expected }) as never;
    expect((await scoreRun(task("  42 "), result("42"))).passed).toBe(true);
    expect((await scoreRun(task({ contains: "refund" }), result("Total Refunds: 3"))).passed).toBe(true);
    expect((await scoreRun(task({ number: 1234.5, tolerance: 0.01 }), result("It is 1,234.51 CNY"))).passed).toBe(true);
    expect((await scoreRun(task({ number: 1234.5 }), result("It is 1,234.51 CNY"))).passed).toBe(false);
    expect((await scoreRun(task({ oneOf: ["yes", "y"] }), result("y"))).passed).toBe(true);
    expect((await scoreRun(task({ regex: "^\\d+ orders$" }), result("137 orders"))).passed).toBe(true);
    const judge = { halfway: () => 0.5, fine: () => true };
    expect(await scoreRun(task({ scorer: "halfway" }), result("x"), judge)).toEqual({ passed: false, score: 0.5 });
    expect(await scoreRun(task({ scorer: "fine" }), result("x"), judge)).toEqual({ passed: true, score: 1 });
    await expect(scoreRun(task({ scorer: "none" }), result("x"), judge)).rejects.toThrow('no scorer "none"');
    expect((await scoreRun(task("42"), result("42", "failed"))).passed).toBe(false);
    // An LLM judge: the model given, else the run's own; it sees the task, the reference and the answer.
    const seen: string[] = [];
    const judgeModel = (request: ModelRequest) => {
      const text = String(request.messages.at(-1)!.content);
      seen.push(text);
      return {
        type: "final" as const,
        content: text.includes("The answer to judge:\n137 orders") ? "PASS: it counts them" : "FAIL: wrong count",
      };
    };
    const judged = task({ scorer: "judge", reference: "137" });
    expect(await scoreRun(judged, result("137 orders"), { judge: llmJudge({ model: judgeModel }) })).toEqual({ passed: true, score: 1 });
    expect(await scoreRun(judged, result("12 orders"), { judge: llmJudge() }, judgeModel)).toEqual({ passed: false, score: 0 });
    expect(seen[0]).toContain("A right answer:\n137");
    await expect(scoreRun(judged, result("x"), { judge: llmJudge() })).rejects.toThrow("llmJudge has no model");
  });
});
