import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { CheckpointStore, StoredRun } from "../journal/checkpoint-store.js";
import type { LeaseOptions } from "../journal/run-lease.js";
import type { ToolEffect, Tool } from "../core/tools/define-tool.js";
import { sqliteStore } from "../stores/sqlite/sqlite-store.js";
import { killPointsOf, type KillAt, type KillPoint, type ProcessShape } from "./crash-kills.js";
import { rerunProblems, type LogLine } from "./crash-problems.js";
import { callPlace } from "../strategies/code-mode/code-journal.js";

/**
 * What a module run by `crashTest` exports: the tools its run uses, and `start`, which runs
 * it (any entry point) with the options given spread into the entry point's own.
 *
 * @example
 * export const tools = [fetchOrders, refund];
 * export const start = (options) => executePlan({ plan, ...options });
 */
export interface CrashScenario {
  tools: readonly Tool[];
  start(options: CrashStartOptions): Promise<{ status: string; pending?: ReadonlyArray<{ id: string; kind: string }>; output?: unknown }>;
}

/** What `start` is given: spread it into the entry point's options (its `tools` are yours, wrapped to be watched). */
export interface CrashStartOptions {
  store: CheckpointStore;
  runId: string;
  tools: Tool[];
  lease: LeaseOptions;
  approvals: Record<string, { approved: true }>;
  answers: Record<string, string>;
}

export interface CrashTestOptions {
  /** The scenario module (see `CrashScenario`). */
  module: string;
  /**
   * Kill at every point of the run (`"every"`), or at this many chosen at random; default 8. The
   * points: after each commit, and inside each tool call (right after it returned: its effect
   * made, its end not yet kept).
   */
  killPoints?: number | "every";
  /**
   * Also kill this many runs at seeded random moments, wherever they land (inside a tool,
   * between a tool's return and its commit, during a commit): in turn, 0-20 ms after a random
   * tool call returned (0: on the event loop's next turn), and at a time within the
   * uninterrupted run. Default 0.
   */
  randomKills?: number;
  /** Seeds the random choice of kill points and the random kills. */
  seed?: number;
  /**
   * How a side-effecting call the kill cut short is answered when the run asks: run it again
   * (default), or mark it done with the text "marked done by crashTest".
   */
  onInterrupted?: "run-again" | "mark-done";
  /** Node's flags for the child processes (`["--import", "tsx"]` for a TypeScript module). */
  nodeArgs?: string[];
  /** Where the store file and the call log go; a new temporary folder by default. */
  dir?: string;
}

/** One tool call's key across a run's processes. */
export interface CrashCall {
  key: string;
  tool: string;
  effect: ToolEffect;
  /** The processes it ran in, in order, once per call (see `CrashRun.killedInProcess`). */
  processes: number[];
}

/**
 * A run crashTest killed once and continued. Commits and calls are counted in the order they
 * happened over all the uninterrupted run's processes (several when it waited for a decision).
 */
export interface CrashRun {
  runId: string;
  /** The process that was killed: 1, or a later one when the uninterrupted run took several. */
  killedInProcess: number;
  /** The commit it was killed right after (for a kill at a commit). */
  killedAfterCommit?: number;
  /** The tool call it was killed in, right after the tool returned (for a kill in a call). */
  killedInCall?: number;
  /** For a kill at a random time: milliseconds after the killed process started its scenario. */
  killedAtMs?: number;
  /** For a random kill after a call returned: that call, and how many milliseconds later (0: the next turn). */
  killedAfterReturn?: { call: number; ms: number };
  /** Processes it took: those before the kill, the killed one, and those that continued it. */
  processes: number;
  status: string;
  calls: CrashCall[];
}

export interface CrashReport {
  /** Commits an uninterrupted run makes, over all its processes (the points a kill can fall after). */
  commitPoints: number;
  /** Tool calls an uninterrupted run makes, over all its processes (a kill can fall inside each). */
  callPoints: number;
  runs: CrashRun[];
  /**
   * What went wrong, one line each: empty when no call that had finished (its end kept, or its
   * tool returned and the process lived on 10 ms or more) ran again, no side-effecting call ran
   * again without being asked whether it took effect, and none ran twice within one process.
   */
  problems: string[];
}

/**
 * Crash-tests a durable run: runs the scenario once uninterrupted (to count its commits, calls
 * and time), then, for each kill point and each random kill, in fresh child processes of which
 * one kills itself with SIGKILL there, and continues it by id in new processes until it ends,
 * answering what it asks (approvals are given; a side-effecting call cut short is run again
 * or marked done). Reports per run how it was killed, how often each tool call ran and in
 * which processes, and the problems (see `CrashReport.problems`).
 *
 * @example
 * const report = await crashTest({ module: "./crash-scenario.mjs", killPoints: "every", randomKills: 4 });
 * expect(report.problems).toEqual([]);
 */
export async function crashTest(options: CrashTestOptions): Promise<CrashReport> {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), "planloop-crash-test-"));
  const storePath = join(dir, "runs.sqlite");
  const child = childProcess(options, storePath, dir);
  const clean = await child.continueUntilDone({ runId: "clean", process: 1, at: null });
  const shapes = processShapes(clean.lines);
  const commitPoints = shapes.reduce((sum, shape) => sum + shape.commits, 0);
  const callPoints = shapes.reduce((sum, shape) => sum + shape.calls, 0);
  const problems: string[] = [...clean.problems];
  if (clean.status === "unfinished") problems.push(`the uninterrupted run did not end: ${clean.note}`);
  if (commitPoints === 0)
    problems.push("the uninterrupted run wrote no checkpoint: spread start's options (store, runId, lease) into the entry point's");
  const runs: CrashRun[] = [];
  const choice = { points: options.killPoints ?? 8, randomKills: options.randomKills ?? 0, seed: options.seed ?? 1 };
  // A run that keeps nothing cannot be continued: there is nothing to kill it at.
  for (const point of commitPoints === 0 ? [] : killPointsOf(shapes, choice)) {
    const run = await child.continueUntilDone(point);
    runs.push({ runId: point.runId, ...point.shown, processes: run.processes, status: run.status, calls: callsOf(run.lines) });
    problems.push(...run.problems);
    if (run.status !== clean.status && options.onInterrupted !== "mark-done")
      problems.push(`${point.runId}: ended ${run.status}, the uninterrupted run ${clean.status}`);
  }
  return { commitPoints, callPoints, runs, problems };
}

/** What each process of the uninterrupted run did: its commits, its calls, its time. */
function processShapes(lines: readonly LogLine[]): ProcessShape[] {
  const shapes: ProcessShape[] = [];
  for (const line of lines) {
    const shape = (shapes[line.p - 1] ??= { commits: 0, calls: 0, ms: 0 });
    if ("commit" in line) shape.commits += 1;
    else if ("call" in line) shape.calls += 1;
    else if ("result" in line) shape.ms = line.ms;
  }
  return shapes;
}

/** The calls a run's processes logged, by key. */
function callsOf(lines: readonly LogLine[]): CrashCall[] {
  const byKey = new Map<string, CrashCall>();
  for (const line of lines) {
    if (!("call" in line)) continue;
    const known = byKey.get(line.call.key) ?? { ...line.call, processes: [] };
    known.processes.push(line.p);
    byKey.set(line.call.key, known);
  }
  return [...byKey.values()];
}

/** Where a run is killed: in which of its processes, and where in it (null: nowhere). */
type Kill = Pick<KillPoint, "runId" | "process"> & { at: KillAt | null };

/** The scenario's runs in child processes: one killed where told, then continued until it ends. */
function childProcess(options: CrashTestOptions, storePath: string, dir: string) {
  const script = childScript();
  const spawnOne = (run: { runId: string; killAt: KillAt | null; number: number; decisions: object; log: string }) =>
    new Promise<void>((resolve) => {
      const { runId, killAt, number, decisions, log } = run;
      const args = [...(options.nodeArgs ?? []), script, options.module, storePath, runId, JSON.stringify(killAt), log, String(number)];
      const proc = spawn(process.execPath, [...args, JSON.stringify(decisions)], { stdio: ["ignore", "ignore", "pipe"] });
      let errors = "";
      proc.stderr.on("data", (chunk: Buffer) => (errors += chunk.toString()));
      proc.on("close", (code, signal) => {
        if (code !== 0 && signal !== "SIGKILL") writeFileSync(`${log}.error`, errors);
        resolve();
      });
    });
  return {
    async continueUntilDone(kill: Kill) {
      const { runId } = kill;
      const log = join(dir, `${runId}.log`);
      writeFileSync(log, "");
      let told: Answers = { decisions: {}, answered: new Set() };
      const problems: string[] = [];
      // What had finished when the killed process died: it never runs again.
      let finishedBefore: Set<string> | undefined;
      const paused = new Set<string>();
      for (let number = 1; number <= 12; number += 1) {
        if (number > 1) {
          const kept = keptKeys(storePath, runId);
          for (const key of kept.paused) paused.add(key);
          if (number === kill.process + 1) finishedBefore = kept.finished;
        }
        await spawnOne({ runId, killAt: number === kill.process ? kill.at : null, number, decisions: told.decisions, log });
        const lines = readLog(log);
        if (existsSync(`${log}.error`)) {
          return { status: "unfinished", note: readFileSync(`${log}.error`, "utf8").slice(0, 400), lines, processes: number, problems };
        }
        problems.push(...rerunProblems(runId, lines, { number, finishedBefore, paused, answered: told.answered }));
        const result = lines.findLast((line) => "result" in line && line.p === number);
        // Killed: the next process continues it, with no decisions (those given were kept, or are asked for again).
        if (result === undefined || !("result" in result)) {
          told = { decisions: {}, answered: new Set() };
          continue;
        }
        if (result.result.status !== "waiting") return { status: result.result.status, note: "", lines, processes: number, problems };
        told = answersFor(result.result.pending, options.onInterrupted ?? "run-again");
      }
      problems.push(`${runId}: did not end within 12 processes`);
      return { status: "unfinished", note: "", lines: readLog(log), processes: 12, problems };
    },
  };
}

type Answers = { decisions: object; answered: Set<string> };

/** What the test says to each thing a waiting run asks. */
function answersFor(pending: ReadonlyArray<{ id: string; kind: string }>, onInterrupted: "run-again" | "mark-done"): Answers {
  const approvals: Record<string, { approved: true }> = {};
  const answers: Record<string, string> = {};
  for (const { id, kind } of pending) {
    if (kind === "input" || (kind === "interrupted" && onInterrupted === "mark-done")) answers[id] = "marked done by crashTest";
    else approvals[id] = { approved: true };
  }
  return { decisions: { approvals, answers }, answered: new Set(pending.map((asked) => asked.kind)) };
}

/**
 * What the store kept of a run and the runs inside it: the keys of the calls that ended, and of
 * the steps that paused for a time or an event (a poll step calls its tool again after one).
 */
function keptKeys(storePath: string, runId: string): { finished: Set<string>; paused: Set<string> } {
  const store = sqliteStore({ path: storePath });
  try {
    const finished = new Set<string>();
    const paused = new Set<string>();
    const ids = [runId, ...(store.listRuns({ within: runId }) as Array<{ runId: string }>).map((row) => row.runId)];
    for (const id of ids) {
      for (const entry of (store.getRun(id) as StoredRun | undefined)?.journal ?? []) {
        if (entry.kind === "call-end") finished.add(`${id}/call:${entry.turn}:${entry.position}`);
        // A code-mode call that ended: its idempotency key is `<run>/code:<attempt>:<key>`.
        if (entry.kind === "code-call" && entry.outcome !== undefined) finished.add(`${id}/${callPlace(entry.attempt, entry.key)}`);
        if (entry.kind !== "step-end") continue;
        if ((entry.record as { status?: string }).status !== "waiting") finished.add(`${id}/${entry.stepKey}`);
        else if (["timer", "event"].includes((entry.waiting as { kind?: string } | undefined)?.kind ?? ""))
          paused.add(`${id}/${entry.stepKey}`);
      }
    }
    return { finished, paused };
  } finally {
    store.close();
  }
}

function readLog(path: string): LogLine[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as LogLine);
}

/** The child script beside this file: compiled JavaScript in the package, TypeScript in this repo's tests. */
function childScript(): string {
  const compiled = fileURLToPath(new URL("./crash-child.js", import.meta.url));
  return existsSync(compiled) ? compiled : fileURLToPath(new URL("./crash-child.ts", import.meta.url));
}
