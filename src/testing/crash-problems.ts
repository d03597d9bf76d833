import type { ToolEffect } from "../core/tools/define-tool.js";

/*
 * What `crashTest` counts as a problem in a run's call log. Pure: the log, what the store kept
 * and what each process was told decide it.
 */

/** A line of the call log: what a child process did, as it happened. */
export type LogLine =
  | { p: number; commit: number }
  | { p: number; call: { key: string; tool: string; effect: ToolEffect } }
  | { p: number; ended: { key: string; ok: boolean } }
  | { p: number; settled: string }
  | { p: number; result: { status: string; pending: Array<{ id: string; kind: string }>; output: unknown }; ms: number };

/** What one process of a run started with. */
export interface ProcessStart {
  number: number;
  /** The calls whose ends the store had kept when the run was killed (known from the process after). */
  finishedBefore: ReadonlySet<string> | undefined;
  /** The calls the store has seen pause (a poll step's, a wait's): they run again by design. */
  paused: ReadonlySet<string>;
  /** The kinds of the questions it was given answers to (`approval`, `interrupted`, `input`). */
  answered: ReadonlySet<string>;
}

/**
 * The problems a process's calls show: a call that had finished before the kill (its end kept,
 * or its tool returned while the process lived on), a side-effecting call run again without
 * being asked whether it took effect, and a side-effecting call run more than once within the
 * process (a retry of a call that may have taken effect). A call cut short before it returned
 * may run again; a side-effecting one only when the question of what became of it was answered.
 */
export function rerunProblems(runId: string, lines: readonly LogLine[], start: ProcessStart): string[] {
  const { number, finishedBefore, paused, answered } = start;
  const earlier = earlierCalls(lines, number);
  const problems: string[] = [];
  const times = new Map<string, number>();
  for (const line of lines) {
    if (!("call" in line) || line.p !== number) continue;
    const { key, tool, effect } = line.call;
    times.set(key, (times.get(key) ?? 0) + 1);
    if (effect === "side-effecting" && key !== "-" && times.get(key) === 2)
      problems.push(`${runId}: side-effecting ${tool} (${key}) ran more than once in process ${number}`);
    const before = earlier.get(key);
    if (before === undefined || times.get(key)! > 1) continue;
    if (finishedBefore?.has(key))
      problems.push(`${runId}: ${tool} (${key}) had finished before the kill, and ran again in process ${number}`);
    else if (before.settled !== undefined && !paused.has(key))
      problems.push(
        `${runId}: ${tool} (${key}) returned in process ${before.settled}, which lived on, and ran again in process ${number}: its end was not kept`,
      );
    else if (effect !== "side-effecting") continue;
    else if (answered.size === 0)
      problems.push(`${runId}: side-effecting ${tool} (${key}) ran again in process ${number} without being asked`);
    else if (!answered.has("interrupted") && !before.failed)
      problems.push(
        `${runId}: side-effecting ${tool} (${key}) ran in process ${before.process}, and again in process ${number} on ${[...answered].join(", ")}, without being asked whether it took effect`,
      );
  }
  return problems;
}

/** How each call key last ran before the given process: where, whether its tool failed, and where it returned and lived on. */
function earlierCalls(lines: readonly LogLine[], number: number) {
  const calls = new Map<string, { process: number; failed: boolean; settled: number | undefined }>();
  for (const line of lines) {
    if (line.p >= number) continue;
    if ("call" in line) calls.set(line.call.key, { process: line.p, failed: false, settled: calls.get(line.call.key)?.settled });
    else if ("ended" in line && !line.ended.ok) calls.get(line.ended.key)!.failed = true;
    else if ("settled" in line) calls.get(line.settled)!.settled = line.p;
  }
  return calls;
}
