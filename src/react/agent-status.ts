/** Why a loop stopped. Every stop is a status, never a thrown error. */
export type AgentStatus =
  | "completed"
  | "cancelled"
  | "max_steps_exceeded"
  | "deadline_exceeded"
  | "budget_exceeded"
  | "no_progress"
  | "waiting"
  | "incomplete"
  | "unverified";

/** A call the run paused on: a human must approve it, or answer it (`kind: "input"`). */
export interface PendingCall {
  callId: string | number;
  name: string;
  arguments: unknown;
  kind: "approval" | "input";
  /** For `kind: "input"`: the question the model asked. */
  question?: string;
}
