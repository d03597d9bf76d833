import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { CheckpointStore, StoredRun } from "../journal/checkpoint-store.js";
import type { LeaseOptions } from "../journal/run-lease.js";
import type { ToolEffect, Tool } from "../core/tools/define-tool.js";
import { seededRandom } from "../core/seeded-random.js";
import { sqliteStore } from "../stores/sqlite/sqlite-store.js";

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
  /** Seeds the random choice of kill points. */
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
  /** The processes it ran in, in order, once per call (1 is the one that was killed). */
  processes: number[];
}

export interface CrashRun {
  runId: string;
  /** The commit the first process was killed after (for a kill at a commit). */
  killedAfterCommit?: number;
  /** The tool call (counted in the order they started) the first process was killed in, right after it returned. */
  killedInCall?: number;
  /** Processes it took: the killed one and those that continued it. */
  processes: number;
  status: string;
  calls: CrashCall[];
}

export interface CrashReport {
  /** Commits an uninterrupted run makes (the points a kill can fall after). */
  commitPoints: number;
  /** Tool calls an uninterrupted run makes (a kill can fall inside each). */
  callPoints: number;
  runs: CrashRun[];
  /** What went wrong, one line each: empty when every finished step ran once and no side-effecting call re-ran unasked. */
  problems: string[];
}

type LogLine =
  | { p: number; commit: number }
  | { p: number; call: { key: string; tool: string; effect: ToolEffect } }
  | { p: number; result: { status: string; pending: Array<{ id: string; kind: string }>; output: unknown } };

/**
 * Crash-tests a durable run: runs the scenario once uninterrupted (to count its commit
 * points), then, for each kill point, in a fresh child process that kills itself with
 * SIGKILL right after that commit, and continues it by id in new processes until it ends,
 * answering what it asks (approvals are given; a side-effecting call cut short is run again
 * or marked done). Reports per run how often each tool call ran and in which processes, and
 * a problem for every step that had finished before the kill and ran again, and every
 * side-effecting call that ran again in a process that was given no decision.
 *
 * @example
 * const report = await crashTest({ module: "./crash-scenario.mjs", killPoints: "every" });
 * expect(report.problems).toEqual([]);
 */
export async function crashTest(options: CrashTestOptions): Promise<CrashReport> {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), "planloop-crash-test-"));
  const storePath = join(dir, "runs.sqlite");
  const child = childProcess(options, storePath, dir);
  const clean = await child.continueUntilDone("clean", "0");
  const commitPoints = clean.lines.filter((line) => "commit" in line && line.p === 1).length;
  const callPoints = clean.lines.filter((line) => "call" in line && line.p === 1).length;
  const problems: string[] = [...clean.problems];
  if (clean.status === "unfinished") problems.push(`the uninterrupted run did not end: ${clean.note}`);
  if (commitPoints === 0)
    problems.push("the uninterrupted run wrote no checkpoint: spread start's options (store, runId, lease) into the entry point's");
  const runs: CrashRun[] = [];
  // A run that keeps nothing cannot be continued: there is nothing to kill it at.
  for (const point of commitPoints === 0 ? [] : killPointsOf(options, commitPoints, callPoints)) {
    const runId = "commit" in point ? `crash-after-${point.commit}` : `crash-in-call-${point.call}`;
    const run = await child.continueUntilDone(runId, "commit" in point ? `commit:${point.commit}` : `call:${point.call}`);
    const calls = callsOf(run.lines);
    const killed = "commit" in point ? { killedAfterCommit: point.commit } : { killedInCall: point.call };
    runs.push({ runId, ...killed, processes: run.processes, status: run.status, calls });
    problems.push(...run.problems);
    if (run.status !== clean.status && options.onInterrupted !== "mark-done")
      problems.push(`${runId}: ended ${run.status}, the uninterrupted run ${clean.status}`);
  }
  return { commitPoints, callPoints, runs, problems };
}

type KillPoint = { commit: number } | { call: number };

/** Where the first process of each run is killed: after a commit (not the last), or inside a call. */
function killPointsOf(options: CrashTestOptions, commitPoints: number, callPoints: number): KillPoint[] {
  const all: KillPoint[] = [
    ...Array.from({ length: Math.max(0, commitPoints - 1) }, (_, index) => ({ commit: index + 1 })),
    ...Array.from({ length: callPoints }, (_, index) => ({ call: index + 1 })),
  ];
  if (options.killPoints === "every") return all;
  const wanted = Math.min(options.killPoints ?? 8, all.length);
  const random = seededRandom(options.seed ?? 1);
  const chosen = new Set<number>();
  while (chosen.size < wanted) chosen.add(Math.floor(random() * all.length));
  return [...chosen].sort((a, b) => a - b).map((index) => all[index]!);
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

/** The scenario's runs in child processes: one killed after a commit, then continued until it ends. */
function childProcess(options: CrashTestOptions, storePath: string, dir: string) {
  const script = childScript();
  const spawnOne = (run: { runId: string; killAt: string; number: number; decisions: object; log: string }) =>
    new Promise<void>((resolve) => {
      const { runId, killAt, number, decisions, log } = run;
      const args = [...(options.nodeArgs ?? []), script, options.module, storePath, runId, killAt, log, String(number)];
      const proc = spawn(process.execPath, [...args, JSON.stringify(decisions)], { stdio: ["ignore", "ignore", "pipe"] });
      let errors = "";
      proc.stderr.on("data", (chunk: Buffer) => (errors += chunk.toString()));
      proc.on("close", (code, signal) => {
        if (code !== 0 && signal !== "SIGKILL") writeFileSync(`${log}.error`, errors);
        resolve();
      });
    });
  return {
    async continueUntilDone(runId: string, killAt: string) {
      const log = join(dir, `${runId}.log`);
      writeFileSync(log, "");
      let decisions: object = {};
      const problems: string[] = [];
      // What had finished when the first process was killed: it never runs again.
      let finishedBefore: Set<string> | undefined;
      for (let number = 1; number <= 12; number += 1) {
        if (number === 2) finishedBefore = finishedKeys(storePath, runId);
        await spawnOne({ runId, killAt: number === 1 ? killAt : "0", number, decisions, log });
        const lines = readLog(log);
        if (existsSync(`${log}.error`)) {
          return { status: "unfinished", note: readFileSync(`${log}.error`, "utf8").slice(0, 400), lines, processes: number, problems };
        }
        problems.push(...rerunProblems(runId, lines, { number, finishedBefore, decisions }));
        const result = lines.findLast((line) => "result" in line && line.p === number);
        if (result === undefined || !("result" in result)) continue; // killed: the next process continues it
        if (result.result.status !== "waiting") return { status: result.result.status, note: "", lines, processes: number, problems };
        decisions = answersFor(result.result.pending, options.onInterrupted ?? "run-again");
      }
      problems.push(`${runId}: did not end within 12 processes`);
      return { status: "unfinished", note: "", lines: readLog(log), processes: 12, problems };
    },
  };
}

/** What the test says to each thing a waiting run asks. */
function answersFor(pending: ReadonlyArray<{ id: string; kind: string }>, onInterrupted: "run-again" | "mark-done"): object {
  const approvals: Record<string, { approved: true }> = {};
  const answers: Record<string, string> = {};
  for (const { id, kind } of pending) {
    if (kind === "input" || (kind === "interrupted" && onInterrupted === "mark-done")) answers[id] = "marked done by crashTest";
    else approvals[id] = { approved: true };
  }
  return { approvals, answers };
}

/**
 * The problems a process's calls show: a call whose step had finished before the kill, a
 * side-effecting call run again by a process given no decision, and a side-effecting call run
 * more than once within the process (a retry of a call that may have taken effect).
 */
function rerunProblems(
  runId: string,
  lines: readonly LogLine[],
  child: { number: number; finishedBefore: Set<string> | undefined; decisions: object },
): string[] {
  const { number, finishedBefore, decisions } = child;
  const problems: string[] = [];
  const earlier = new Set(lines.flatMap((line) => ("call" in line && line.p < number ? [line.call.key] : [])));
  const decided =
    Object.keys({ ...(decisions as { approvals?: object }).approvals, ...(decisions as { answers?: object }).answers }).length > 0;
  const times = new Map<string, number>();
  for (const line of lines) {
    if (!("call" in line) || line.p !== number) continue;
    const { key, tool, effect } = line.call;
    times.set(key, (times.get(key) ?? 0) + 1);
    if (effect === "side-effecting" && key !== "-" && times.get(key) === 2)
      problems.push(`${runId}: side-effecting ${tool} (${key}) ran more than once in process ${number}`);
    if (finishedBefore?.has(key))
      problems.push(`${runId}: ${tool} (${key}) had finished before the kill, and ran again in process ${number}`);
    else if (effect === "side-effecting" && earlier.has(key) && !decided)
      problems.push(`${runId}: side-effecting ${tool} (${key}) ran again in process ${number} without being asked`);
  }
  return problems;
}

/** The keys of the calls a run and the runs inside it had ended when its process was killed. */
function finishedKeys(storePath: string, runId: string): Set<string> {
  const store = sqliteStore({ path: storePath });
  try {
    const keys = new Set<string>();
    const ids = [runId, ...(store.listRuns({ within: runId }) as Array<{ runId: string }>).map((row) => row.runId)];
    for (const id of ids) {
      for (const entry of (store.getRun(id) as StoredRun | undefined)?.journal ?? []) {
        if (entry.kind === "step-end" && (entry.record as { status?: string }).status !== "waiting") keys.add(`${id}/${entry.stepKey}`);
        if (entry.kind === "call-end") keys.add(`${id}/call:${entry.turn}:${entry.position}`);
      }
    }
    return keys;
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
