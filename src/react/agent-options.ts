import { defaultSecretKeys, type SecretKeys } from "../trust/secrets.js";
import { Budget, checkBudgetLimits, type BudgetLimits } from "../core/budget.js";
import { systemClock, type Clock } from "../core/clock.js";
import { InvalidOptionsError, shown } from "../core/errors.js";
import type { EventListener } from "../core/events.js";
import type { Message } from "../core/messages.js";
import {
  maxCallCostOf,
  modelIdentity,
  toModelFunction,
  type CallCost,
  type Model,
  type ModelFunction,
  type ModelRequest,
} from "../core/model.js";
import type { Tool } from "../core/tools/define-tool.js";
import { checkedExpiry, resolveDecisions } from "../core/tools/approvals.js";
import type { DurableOptions } from "../journal/checkpoints.js";
import { checkSecret, verifyState } from "../trust/state-signature.js";
import type { ApprovalDecision, HumanDecisions } from "../core/tools/guarded-call.js";
import type { RunSettings } from "../core/run-settings.js";
import { executorRunner, type ToolExecutor } from "../core/tools/tool-executor.js";
import { guardTools } from "../core/tools/tool-guard.js";
import { withWaitTool } from "./wait-tool.js";
import type { ToolRunner } from "../core/tools/tool-runner.js";
import { readContextPolicy, type ContextConfig, type ContextPolicy } from "./context-window.js";
import { readState, type AgentState } from "./agent-state.js";
import type { Verifier } from "./completion-check.js";
import type { NoProgressSettings } from "./no-progress.js";

export type { ApprovalDecision };

/**
 * The ReAct loop's own options; with the settings every run takes (`RunSettings`: signal,
 * budget, events, clock, secret keys, approval expiry, stateSecret), decisions on pending calls
 * (`HumanDecisions`) and durability (`DurableOptions`), each declared once in its own room.
 */
export interface AgentOptions extends AgentLoopOptions, RunSettings, HumanDecisions, DurableOptions {}

export interface AgentLoopOptions {
  /** A function `(request) => decision`, or an adapter object with `generate(request)`. */
  model: Model;
  /** Tools made with `defineTool`, run behind the guard. Pass this or `toolExecutor`. */
  tools?: readonly Tool[];
  /** The seed's form: one `execute(call, { signal })` for every call. */
  toolExecutor?: ToolExecutor;
  /** The conversation to start from (system prompt, earlier turns). */
  messages?: readonly Message[];
  /** Appended to `messages` as a user message. */
  task?: string;
  /**
   * The kind of task, for statistics over many runs (`suggestLimits`): on the result and on
   * the `agent-end` event.
   */
  taskType?: string | undefined;
  /**
   * Whose run it is: each model call carries it (`ModelRequest.tenant`), so a provider limit
   * gives its next turn to the tenant it served least recently (`providerLimit`). An agent step
   * of `executePlan` takes its plan run's `tenant`.
   */
  tenant?: string | undefined;
  /** Model calls allowed; default 8. */
  maxSteps?: number;
  /**
   * Give the model `wait_until` (`{ until }` or `{ forMs }`): it checks back later without
   * spending tokens. Without a store the loop sleeps on its clock; a durable loop is kept
   * `waiting` and holds nothing, and `wakeDueRuns` continues it when the time comes. Default false.
   */
  waitTools?: boolean | undefined;
  verify?: Verifier;
  /** Repeated-call and repeated-error detection; `false` turns it off. Default `{ maxRepeats: 3 }`. */
  noProgress?: false | Partial<NoProgressSettings>;
  /** `result.state` of a stopped run, to continue it. */
  resume?: AgentState | undefined;
  /** Calls of one decision that run at the same time; default 4. */
  toolConcurrency?: number;
  /** Longer tool results are cut, with a marker, before the model sees them; default 20,000. */
  maxToolOutputChars?: number;
  /** Keeps each request under a token cap as the history grows (see `ContextPolicy`); default: the whole history. */
  context?: ContextPolicy | undefined;
}

/** Options checked and filled with defaults. */
export interface AgentConfig {
  model: ModelFunction;
  /** The name and provider the model declares, for events. */
  identity: { model?: string; provider?: string; server?: { address?: string; port?: number } };
  /** The most a call can cost, if the model says (held against the budget while it runs). */
  maxCallCost: (request: ModelRequest) => CallCost | undefined;
  runner: ToolRunner;
  /** The loop runs `wait_until` calls itself (`waitTools`). */
  waitTools: boolean;
  initialMessages: Message[];
  maxSteps: number;
  signal: AbortSignal | undefined;
  budget: Budget | BudgetLimits;
  verify: Verifier | undefined;
  noProgress: NoProgressSettings | undefined;
  onEvent: EventListener | undefined;
  resume: AgentState | undefined;
  approvals: Record<string, ApprovalDecision>;
  answers: Record<string, string>;
  /** Decisions used before (by earlier resumes) and by this run. */
  used: string[];
  stateSecret: string | undefined;
  taskType: string | undefined;
  tenant: string | undefined;
  toolConcurrency: number;
  maxToolOutputChars: number;
  context: ContextConfig | undefined;
  secretKeys: SecretKeys;
  approvalExpiresInMs: number | undefined;
  clock: Clock;
}

export function readAgentOptions(options: AgentOptions): AgentConfig {
  if (typeof options !== "object" || options === null) throw new InvalidOptionsError("runAgent needs an options object");
  const model = toModelFunction(options.model);
  if (!model) throw new InvalidOptionsError("model must be a function or an object with generate(request)");
  const maxSteps = options.maxSteps ?? 8;
  if (!Number.isInteger(maxSteps) || maxSteps < 1)
    throw new InvalidOptionsError(`maxSteps must be an integer >= 1, got ${shown(maxSteps)}`);
  const messages = options.messages ?? [];
  if (!Array.isArray(messages)) throw new InvalidOptionsError("messages must be an array of messages");
  if (options.task !== undefined && typeof options.task !== "string") throw new InvalidOptionsError("task must be a string");
  for (const name of ["verify", "onEvent"] as const) {
    if (options[name] !== undefined && typeof options[name] !== "function") throw new InvalidOptionsError(`${name} must be a function`);
  }
  if (options.signal !== undefined && !(options.signal instanceof AbortSignal))
    throw new InvalidOptionsError("signal must be an AbortSignal");
  checkSecret(options.stateSecret);
  verifyState(options.resume, options.stateSecret);
  const resume = options.resume === undefined ? undefined : readState(options.resume);
  return {
    model,
    identity: modelIdentity(options.model),
    maxCallCost: (request) => maxCallCostOf(options.model, request),
    runner: readTools(options),
    waitTools: options.waitTools === true,
    initialMessages: options.task === undefined ? [...messages] : [...messages, { role: "user", content: options.task }],
    maxSteps,
    signal: options.signal,
    budget: options.budget instanceof Budget ? options.budget : checkBudgetLimits(options.budget),
    verify: options.verify,
    noProgress: readNoProgress(options.noProgress),
    onEvent: options.onEvent,
    resume,
    ...resolveDecisions(resume?.openRound?.pending ?? [], options, resume?.usedApprovals),
    stateSecret: options.stateSecret,
    taskType: readTaskType(options.taskType),
    tenant: readTenant(options.tenant),
    toolConcurrency: positiveInteger("toolConcurrency", options.toolConcurrency, 4),
    maxToolOutputChars: positiveInteger("maxToolOutputChars", options.maxToolOutputChars, 20_000),
    context: readContextPolicy(options.context),
    secretKeys: options.secretKeys ?? defaultSecretKeys,
    approvalExpiresInMs: checkedExpiry(options.approvalExpiresInMs),
    clock: options.clock ?? systemClock,
  };
}

function readTools(options: AgentOptions): ToolRunner {
  const { tools, toolExecutor } = options;
  if (tools !== undefined && toolExecutor !== undefined) throw new InvalidOptionsError("pass either tools or toolExecutor, not both");
  if (toolExecutor !== undefined && options.waitTools === true)
    throw new InvalidOptionsError("waitTools adds a tool to tools; a toolExecutor has no place for it: pass tools");
  if (toolExecutor !== undefined) {
    if (typeof toolExecutor?.execute !== "function")
      throw new InvalidOptionsError("toolExecutor must have an execute(call, context) method");
    return executorRunner(toolExecutor);
  }
  if (tools === undefined) throw new InvalidOptionsError("pass tools (made with defineTool) or a toolExecutor");
  return guardTools(options.waitTools === true ? withWaitTool(tools) : tools);
}

function readNoProgress(value: AgentOptions["noProgress"]): NoProgressSettings | undefined {
  if (value === false) return undefined;
  return { maxRepeats: positiveInteger("noProgress.maxRepeats", value?.maxRepeats, 3) };
}

function positiveInteger(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !(Number.isInteger(value) || value === Infinity) || value < 1) {
    throw new InvalidOptionsError(`${name} must be a positive integer, got ${shown(value)}`);
  }
  return value;
}

function readTenant(tenant: unknown): string | undefined {
  if (tenant === undefined || (typeof tenant === "string" && tenant !== "")) return tenant;
  throw new InvalidOptionsError(`tenant must be a non-empty string, not ${shown(tenant)}`);
}

export function readTaskType(taskType: unknown): string | undefined {
  if (taskType === undefined) return undefined;
  if (typeof taskType !== "string" || taskType === "") throw new InvalidOptionsError("taskType must be a non-empty string");
  return taskType;
}
