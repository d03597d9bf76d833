/** What the host answers a tool call with. */
export type HostReply =
  /** The call's result, a JSON value: the program's promise resolves with a copy. */
  | { value: unknown }
  /** The call failed: the program's promise rejects with an Error of this message (and `kind`). */
  | { error: { message: string; kind?: string | undefined } }
  /** The call cannot be answered in this run (it waits for a person): the program is suspended once nothing else can move. */
  | { park: true }
  /** The run must stop (its budget is spent, it was cancelled): the program ends at once. */
  | { stop: string };

/** A tool call the program made: the tool's name and its arguments, parsed from the guest's JSON. */
export interface HostCall {
  name: string;
  args: unknown;
}

/** How a program failed, by who can fix it: the program's author reads every one of these. */
export type ProgramErrorKind =
  /** It does not parse. */
  | "syntax"
  /** It threw, or rejected (a tool error it did not catch, too). */
  | "thrown"
  /** It computed longer than `cpuMs` in all. */
  | "cpu"
  /** It computed longer than `sliceMs` without awaiting. */
  | "slice"
  /** It ran out of heap or stack. */
  | "memory"
  /** Its result or its logs were larger than `outputChars`. */
  | "output"
  /** It awaited something that can never settle. */
  | "stalled";

export interface ProgramError {
  kind: ProgramErrorKind;
  message: string;
}

/**
 * How a program run ended. `returned`: its result (JSON); `failed`: why, for the author to
 * read; `suspended`: a call waits for a person and nothing else can move; `stopped`: the host
 * stopped it (a `stop` reply, or the signal).
 */
export type ProgramOutcome = { logs: string[]; cpuMs: number } & (
  | { kind: "returned"; value: unknown }
  | { kind: "failed"; error: ProgramError }
  | { kind: "suspended" }
  | { kind: "stopped"; reason: string }
);
