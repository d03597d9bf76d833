import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli } from "../helpers/run-cli.js";
import { repoRoot, testRoot } from "../helpers/paths.js";

const dir = mkdtempSync(join(tmpdir(), "planloop-cli-"));
const file = (name: string, content: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content));
  return path;
};
const toolsModule = join(testRoot, "fixtures", "plan-tools.ts");

describe("planloop CLI", () => {
  it("--version prints the package's version", async () => {
    const { version } = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { version: string };
    expect(await cli("--version")).toMatchObject({ code: 0, out: `${version}\n` });
  });

  it("validate: 0 for a valid plan, 1 with every problem, 2 for a missing file or bad JSON", async () => {
    const good = file("good.json", { steps: [{ id: 1, task: "double", tool: "double", args: { value: 2 } }] });
    expect(await cli("validate", good, "--tools", toolsModule)).toMatchObject({ code: 0, out: "valid: 1 steps\n" });
    const unknownTool = file("unchecked.json", { steps: [{ id: 1, task: "x", tool: "no_such_tool" }] });
    expect((await cli("validate", unknownTool)).out).toBe(
      "valid: 1 steps (tools not checked: pass --tools to check tool names and arguments)\n",
    );
    const bad = file("bad.json", {
      steps: [
        { id: 1, task: "a", depends_on: [2] },
        { id: 3, task: "b", tool: "triple" },
      ],
    });
    const checked = await cli("validate", bad, "--tools", toolsModule);
    expect(checked.code).toBe(1);
    expect(checked.out).toContain("- step 1 depends on step 2, which is not in the plan");
    expect(checked.out).toContain('- step 3 uses tool "triple", which does not exist; available tools: double, pay, fail');
    expect(await cli("validate", join(dir, "missing.json"))).toMatchObject({
      code: 2,
      err: expect.stringMatching(/^planloop: cannot read plan .*missing\.json: no such file/),
    });
    const broken = await cli("validate", file("broken.json", "{ steps: "));
    expect(broken).toMatchObject({ code: 2, err: expect.stringContaining("is not valid JSON") });
    expect(broken.err).not.toContain("    at ");
  });

  it("run: executes a plan with a tools module; the exit code follows the status", async () => {
    const plan = file("run.json", {
      steps: [
        { id: 1, task: "double", tool: "double", args: { value: 21 } },
        { id: 2, task: "again", tool: "double", args: { value: "$1" }, depends_on: [1] },
      ],
    });
    const done = await cli("run", plan, "--tools", toolsModule, "--json");
    expect(done.code).toBe(0);
    // With --json, stdout is the result alone (it pipes into jq); progress goes to stderr.
    expect(done.err).toContain("plan v1: 2 steps");
    expect(JSON.parse(done.out)).toMatchObject({ status: "completed", output: 84 });
    const events = join(dir, "run.events.jsonl");
    const plain = await cli("run", plan, "--tools", toolsModule, "--events", events);
    expect(plain.out).toContain("completed\noutput: 84");
    expect(
      readFileSync(events, "utf8")
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line).type),
    ).toContain("run-end");
    const failing = file("fail.json", { steps: [{ id: 1, task: "fail", tool: "fail" }] });
    expect(await cli("run", failing, "--tools", toolsModule)).toMatchObject({ code: 1, out: expect.stringContaining("failed: step 1:") });
    expect(await cli("run", failing, "--tools", join(dir, "nope.js"))).toMatchObject({
      code: 2,
      err: expect.stringContaining("cannot load tools"),
    });
    expect(await cli("run", file("unknown.json", { steps: [{ id: 1, task: "x", tool: "triple" }] }), "--tools", toolsModule)).toMatchObject(
      { code: 2, err: expect.stringContaining('tool "triple"') },
    );
  });

  it("run: the resume command it prints is the whole command, its flags kept (--concurrency, --events)", async () => {
    const plan = file("pay-flags.json", { steps: [{ id: 1, task: "pay", tool: "pay", args: { amount: 5 } }] });
    const events = join(dir, "pay-flags.events.jsonl");
    const paused = await cli("run", plan, "--tools", toolsModule, "--concurrency", "2", "--events", events);
    expect(paused.code).toBe(3);
    expect(paused.out).toContain(`resume: planloop run ${plan} --tools ${toolsModule} --concurrency 2 --events ${events} --resume `);
  });

  it("run: a plan that waits for approval saves its state, exits 3, and resumes with --approve or --deny", async () => {
    const plan = file("pay.json", {
      steps: [
        { id: 1, task: "double", tool: "double", args: { value: 60 } },
        { id: 2, task: "pay", tool: "pay", args: { amount: "$1" }, depends_on: [1] },
      ],
    });
    const paused = await cli("run", plan, "--tools", toolsModule);
    expect(paused.code).toBe(3);
    const statePath = join(dir, "pay.state.json");
    expect(paused.out).toContain('step:2 waits for approval: pay {"amount":120}');
    expect(paused.out).toContain(`--resume ${statePath} --approve step:2`);
    expect(JSON.parse(readFileSync(statePath, "utf8"))).toMatchObject({ kind: "planloop/plan-state" });

    const approved = await cli("run", plan, "--tools", toolsModule, "--resume", statePath, "--approve", "step:2", "--json");
    expect(approved.code).toBe(0);
    const result = JSON.parse(approved.out.slice(approved.out.indexOf("{")));
    expect(result).toMatchObject({ status: "completed", output: "paid 120", steps: { 1: { attempts: 1 } } });
    expect(result.usage.toolCalls).toBe(2); // step 1 ran once, before the pause

    // The same resume command again runs nothing: the state file now says the run finished.
    const again = await cli("run", plan, "--tools", toolsModule, "--resume", statePath, "--approve", "step:2");
    expect(again).toMatchObject({ code: 0, out: expect.stringContaining("already finished (completed); there is nothing to resume") });
    expect(again.out).not.toContain("paid");

    expect((await cli("run", plan, "--tools", toolsModule)).code).toBe(3);
    const unknown = await cli("run", plan, "--tools", toolsModule, "--resume", statePath, "--approve", "step:7");
    expect(unknown).toMatchObject({
      code: 2,
      err: expect.stringContaining('"step:7" matches no pending call; the pending calls are: step:2'),
    });
    const denied = await cli("run", plan, "--tools", toolsModule, "--resume", statePath, "--deny", "step:2");
    expect(denied).toMatchObject({ code: 1, out: expect.stringContaining("denied on the command line") });
    expect(await cli("run", plan, "--tools", toolsModule, "--approve", "step:2")).toMatchObject({
      code: 2,
      err: expect.stringContaining("go with --resume"),
    });
    const custom = join(dir, "elsewhere.json");
    expect((await cli("run", plan, "--tools", toolsModule, "--state", custom)).code).toBe(3);
    expect(existsSync(custom)).toBe(true);
  });

  it("demo and trace: the demo writes its files; trace turns events into a page", async () => {
    const demoDir = join(dir, "demo");
    const demo = await cli("demo", "--dir", demoDir, "--latency", "0", "--query-latency", "0");
    expect(demo.code).toBe(0);
    expect(demo.out).toContain("OFFLINE model");
    expect(demo.out).toContain("replan 2:");
    expect(demo.out).toMatch(/completed: 2 replans/);
    for (const name of ["weekly-report.md", "events.jsonl", "trace.html", "shop.sqlite"])
      expect(existsSync(join(demoDir, name))).toBe(true);
    // Kept in the store: the finished run's id hands back its result, with three plan versions.
    const runId = /run: +(\S+) \(planloop runs show/.exec(demo.out)?.[1];
    const shown = await cli("runs", "show", runId!);
    expect(shown.out).toMatch(/\(planAndExecute\): completed[\s\S]*plan v1[\s\S]*plan v3/);
    const traced = await cli("trace", join(demoDir, "events.jsonl"), "--out", join(dir, "again.html"));
    expect(traced.code).toBe(0);
    expect(readFileSync(join(dir, "again.html"), "utf8")).toContain("<svg");
    const perfetto = await cli("trace", join(demoDir, "events.jsonl"), "--format", "perfetto", "--out", join(dir, "trace.json"));
    expect(perfetto.code).toBe(0);
    const { traceEvents } = JSON.parse(readFileSync(join(dir, "trace.json"), "utf8")) as {
      traceEvents: Array<{ ph: string; cat?: string }>;
    };
    expect(traceEvents.filter((event) => event.ph === "X" && event.cat === "sql").length).toBeGreaterThan(3);
    expect(await cli("trace", join(demoDir, "events.jsonl"), "--format", "svg")).toMatchObject({
      code: 2,
      err: expect.stringContaining("--format takes html or perfetto"),
    });
    expect(await cli("trace", file("bad.jsonl", "{}\nnot json\n"))).toMatchObject({
      code: 2,
      err: expect.stringContaining("line 2 is not JSON"),
    });
    expect(await cli("demo", "--model", "claude")).toMatchObject({ code: 2, err: expect.stringContaining("openai:<name>") });
  });

  it("--help works for every command, each with the description the list gives it, and unknown commands fail with 2", async () => {
    const listing = (await cli("--help")).out.replace(/\s+/g, " ");
    for (const command of ["demo", "ask", "validate", "run", "trace", "bench", "worker", "runs"]) {
      const help = await cli(command, "--help");
      expect(help.code).toBe(0);
      const description = help.out.split("\n\n")[1]!.replace(/\s+/g, " ").trim();
      expect(description.length).toBeGreaterThan(20);
      expect(listing).toContain(description);
    }
    expect((await cli("frobnicate")).code).toBe(2);
  });
});

describe("planloop bench", () => {
  it("writes the report and prints the table and the targets", async () => {
    const out = join(dir, "bench");
    const result = await cli(
      "bench",
      "--suite",
      "replan",
      "--strategies",
      "plan-and-execute,rewoo",
      "--model-latency",
      "0",
      "--latency-scale",
      "0",
      "--out",
      out,
    );
    expect(result.code).toBe(0);
    expect(result.out).toContain("| plan-and-execute | 100% |");
    expect(result.out).toContain("| rewoo | 0% |");
    expect(result.out).toContain("target plan-and-execute succeeds where rewoo fails: met");
    expect(result.out).toContain("[##############################] 16/16 runs");
    for (const name of ["report.md", "report.html", "results.json"]) expect(existsSync(join(out, name))).toBe(true);
    expect((await cli("bench", "--suite", "nope")).err).toContain('unknown suite "nope"');
    expect((await cli("bench", "--strategies", "magic")).err).toContain("unknown strategies: magic");
  });

  it("run: Ctrl-C cancels the run, saves its state, prints the resume command and exits 130", async () => {
    const plan = file("slow.json", {
      steps: [
        { id: 1, task: "double", tool: "double", args: { value: 1 } },
        { id: 2, task: "wait", tool: "slow", args: {}, depends_on: [1] },
      ],
    });
    const main = join(repoRoot, "src", "cli", "main.ts");
    const child = spawn(process.execPath, ["--import", "tsx", main, "run", plan, "--tools", toolsModule], {
      cwd: repoRoot,
    });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("step 2") && !child.killed) child.kill("SIGINT");
    });
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(code).toBe(130);
    expect(out).toContain("cancelled");
    const statePath = join(dir, "slow.state.json");
    expect(out).toContain(`--resume ${statePath}`);
    // Kept in the store too, resumable by id.
    const runId = /or by id: planloop runs resume (\S+)/.exec(out)?.[1];
    expect((await cli("runs", "show", runId!)).out).toMatch(/\(executePlan\): paused[\s\S]*step 1: succeeded/);
    expect(JSON.parse(readFileSync(statePath, "utf8"))).toMatchObject({
      kind: "planloop/plan-state",
      steps: { 1: { status: "succeeded" } },
    });
  });

  it("run --store checkpoints the run; the same --run-id again runs nothing; runs list and show read the store", async () => {
    const plan = file("stored.json", {
      steps: [
        { id: 1, task: "double", tool: "double", args: { value: 5 } },
        { id: 2, task: "again", tool: "double", args: { value: "$1" }, depends_on: [1] },
      ],
    });
    const store = `sqlite:${join(dir, "store", "runs.sqlite")}`;
    const first = await cli("run", plan, "--tools", toolsModule, "--store", store, "--run-id", "nightly-1");
    expect(first).toMatchObject({ code: 0, out: expect.stringContaining("output: 20") });
    expect(first.out).toContain("run nightly-1");
    const again = await cli("run", plan, "--tools", toolsModule, "--store", store, "--run-id", "nightly-1");
    expect(again.out).toContain("output: 20");
    expect(again.out).not.toContain("step 1 started");
    expect((await cli("runs", "list", "--store", store)).out).toMatch(
      /^nightly-1 {2}executePlan {2}completed {2}2\/2 steps {2}\$0\.0000 {2}20\d\d-/m,
    );
    const shown = await cli("runs", "show", "nightly-1", "--store", store);
    expect(shown.out).toContain("step 1: succeeded (started 1x)");
    expect(shown.out).toContain("step 2: succeeded (started 1x)");
    expect(await cli("runs", "show", "nope", "--store", store)).toMatchObject({ code: 2, err: expect.stringContaining('no run "nope"') });
    expect(await cli("run", plan, "--tools", toolsModule, "--store", "mysql://x")).toMatchObject({
      code: 2,
      err: expect.stringContaining("--store takes sqlite:<path>"),
    });
    expect(await cli("run", plan, "--tools", toolsModule, "--store", "postgres://me:secret@127.0.0.1:1/none")).toMatchObject({
      code: 2,
      err: expect.stringMatching(/cannot open the store postgres:\/\/me:\*\*\*@127\.0\.0\.1:1\/none: .*ECONNREFUSED/),
    });
  });
});
