import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { benchHtml, benchMarkdown, targetLines } from "./bench-report.js";
import { tiersOf } from "./bench-tiers.js";
import { percentile, strategyStats } from "./bench-stats.js";
import { answerMatches } from "./bench-suite.js";
import { callLatency } from "./bench-tools.js";
import { generateSuites } from "./generate-suites.js";
import { loadSuite } from "./load-suites.js";
import { runBuiltInBench, type BenchRecord } from "./built-in-bench.js";

describe("benchmark suites", () => {
  it("are committed exactly as the generator writes them from their seeds", () => {
    for (const suite of generateSuites()) {
      const committed = JSON.parse(readFileSync(new URL(`../../bench/suites/${suite.name}.json`, import.meta.url), "utf8"));
      expect(committed).toEqual(JSON.parse(JSON.stringify(suite)));
    }
  });

  it("fan out 2 to 8 lookups, chain up to 4, and hide one failing input in every replan task", () => {
    const [fanout, chain, replan] = generateSuites();
    expect(new Set(fanout!.tasks.map((task) => task.width))).toEqual(new Set([2, 3, 4, 5, 6, 8]));
    expect(Math.max(...chain!.tasks.map((task) => task.plan.length))).toBe(4);
    expect(chain!.tasks.every((task) => task.plan.slice(1).every((step) => (step.depends_on ?? []).length === 1))).toBe(true);
    for (const task of replan!.tasks) {
      const cities = task.plan.flatMap((step) => (step.tool === "city_facts" ? [(step.args as { city: string }).city] : []));
      expect(cities.filter((city) => replan!.unavailable.includes(city))).toHaveLength(1);
    }
  });

  it("draw the same latency for the same call, within the tool's range", () => {
    expect(callLatency("city_facts", { city: "A" }, 1)).toBe(callLatency("city_facts", { city: "A" }, 1));
    expect(callLatency("city_facts", { city: "A" }, 1)).not.toBe(callLatency("city_facts", { city: "B" }, 1));
    const latency = callLatency("city_facts", { city: "A" }, 1);
    expect(latency).toBeGreaterThanOrEqual(60);
    expect(latency).toBeLessThanOrEqual(180);
  });
});

describe("answer checks and statistics", () => {
  it("compares numbers within 0.05 and names without case", () => {
    expect(answerMatches("The answer is 12.34.", 12.3)).toBe(true);
    expect(answerMatches("about 1,204.5 million", 1204.5)).toBe(true);
    expect(answerMatches("The answer is 12.5.", 12.3)).toBe(false);
    expect(answerMatches("It is KALORAN.", "Kaloran")).toBe(true);
    expect(answerMatches(undefined, 1)).toBe(false);
  });

  it("computes medians, p95 and the ratios to ReAct", () => {
    expect(percentile([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(percentile([10, 20, 30, 40, 50], 0.95)).toBe(48);
    const record = (strategy: BenchRecord["strategy"], durationMs: number, inputTokens: number, correct = true): BenchRecord => ({
      suite: "s",
      task: "t",
      width: 3,
      strategy,
      run: 1,
      status: "completed",
      correct,
      durationMs,
      replans: 0,
      usage: { modelCalls: 1, inputTokens, outputTokens: 0, costUsd: 0, toolCalls: 1 },
    });
    const stats = strategyStats([
      record("react", 300, 1000),
      record("react", 500, 3000),
      record("llm-compiler", 100, 500),
      record("llm-compiler", 100, 500, false),
    ]);
    expect(stats.find((entry) => entry.strategy === "llm-compiler")).toMatchObject({
      successRate: 0.5,
      medianMs: 100,
      speedupVsReact: 4,
      inputTokensVsReact: 0.25,
    });
  });
});

describe("runBuiltInBench", () => {
  it("runs every strategy on every task, checks answers, and the replan suite separates the strategies", async () => {
    const suites = ["fanout", "chain", "replan"].map(loadSuite).map((suite) => ({ ...suite, tasks: suite.tasks.slice(0, 3) }));
    const records = await runBuiltInBench({
      suites,
      strategies: ["react", "plan-and-execute", "rewoo", "llm-compiler"],
      modelLatencyMs: 0,
      latencyScale: 0,
      concurrency: 6,
    });
    expect(records).toHaveLength(3 * 3 * 4);
    const wrong = records.filter((record) => !record.correct).map((record) => `${record.suite}/${record.strategy}`);
    expect(wrong).toEqual(["replan/rewoo", "replan/rewoo", "replan/rewoo"]);
    expect(targetLines(records).at(-1)).toContain("target plan-and-execute succeeds where rewoo fails: met");
    const markdown = benchMarkdown(records, { model: "offline", offline: true });
    expect(markdown).toContain("measure orchestration cost");
    expect(markdown).toContain("## replan");
    expect(benchHtml(records, { model: "offline", offline: true }).match(/class="bar"/g)).toHaveLength(3 * 3 * 4);
    // ReAct's calls are all the executor's; a planning strategy's are the planner's (no agent steps here).
    const react = records.find((record) => record.strategy === "react")!;
    expect(Object.keys(react.tiers!)).toEqual(["executor"]);
    expect(react.tiers!.executor!.modelCalls).toBe(react.usage.modelCalls);
    expect(react.tiers!.executor!.inputTokens).toBe(react.usage.inputTokens);
    const rewoo = records.find((record) => record.strategy === "rewoo")!;
    expect(rewoo.tiers).toEqual({ planner: expect.objectContaining({ modelCalls: 2 }) });
    expect(markdown).toMatch(/\| react \| executor \(gpt-4o-mini\) \| [\d.]+ \| [\d.]+ \| [\d.]+ \| \$0\.\d+ \|/);
  });

  it("splits calls by tier: an agent step that names a model is that tier's", () => {
    const modelCallEnd = (seq: number, purpose: "plan" | "act", usage: { inputTokens: number; outputTokens: number }, stepId?: number) => ({
      type: "model-call-end" as const,
      step: 0,
      purpose,
      decision: "final" as const,
      toolCalls: 0,
      durationMs: 1,
      usage,
      ...(stepId === undefined ? {} : { stepId }),
      seq,
      time: 0,
    });
    const tiers = tiersOf([
      {
        type: "plan-created",
        version: 1,
        steps: [
          { id: 1, task: "t", depends_on: [], model: "fast" },
          { id: 2, task: "u", depends_on: [] },
        ],
        seq: 0,
        time: 0,
      },
      modelCallEnd(1, "plan", { inputTokens: 100, outputTokens: 10 }),
      modelCallEnd(2, "act", { inputTokens: 40, outputTokens: 4 }, 1),
      modelCallEnd(3, "act", { inputTokens: 30, outputTokens: 3 }, 2),
    ]);
    expect(tiers).toEqual({
      planner: { modelCalls: 1, inputTokens: 100, outputTokens: 10 },
      fast: { modelCalls: 1, inputTokens: 40, outputTokens: 4 },
      executor: { modelCalls: 1, inputTokens: 30, outputTokens: 3 },
    });
  });

  it("records a run that fails instead of stopping", async () => {
    const suite = { ...loadSuite("chain"), tasks: loadSuite("chain").tasks.slice(0, 1) };
    const records = await runBuiltInBench({ suites: [suite], strategies: ["react"], model: () => Promise.reject(new Error("model down")) });
    expect(records).toEqual([expect.objectContaining({ status: "failed", correct: false, error: expect.stringContaining("model down") })]);
  });
});
