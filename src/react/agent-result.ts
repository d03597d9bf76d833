import type { BudgetLimit } from "../core/budget.js";
import type { Message, ToolCall } from "../core/messages.js";
import type { UsageTotals } from "../core/usage.js";
import type { AgentState } from "./agent-state.js";
import type { AgentStatus, PendingCall } from "./agent-status.js";

export type { AgentStatus, PendingCall };

/** The last thing that went wrong, kept on every result so a caller can retry or hand over. */
export interface AgentError {
  source: "tool" | "verifier";
  kind: string;
  message: string;
  toolCallId?: string | number;
  name?: string;
}

/** Every field a loop's result may have; `AgentResult` says which ones each status has. */
export interface AgentResultFields {
  status: AgentStatus;
  /** The run's id: pass it again with the same `store` to continue the loop, or to read its result. */
  runId: string;
  /** The `taskType` the run was given, for statistics over runs (`suggestLimits`). */
  taskType?: string;
  /** Always present when `completed`; the last answer for `incomplete` and `unverified`. */
  output?: string;
  messages: Message[];
  /** Model calls started by the loop (one per step). */
  steps: number;
  usage: UsageTotals;
  /** Human-readable reason for any status other than `completed`. */
  reason?: string;
  /** For `budget_exceeded` and `deadline_exceeded`: which limit stopped the run. */
  limit?: BudgetLimit;
  lastError?: AgentError;
  /** For `waiting`: the calls that need an approval or an answer (none when it waits only on `wait_until`). */
  pending?: PendingCall[];
  /** For `waiting` on `wait_until` (`waitTools`): when the loop is due to go on (ISO). */
  wakeAt?: string;
  /** For every status but `completed`: pass it back as `resume` to continue. JSON-safe. */
  state?: AgentState;
}

/**
 * How a loop ended, discriminated by `status`: `if (result.status === "completed")` makes
 * `output` a string; `waiting` has `pending` and `state`; every stop but `completed` has
 * `state`, and the budget stops name their `limit`.
 */
export type AgentResult =
  | (AgentResultFields & { status: "completed"; output: string })
  | (AgentResultFields & { status: "waiting"; pending: PendingCall[]; state: AgentState })
  | (AgentResultFields & { status: "budget_exceeded" | "deadline_exceeded"; limit: BudgetLimit; state: AgentState })
  | (AgentResultFields & { status: "incomplete" | "unverified"; output: string; state: AgentState })
  | (AgentResultFields & { status: "cancelled" | "max_steps_exceeded" | "no_progress"; state: AgentState });

/** How the loop ended, before it is turned into a result. */
export interface AgentStop {
  status: AgentStatus;
  reason?: string;
  limit?: BudgetLimit;
  output?: string;
}

export type { ToolCall };
