import { journalTime } from "../../core/clock.js";
import { isRecord } from "../../core/is-record.js";
import type { ToolOutcome } from "../../core/tools/tool-runner.js";
import type { JournalEntry } from "../../journal/checkpoint-store.js";
import type { StrategyRun } from "../strategy-run.js";
import { readCodeModeState, type CodeModeState, type KeptCall } from "./code-mode-state.js";

/*
 * What a code-mode run keeps in its store, beside the model's answers (kept by every strategy):
 * when each program started and what its `Date` said, and each call's outcome as it ends
 * (a side-effecting call also as it starts). Read back when the run is continued by id, it
 * replays the programs as they went: a call that ended is read, never made again; one that was
 * cut short by a crash while it had effects waits for a person (`interrupted`).
 */

/** What a continued run's journal says about its programs. */
export interface CodeJournal {
  /** The last pause's state, if the run paused. */
  paused: CodeModeState | undefined;
  /** Calls that ended, in the order they ended. */
  calls: KeptCall[];
  /** Side-effecting calls that started and never ended (a crash cut them short), by `<attempt>/<key>`. */
  cutShort: Set<string>;
  /** What the first program's `Date` said. */
  now: number | undefined;
}

export function readCodeJournal(journal: readonly JournalEntry[]): CodeJournal {
  const read: CodeJournal = { paused: undefined, calls: [], cutShort: new Set(), now: undefined };
  for (const entry of journal) {
    if (entry.kind === "code-start") read.now ??= entry.now;
    else if (entry.kind === "paused" && isRecord(entry.state) && entry.state.kind === "planloop/code-mode-state")
      read.paused = readCodeModeState(entry.state);
    else if (entry.kind === "code-call") {
      const place = `${entry.attempt}/${entry.key}`;
      if (entry.outcome === undefined) read.cutShort.add(place);
      else {
        read.cutShort.delete(place);
        const { key, attempt, name } = entry;
        read.calls.push({ key, attempt, name, arguments: entry.arguments, outcome: entry.outcome as ToolOutcome });
      }
    }
  }
  return read;
}

/** A call's place in the run, `code:<attempt>:<key>`: its step id, and the id its decisions are given under. */
export function callPlace(attempt: number, key: string): string {
  return `code:${attempt}:${key}`;
}

/** Keeps that a program starts, with its text (before it runs: a replay must see the same `Date`). */
export function keepProgramStart(run: StrategyRun, start: { attempt: number; now: number; source: string }): void {
  run.durability?.checkpoints.write([{ kind: "code-start", ...start, at: journalTime() }]);
}

/** Keeps that a side-effecting call is about to run, committed before it does. */
export async function keepCallStart(run: StrategyRun, call: Omit<KeptCall, "outcome">): Promise<void> {
  const checkpoints = run.durability?.checkpoints;
  if (checkpoints === undefined) return;
  checkpoints.write([{ kind: "code-call", ...call, at: journalTime() }]);
  await checkpoints.commit();
}

/** Keeps a call's outcome as it ends, with when it started (committed with the next group: see `commitSoon`). */
export function keepCallEnd(run: StrategyRun, call: KeptCall, startedAt: number): void {
  const checkpoints = run.durability?.checkpoints;
  if (checkpoints === undefined) return;
  checkpoints.write([{ kind: "code-call", ...call, at: journalTime(), startedAt }]);
  checkpoints.commitSoon();
}
