import { InvalidOptionsError } from "../core/errors.js";
import { isRecord } from "../core/is-record.js";
import { defineTool, type Tool } from "../core/tools/define-tool.js";
import { toolFailure, type ToolOutcome } from "../core/tools/tool-runner.js";
import type { AgentState, OpenRound } from "./agent-state.js";

/*
 * `wait_until`, the tool a ReAct loop given `waitTools: true` may call to check back later
 * without spending tokens: "the export lands around 09:00; look again then". The loop runs it
 * itself. Without a store it sleeps on the run's clock; a durable loop holds nothing: it pauses
 * `waiting` with the wake time kept in its round (`OpenRound.wakeAt`), and `wakeDueRuns`
 * continues it when the time comes. The call's result says when it woke.
 */

export const waitToolName = "wait_until";

/** The tool as the model sees it; the loop runs it (its execute is never called). */
export function waitTool(): Tool {
  return defineTool({
    name: waitToolName,
    description:
      "Wait without doing anything until a time, then continue: give until (an ISO date and time with its offset) or forMs (milliseconds from now), and why.",
    input: {
      type: "object",
      properties: {
        until: { type: "string", description: "e.g. 2026-12-07T09:00:00+01:00" },
        forMs: { type: "integer", minimum: 1 },
        reason: { type: "string" },
      },
      additionalProperties: false,
    },
    execute: () => {
      throw new Error("wait_until is run by the loop itself");
    },
  });
}

/** The tools with `wait_until` added; a tool of that name of the caller's own is refused. */
export function withWaitTool(tools: readonly Tool[]): Tool[] {
  if (tools.some((tool) => tool.name === waitToolName))
    throw new InvalidOptionsError(`waitTools adds a tool named ${waitToolName}, and tools has one already: rename yours`);
  return [...tools, waitTool()];
}

/** When a `wait_until` call asked to wake (ms since 1970), or what is wrong with its arguments. */
export function wakeTimeOf(args: unknown, now: number): number | ToolOutcome {
  const given = isRecord(args) ? args : {};
  const { until, forMs } = given as { until?: unknown; forMs?: unknown };
  if (typeof until === "string" && forMs === undefined && Number.isFinite(Date.parse(until))) return Date.parse(until);
  if (until === undefined && typeof forMs === "number" && Number.isInteger(forMs) && forMs > 0) return now + forMs;
  return toolFailure(
    "invalid_arguments",
    'wait_until takes until (an ISO time: "2026-12-07T09:00:00+01:00") or forMs (a whole number of ms), one of them',
  );
}

/** The result a woken `wait_until` call hands the model. */
export function wokeOutcome(until: number, now: number): ToolOutcome {
  return { content: `woke at ${new Date(now).toISOString()} (waited until ${new Date(until).toISOString()})` };
}

/** The earliest wake time a paused round waits for, if any of its calls is a `wait_until`. */
export function roundWakeAt(round: Pick<OpenRound, "wakeAt"> | undefined): number | undefined {
  const times = Object.values(round?.wakeAt ?? {});
  return times.length === 0 ? undefined : Math.min(...times);
}

/** The earliest wake time a saved loop waits for. */
export function agentWakeAt(state: Pick<AgentState, "openRound"> | undefined): number | undefined {
  return roundWakeAt(state?.openRound);
}
