import type { MaybePromise } from "../maybe-async.js";
import type { Clock } from "../clock.js";
import type { ToolCall, ToolError } from "../messages.js";
import type { ToolSpec } from "../model.js";
import type { Tool } from "./define-tool.js";

/** What a paused call waits for: an approval, an answer, or word of what became of a call cut short by a crash. */
export type PendingKind = "approval" | "input" | "interrupted";

/** The verdict on a call before anything runs. */
export type Admission =
  | { kind: "run"; tool: CallTarget; args: unknown; timeoutMs?: number | undefined }
  | { kind: "reject"; error: ToolError }
  | { kind: "pending"; reason: PendingKind; question?: string; expiresInMs?: number };

export type AdmittedCall = Extract<Admission, { kind: "run" }>;

/** What runs an admitted call: the tool itself, called as `tool.execute(args, context)`, behind its gates (`limit`, `resources`). */
export type CallTarget = Pick<Tool, "execute" | "limit" | "resources">;

export interface AdmitContext {
  step: number;
  signal: AbortSignal;
  /** How many calls of this tool already ran in this run. */
  callsSoFar: number;
  /** A human approved this call already: skip the approval check. */
  approved: boolean;
  /** True when `parsedArgs` holds the arguments already parsed by this tool's schema (a plan's checked step): not parsed again. */
  argsParsed?: boolean;
  parsedArgs?: unknown;
}

/** What the loop calls tools through: guarded `defineTool` tools or a seed-style executor. */
export interface ToolRunner {
  readonly specs: readonly ToolSpec[];
  /** Synchronous when every check is; a promise when an authorization or approval rule is async. */
  admit(call: ToolCall, context: AdmitContext): MaybePromise<Admission>;
}

/** The result of one call as the model will read it: content, plus the error if it failed. */
export interface ToolOutcome {
  content: unknown;
  error?: ToolError;
}

export function toolFailure(kind: ToolError["kind"], message: string): ToolOutcome {
  return { content: `Error: ${message}`, error: { kind, message } };
}

export type RunOptions = { signal: AbortSignal; step: number; clock: Clock; maxOutputChars: number };
