import { isRecord } from "../../core/is-record.js";
import type { ToolOutcome } from "../../core/tools/tool-runner.js";
import type { JournalEntry } from "../../journal/checkpoint-store.js";
import { callPlace } from "./code-journal.js";
import type { CodeModeState } from "./code-mode-state.js";

/** A call of a code-mode program as a step of its run: where the run's steps are listed and counted. */
export interface CodeStep {
  /** `code:<attempt>:<key>`: the step's id (and the id its decisions come under, `#2`… once asked again). */
  place: string;
  /** The program that made it: 1, then each repair. */
  program: number;
  tool: string;
  arguments: unknown;
  /** How often it started: a side-effecting call is kept as it starts; a call that waited starts again once decided. */
  starts: number;
  status: "running" | "waiting" | "succeeded" | "failed";
  outcome?: ToolOutcome;
  /** Wall-clock times (ms since 1970), where the journal kept them. */
  startedAt?: number;
  endedAt?: number;
}

/**
 * The calls a code-mode run's journal holds, one step per call in the order each first
 * appears: the calls that ran (a call a later program read back from an earlier one was kept
 * once, so it is one step), the side-effecting calls still running or cut short, and the
 * calls a pause waits for. Pure; empty for a journal of any other run.
 */
export function codeStepsOf(journal: readonly JournalEntry[]): CodeStep[] {
  const steps = new Map<string, CodeStep>();
  for (const entry of journal) {
    if (entry.kind === "code-call") {
      const place = callPlace(entry.attempt, entry.key);
      const known = steps.get(place);
      const step: CodeStep = known ?? {
        place,
        program: entry.attempt + 1,
        tool: entry.name,
        arguments: entry.arguments,
        starts: 0,
        status: "running",
      };
      if (entry.outcome === undefined) {
        steps.set(place, { ...step, starts: step.starts + 1, status: "running", ...at("startedAt", entry.at) });
        continue;
      }
      const outcome = entry.outcome as ToolOutcome;
      // An end with no start kept before it (or after a wait): the call started just before it ended.
      const started =
        step.status === "running" && known !== undefined ? {} : { starts: step.starts + 1, ...at("startedAt", entry.startedAt) };
      steps.set(place, { ...step, ...started, status: outcome.error ? "failed" : "succeeded", outcome, ...at("endedAt", entry.at) });
    } else if (entry.kind === "paused") {
      for (const pending of pendingOf(entry.state)) {
        const place = pending.id.replace(/#\d+$/, "");
        const known = steps.get(place);
        const program = Number(/^code:(\d+):/.exec(place)?.[1] ?? 0) + 1;
        steps.set(place, {
          ...(known ?? { place, program, tool: pending.name, arguments: pending.arguments, starts: 0 }),
          status: "waiting",
          starts: (known?.starts ?? 0) + 1,
        });
      }
    }
  }
  return [...steps.values()];
}

/** Steps ended of those the run made or waits for, as `runs list` counts them. */
export function codeStepCounts(journal: readonly JournalEntry[]): { ended: number; made: number } {
  const steps = codeStepsOf(journal);
  return { ended: steps.filter((step) => step.status === "succeeded" || step.status === "failed").length, made: steps.length };
}

function pendingOf(state: unknown): CodeModeState["pending"] {
  if (!isRecord(state) || state.kind !== "planloop/code-mode-state" || !Array.isArray(state.pending)) return [];
  return (state.pending as unknown[]).filter(
    (pending): pending is CodeModeState["pending"][number] =>
      isRecord(pending) && typeof pending.id === "string" && typeof pending.name === "string",
  );
}

function at(field: "startedAt" | "endedAt", time: number | undefined): Partial<Record<typeof field, number>> {
  return time === undefined ? {} : { [field]: time };
}
