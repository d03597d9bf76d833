import { z } from "zod";
import { readToolInput, type ToolInput, type ToolInputSchema } from "./tool-input.js";
import { InvalidOptionsError } from "../errors.js";
import type { CallTurns, ResourceLocks } from "./call-gates.js";

/** What a tool's `execute` receives besides its arguments. */
export interface ToolContext {
  /**
   * Aborts on cancellation, deadline or the tool's own timeout. Pass it on. It is the call's
   * own (what you hang on it goes with the call), made when first read: to hand the context
   * to another function pass it whole or read `context.signal`; `{ ...context }` leaves it out.
   */
  signal: AbortSignal;
  callId: string | number;
  step: number;
  /**
   * In a durable run (one with a `store`): the same for every attempt of one logical call,
   * also after a crash (a plan step: `<runId>/<step id>`). Hand it to an API that
   * deduplicates by key, and a call that runs twice takes effect once.
   */
  idempotencyKey?: string | undefined;
}

/** `true`/`false`, or an object whose `reason` is shown to the model when access is denied. */
export type Authorization = boolean | { allowed: boolean; reason?: string };

export interface ToolOptions<Input, Output> {
  /** Letters, digits, `_` and `-`, at most 64 characters (what model APIs accept). */
  name: string;
  description: string;
  /**
   * The arguments' schema: zod 4 or zod 3, any Standard Schema (valibot, arktype, …), or a
   * plain JSON Schema object. Arguments are checked with it; its JSON Schema goes to the model.
   */
  input: ToolInputSchema<Input>;
  /** The JSON Schema the model sees, for a schema library that cannot give one (valibot: `toJsonSchema(schema)`). */
  inputSchema?: object;
  execute?: (args: Input, context: ToolContext) => Promise<Output> | Output;
  /** Abort the call and report a timeout to the model after this many milliseconds. */
  timeoutMs?: number;
  /** Calls allowed per run; further calls get a "call limit reached" message. */
  maxCalls?: number;
  /** Pause the run for a human decision before calling (always, or when the function says so). */
  needsApproval?: boolean | ((args: Input) => boolean | Promise<boolean>);
  /**
   * How long a request for approval stands, in milliseconds (on the run's clock): a call whose
   * approval comes later, or a run continued later without one, is denied with that reason
   * rather than run on a stale approval.
   */
  approvalExpiresInMs?: number;
  /** Every call pauses the run and the user's answer becomes the result (see `askUser`). */
  needsInput?: boolean;
  /**
   * Calling twice with the same arguments does no more than calling once (a lookup, or an
   * API that honours an idempotency key). Only such a tool's approved calls are retried
   * without a new approval when they time out or throw.
   */
  idempotent?: boolean;
  /**
   * What running a call again means, after a crash cut it short (see docs/durable-runs.md):
   * `pure` (it changes nothing) and `idempotent` (a second call with the same idempotency
   * key does nothing more) run again; `side-effecting` does not: the continued run waits with
   * the question "was running when the process stopped — did it take effect?" for a person to
   * answer (run it again, mark it done with an output, or fail it). The default is
   * `side-effecting` for a tool that needs approval (its author already said it changes the
   * world) and `idempotent` otherwise (a call runs again under the same idempotency key, as
   * planloop has always done: a tool that changes the world without asking for approval
   * should say `side-effecting`). `idempotent: true` is `effect: "idempotent"`.
   */
  effect?: ToolEffect | undefined;
  /** Checked before every call; a denial reaches the model with its reason. */
  authorize?: (args: Input, context: ToolContext) => Authorization | Promise<Authorization>;
  /** Plan steps calling this tool that may run at once (on top of the run's concurrency). */
  concurrency?: number;
  /**
   * A limit every call of this tool takes a turn of before it runs, shared by every run that
   * uses the tool (`providerLimit({ name, requestsPerMinute, concurrent })`: an API's rate).
   */
  limit?: CallTurns | undefined;
  /**
   * What a call writes (`({ table }) => [\`table:${table}\`]`): calls that share a resource run
   * one at a time in this process, first come first served, even when the plan forgot a
   * dependency between them; two tools that write one file never overlap.
   */
  resources?: ((args: Input) => readonly string[]) | undefined;
  /**
   * Where `resources` are held: this process by default; `resourceLocks({ shared })` holds them
   * in Redis, Postgres or a SQLite file, so calls in every process that shares it never overlap.
   */
  locks?: ResourceLocks | undefined;
  /** Typical duration, used by the plan executor to start the longest path first. */
  estimateMs?: number;
  /**
   * Looks at a plan step's output for something that contradicts the plan (seed 001 §5: the
   * refunds are in USD, the plan assumed CNY). Return a description to ask for a replan.
   */
  check?(output: Output): string | undefined;
}

/** What running a tool's call again means (`ToolOptions.effect`). */
export type ToolEffect = "pure" | "idempotent" | "side-effecting";

/** A tool's effect as planloop treats it: its own, else the default (`ToolOptions.effect`). */
export function effectOf(tool: Pick<ToolOptions<never, unknown>, "effect" | "idempotent" | "needsApproval">): ToolEffect {
  if (tool.effect !== undefined) return tool.effect;
  if (tool.idempotent === true) return "idempotent";
  return tool.needsApproval === undefined || tool.needsApproval === false ? "idempotent" : "side-effecting";
}

/** A tool made by `defineTool`: its options, frozen, plus the JSON Schema of its input. */
export interface Tool<Input = any, Output = any> extends Readonly<Omit<ToolOptions<Input, Output>, "inputSchema">> {
  readonly inputSchema: Record<string, unknown>;
  /** Checks arguments with `input`, whatever library it comes from. */
  readonly checkArgs: ToolInput["check"];
}

const toolNamePattern = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Declares a tool the agent may call. Arguments are validated with `input` before
 * `execute` runs; every failure (bad arguments, denial, timeout, a thrown error) becomes a
 * message the model reads, never an exception that ends the run.
 *
 * @example
 * const getOrder = defineTool({
 *   name: "get_order",
 *   description: "Look up an order by id",
 *   input: z.object({ order_id: z.string() }),
 *   execute: async ({ order_id }) => db.orders.find(order_id),
 *   timeoutMs: 5_000,
 * });
 */
export function defineTool<Input, Output>(options: ToolOptions<Input, Output>): Tool<Input, Output> {
  const where = `defineTool(${JSON.stringify(options?.name)})`;
  if (typeof options !== "object" || options === null) throw new InvalidOptionsError("defineTool needs an options object");
  if (typeof options.name !== "string" || !toolNamePattern.test(options.name)) {
    throw new InvalidOptionsError(`${where}: name must be 1-64 letters, digits, "_" or "-"`);
  }
  if (typeof options.description !== "string" || options.description.trim() === "") {
    throw new InvalidOptionsError(`${where}: description must be a non-empty string; the model chooses tools by it`);
  }
  const input = readToolInput(options.input, options.inputSchema, where);
  if (options.needsInput !== true && typeof options.execute !== "function") {
    throw new InvalidOptionsError(`${where}: execute must be a function (only needsInput tools may omit it)`);
  }
  checkPositive(where, "timeoutMs", options.timeoutMs, { integer: false });
  checkPositive(where, "maxCalls", options.maxCalls, { integer: true });
  checkPositive(where, "concurrency", options.concurrency, { integer: true });
  checkPositive(where, "approvalExpiresInMs", options.approvalExpiresInMs, { integer: true });
  if (options.idempotent !== undefined && typeof options.idempotent !== "boolean") {
    throw new InvalidOptionsError(`${where}: idempotent must be true or false`);
  }
  if (options.effect !== undefined && !["pure", "idempotent", "side-effecting"].includes(options.effect)) {
    throw new InvalidOptionsError(`${where}: effect must be "pure", "idempotent" or "side-effecting"`);
  }
  if (options.effect === "side-effecting" && options.idempotent === true) {
    throw new InvalidOptionsError(`${where}: a tool is idempotent or side-effecting, not both`);
  }
  if (options.estimateMs !== undefined && !(typeof options.estimateMs === "number" && options.estimateMs >= 0)) {
    throw new InvalidOptionsError(`${where}: estimateMs must be a number >= 0`);
  }
  const approval = options.needsApproval;
  if (approval !== undefined && typeof approval !== "boolean" && typeof approval !== "function") {
    throw new InvalidOptionsError(`${where}: needsApproval must be a boolean or a function of the arguments`);
  }
  if (options.check !== undefined && typeof options.check !== "function")
    throw new InvalidOptionsError(`${where}: check must be a function`);
  if (options.authorize !== undefined && typeof options.authorize !== "function") {
    throw new InvalidOptionsError(`${where}: authorize must be a function`);
  }
  return Object.freeze({ ...options, inputSchema: input.jsonSchema, checkArgs: input.check });
}

function checkPositive(where: string, name: string, value: unknown, options: { integer: boolean }): void {
  if (value === undefined) return;
  const valid = typeof value === "number" && value > 0 && Number.isFinite(value);
  if (!valid || (options.integer && !Number.isInteger(value))) {
    throw new InvalidOptionsError(`${where}: ${name} must be a positive ${options.integer ? "integer" : "number"}`);
  }
}

/**
 * The built-in way for a model to ask the user something. A call pauses the run with
 * status `waiting`; resume with `answers: { [callId]: "..." }`.
 */
export function askUser(options: { name?: string; description?: string } = {}): Tool<{ question: string }, string> {
  return defineTool({
    name: options.name ?? "ask_user",
    description:
      options.description ?? "Ask the user a question when you need information only they have. The run pauses until they answer.",
    input: z.object({ question: z.string().min(1) }),
    needsInput: true,
  });
}
