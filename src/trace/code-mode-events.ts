import type { PlanloopEventBody } from "../core/events.js";
import { isRecord } from "../core/is-record.js";
import type { ToolOutcome } from "../core/tools/tool-runner.js";
import { previewOf } from "../core/tools/tool-output.js";
import type { JournalEntry } from "../journal/checkpoint-store.js";
import { callPlace } from "../strategies/code-mode/code-journal.js";
import type { CodeModeState } from "../strategies/code-mode/code-mode-state.js";
import { maskSecrets } from "../trust/secrets.js";

type Timed = PlanloopEventBody & { time: number };
type CodeEntry = Extract<JournalEntry, { kind: "code-start" | "code-call" }>;

/**
 * A code-mode run's journal as the events its live run made: each program a plan version with
 * its text (`plan-created`, once however often it was run again), each call that ran a step
 * (`step-start` with its tool and arguments, `step-end` with its outcome), and the calls a
 * pause waits for as steps waiting. A call a later program read back from an earlier one was
 * kept once, so it is drawn once. One reader per journal, fed its entries in order.
 */
export class CodeModeEvents {
  private readonly programs = new Set<number>();
  /** The programs run since the last pause. */
  private readonly running = new Set<number>();
  /** Calls started and not ended (a side-effecting call is kept as it starts), with when and how often. */
  private readonly open = new Map<string, { at: number; starts: number }>();
  private readonly starts = new Map<string, number>();

  /** Whether `entry` runs a program this journal ran before with no pause between: a later process took the run up. */
  ranAgain(entry: JournalEntry): boolean {
    return entry.kind === "code-start" && this.running.has(entry.attempt);
  }

  /** The events of one code-mode entry; `fallback`: the time to draw it at when the entry kept none (a journal from before times were kept). */
  of(entry: CodeEntry, fallback: () => number): Timed[] {
    if (entry.kind === "code-start") {
      this.running.add(entry.attempt);
      if (this.programs.has(entry.attempt)) return [];
      this.programs.add(entry.attempt);
      const program = entry.source === undefined ? {} : { program: entry.source };
      const time = entry.at ?? fallback();
      // A repair: code mode's replan, as its live run announced it.
      const repair: Timed[] =
        entry.attempt === 0
          ? []
          : [{ type: "replan-start", replans: entry.attempt, reason: `program ${entry.attempt} failed or its answer was rejected`, time }];
      return [...repair, { type: "plan-created", version: entry.attempt + 1, steps: [], ...program, time }];
    }
    const place = callPlace(entry.attempt, entry.key);
    const at = entry.at ?? fallback();
    const opened = this.open.get(place);
    const events: Timed[] = [];
    if (entry.outcome === undefined || opened === undefined) {
      const starts = (this.starts.get(place) ?? 0) + 1;
      this.starts.set(place, starts);
      const startedAt = entry.outcome === undefined ? at : (entry.startedAt ?? at);
      events.push(this.start(place, { name: entry.name, args: entry.arguments, attempt: starts, time: startedAt }));
      if (entry.outcome === undefined) {
        this.open.set(place, { at, starts });
        return events;
      }
    }
    const startedAt = opened?.at ?? entry.startedAt ?? at;
    this.open.delete(place);
    const outcome = entry.outcome as ToolOutcome;
    const failed = outcome.error;
    events.push({
      type: "step-end",
      stepId: place,
      status: failed ? "failed" : "succeeded",
      attempts: this.starts.get(place) ?? 1,
      durationMs: Math.max(0, at - startedAt),
      ...(failed ? { error: failed.message } : { preview: previewOf(outcome.content) }),
      time: at,
    });
    return events;
  }

  /** The calls a code-mode pause waits for (`state`: the pause's), each a step waiting at `time`. */
  waiting(state: unknown, time: number): Timed[] {
    this.running.clear();
    if (!isRecord(state) || state.kind !== "planloop/code-mode-state" || !Array.isArray(state.pending)) return [];
    return (state as unknown as CodeModeState).pending.flatMap((pending) => {
      // Asked again after a crash (`<place>#2`): the same call, the same step.
      const place = String(pending.id).replace(/#\d+$/, "");
      const attempt = (this.starts.get(place) ?? 0) + 1;
      this.starts.set(place, attempt);
      this.open.delete(place);
      return [
        this.start(place, { name: pending.name, args: pending.arguments, attempt, time }),
        { type: "step-end", stepId: place, status: "waiting", attempts: attempt, durationMs: 0, time } satisfies Timed,
      ];
    });
  }

  private start(place: string, call: { name: string; args: unknown; attempt: number; time: number }): Timed {
    const { name, args, attempt, time } = call;
    return { type: "step-start", stepId: place, kind: "tool", attempt, tool: name, args: maskSecrets(args ?? {}), time };
  }
}
