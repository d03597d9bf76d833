// Exactly-once as a user reads it, with real processes killed by SIGKILL (issue 52): a step that
// finished while a sibling still ran is not run again; an approved side-effecting call cut off
// by a crash is asked about under a new id, and the first approval cannot run it again; a step
// that keeps crashing its process is given up after maxRecoveries. On SQLite and PostgreSQL.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { freshDatabase, skipPostgres } from "../helpers/postgres.js";
import { repoRoot } from "../helpers/paths.js";
import { exited } from "../helpers/cli-process.js";

const script = join(repoRoot, "test", "fixtures", "exactly-once-run.ts");

interface Outcome {
  status?: string;
  output?: string;
  reason?: string;
  error?: string;
  pending?: Array<{ id: string; kind: string; question?: string }>;
  steps?: Record<string, string>;
}

/** A run's processes, its call log, and the lines logged so far. */
function runs(storeFlag: string, scenario: string) {
  const dir = mkdtempSync(join(tmpdir(), "planloop-once-"));
  const log = join(dir, "calls.log");
  writeFileSync(log, "");
  const runId = `once-${scenario}`;
  const lines = () => readFileSync(log, "utf8").split("\n").filter(Boolean);
  const start = (decisions?: object): { child: ChildProcess; outcome: Promise<Outcome> } => {
    const args = ["--import", "tsx", script, storeFlag, log, runId, scenario, ...(decisions ? [JSON.stringify(decisions)] : [])];
    const child = spawn(process.execPath, args, { cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    let errors = "";
    child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on("data", (chunk: Buffer) => (errors += chunk.toString()));
    const outcome = exited(child).then((): Outcome => {
      if (child.signalCode === "SIGKILL") return {};
      if (output.trim() === "") throw new Error(`the run printed nothing:\n${errors}`);
      return JSON.parse(output.trim()) as Outcome;
    });
    return { child, outcome };
  };
  /** Runs a process to its end. */
  const run = (decisions?: object) => start(decisions).outcome;
  /** Waits until a line matching `pattern` has been logged `times` times in all. */
  const logged = async (pattern: RegExp, times = 1) => {
    for (let waited = 0; lines().filter((line) => pattern.test(line)).length < times; waited += 5) {
      if (waited > 60_000) throw new Error(`${pattern} was not logged ${times} times in 60 s:\n${lines().join("\n")}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };
  const count = (pattern: RegExp) => lines().filter((line) => pattern.test(line)).length;
  return { start, run, logged, count, lines };
}

async function kill(child: ChildProcess): Promise<void> {
  child.kill("SIGKILL");
  await exited(child);
}

type Backend = { name: string; flag: () => Promise<string> };
const backends: Backend[] = [
  { name: "SQLite", flag: async () => `sqlite:${join(mkdtempSync(join(tmpdir(), "planloop-once-db-")), "runs.sqlite")}` },
];
if (!skipPostgres) backends.push({ name: "PostgreSQL", flag: freshDatabase });

describe.each(backends)("exactly-once under SIGKILL on $name", ({ flag }) => {
  it("a step that finished while its sibling still ran is not run again", async () => {
    const scene = runs(await flag(), "siblings");
    const first = scene.start();
    await scene.logged(/^end fast /);
    // 300 ms after fast returned, while slow (3 s) still runs.
    await new Promise((resolve) => setTimeout(resolve, 300));
    await kill(first.child);
    expect(scene.count(/^end slow /)).toBe(0);
    const continued = await scene.run();
    expect(continued).toMatchObject({ status: "completed", steps: { fast: "succeeded", slow: "succeeded" } });
    expect(scene.count(/^start fast /)).toBe(1);
    expect(scene.count(/^start slow /)).toBe(2);
  });

  it("an approved side-effecting call cut off by a crash is asked about under a new id", async () => {
    const scene = runs(await flag(), "send");
    expect(await scene.run()).toMatchObject({ status: "waiting", pending: [{ id: "step:1", kind: "approval" }] });
    const approved = scene.start({ approvals: { "step:1": { approved: true } } });
    await scene.logged(/^start send /);
    await kill(approved.child);

    const continued = await scene.run();
    expect(continued).toMatchObject({
      status: "waiting",
      pending: [{ id: "step:1#2", kind: "interrupted", question: expect.stringMatching(/did it take effect/) }],
    });
    // The first approval, given again (a retried request), runs nothing.
    expect((await scene.run({ approvals: { "step:1": { approved: true } } })).error).toMatch(
      /that decision was taken, and the call now asks anew as step:1#2/,
    );
    expect(await scene.run({ answers: { "step:1#2": "sent before the crash" } })).toMatchObject({ status: "completed" });
    expect(scene.count(/^start send /)).toBe(1);
  });
});

describe("exactly-once under SIGKILL: the ReAct loop and repeated crashes (SQLite)", () => {
  it("an approved side-effecting call of a loop cut off by a crash is asked about under a new id", async () => {
    const scene = runs(await backends[0]!.flag(), "send-loop");
    expect(await scene.run()).toMatchObject({ status: "waiting", pending: [{ id: "call:0:0", kind: "approval" }] });
    const approved = scene.start({ approvals: { "call:0:0": { approved: true } } });
    await scene.logged(/^start send /);
    await kill(approved.child);

    expect(await scene.run()).toMatchObject({ status: "waiting", pending: [{ id: "call:0:0#2", kind: "interrupted" }] });
    for (const stale of ["call:0:0", "c1"]) {
      expect((await scene.run({ approvals: { [stale]: { approved: true } } })).error).toMatch(/matches no pending call/);
    }
    const denied = await scene.run({ approvals: { "call:0:0#2": { approved: false, reason: "it went out" } } });
    expect(denied).toMatchObject({ status: "completed" });
    expect(scene.count(/^start send /)).toBe(1);
  });

  it("a step cut short more often than maxRecoveries fails the run, naming the step and the count", async () => {
    const scene = runs(await backends[0]!.flag(), "crashing");
    // maxRecoveries is 2 in the fixture: started, then started again twice, each time killed.
    for (let time = 1; time <= 3; time += 1) {
      const process = scene.start();
      await scene.logged(/^start hang /, time);
      await kill(process.child);
    }
    const given = await scene.run();
    expect(given).toMatchObject({ status: "failed", steps: { hang: "failed" } });
    expect(given.reason).toMatch(/hang.*cut short 3 times.*maxRecoveries: 2/);
    expect(scene.count(/^start hang /)).toBe(3);
    // Finished: continuing it again hands back the same result, running nothing.
    expect(await scene.run()).toMatchObject({ status: "failed" });
    expect(scene.count(/^start hang /)).toBe(3);
  });

  it("a loop's call cut short more often than maxRecoveries comes back to the model as a tool error", async () => {
    const scene = runs(await backends[0]!.flag(), "crashing-loop");
    for (let time = 1; time <= 3; time += 1) {
      const process = scene.start();
      await scene.logged(/^start hang /, time);
      await kill(process.child);
    }
    const given = await scene.run();
    expect(given).toMatchObject({ status: "completed" });
    expect(given.output).toMatch(/"work" was cut short 3 times .*maxRecoveries: 2/);
    expect(scene.count(/^start hang /)).toBe(3);
  });
});
