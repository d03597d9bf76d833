import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { main as approval } from "../../examples/approval/main.js";
import { main as reactVsPlan, table } from "../../examples/react-vs-plan/main.js";
import { main as research } from "../../examples/research/main.js";
import { main as weeklyReport } from "../../examples/weekly-report/main.js";
import { repoRoot } from "../helpers/paths.js";

describe("examples", () => {
  it("weekly-report: replans twice and writes the report", async () => {
    const result = await weeklyReport({ print: false });
    expect(result).toMatchObject({ status: "completed", replans: 2 });
    expect(result.output).toContain("| orders |");
  });

  it("research: searches three sources in parallel and cites sentences that are in the cited documents", async () => {
    const { result, corpus } = await research({ print: false });
    expect(result.status).toBe("completed");
    const events = result.trace.map((event) => `${event.type} ${event.stepId ?? ""}`);
    const firstEnd = events.findIndex((line) => line.startsWith("step-end"));
    expect(["step-start 1", "step-start 2", "step-start 3"].every((line) => events.indexOf(line) < firstEnd)).toBe(true);
    const citations = [...result.output!.matchAll(/^- (.+) \[([\w-]+\/[\w-]+)\]$/gm)];
    expect(citations).toHaveLength(3);
    for (const [, sentence, id] of citations) {
      const document = corpus.find((candidate) => candidate.id === id);
      expect(document, id).toBeDefined();
      expect(document!.text.replace(/\n/g, " ")).toContain(sentence!);
    }
    expect(new Set(citations.map((citation) => citation[2]!.split("/")[0]))).toEqual(new Set(["papers", "blog", "notes"]));
  });

  it("approval: a second process continues the stored run by id; the refund runs exactly once; a third runs nothing", async () => {
    const dir = mkdtempSync(join(tmpdir(), "planloop-approval-"));
    const script = join(repoRoot, "examples", "approval", "main.ts");
    const run = (...args: string[]) => promisify(execFile)(process.execPath, ["--import", "tsx", script, ...args], { cwd: repoRoot });
    const first = await run("start", dir);
    expect(first.stdout).toContain("start: waiting");
    expect(first.stdout).toContain("approve step:2");
    expect(readFileSync(join(dir, "actions.log"), "utf8")).toBe("lookup A123\n");
    const second = await run("resume", dir);
    expect(second.stdout).toContain("resume: completed");
    expect(readFileSync(join(dir, "actions.log"), "utf8").trim().split("\n")).toEqual([
      "lookup A123",
      "refund A123 1280",
      "notify Li Wei: Your refund of ¥1280 is on its way.",
    ]);
    // The same resume again: the store hands back the finished run's result, and nothing runs.
    const third = await run("resume", dir);
    expect(third.stdout).toContain("resume: the run already finished; its stored result is handed back and nothing runs");
    expect(third.stdout).toContain("resume: completed");
    expect(readFileSync(join(dir, "actions.log"), "utf8").trim().split("\n")).toHaveLength(3);
  });

  it("approval: a denied refund fails its step and the customer is not told it was refunded", async () => {
    const dir = mkdtempSync(join(tmpdir(), "planloop-approval-"));
    await approval("start", dir, { print: false });
    const result = await approval("resume", dir, { deny: true, print: false });
    expect(result.status).toBe("failed");
    expect(result.steps["2"]).toMatchObject({ status: "failed", error: expect.stringContaining("partial refunds only") });
    expect(result.steps["3"]?.status).toBe("skipped");
    expect(readFileSync(join(dir, "actions.log"), "utf8")).toBe("lookup A123\n");
  });

  it("react-vs-plan: the same task through every strategy, usage side by side", async () => {
    const rows = await reactVsPlan({ print: false, latencyMs: 0 });
    expect(rows.map((row) => [row.strategy, row.status])).toEqual([
      ["react", "completed"],
      ["plan-and-execute", "completed"],
      ["rewoo", "failed"],
      ["llm-compiler", "completed"],
      // The offline model writes the program from the plan it would write, and its repairs do not learn the column: it fails as ReWOO does.
      ["code", "failed"],
    ]);
    const [react, plan] = rows;
    expect(plan!.usage.modelCalls).toBeLessThan(react!.usage.modelCalls);
    expect(plan!.usage.inputTokens).toBeLessThan(react!.usage.inputTokens);
    expect(table(rows).split("\n")[0]).toMatch(/^strategy\s+status\s+model calls\s+input tokens/);
  });
});
