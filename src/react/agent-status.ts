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

export type { PendingCall } from "../core/tools/approvals.js";
