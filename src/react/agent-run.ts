import pLimit, { type LimitFunction } from "p-limit";
import { Budget, type NextCallEstimate } from "../core/budget.js";
import { EventHub } from "../core/events.js";
import { cancelReason, createRunSignal, type AbortCause } from "../core/run-signal.js";
import type { Message, ToolMessage } from "../core/messages.js";
import type { CallScope } from "../core/tools/guarded-call.js";
import { signState } from "../trust/state-signature.js";
import type { Checkpoints } from "../journal/checkpoints.js";
import type { ModelCallLog } from "../journal/model-calls.js";
import { emptyUsage, type UsageTotals } from "../core/usage.js";
import type { AgentConfig } from "./agent-options.js";
import type { AgentError, AgentResult, AgentResultFields, AgentStop } from "./agent-result.js";
import { createState, type AgentState, type OpenRound } from "./agent-state.js";
import { continuedNoProgress, emptyNoProgress, keptNoProgress, type NoProgress } from "./no-progress.js";
import { copyTextKeyed } from "../core/records.js";
import type { ToolRunner } from "../core/tools/tool-runner.js";
import type { ContextCut } from "./context-window.js";
import { withObservationReader } from "./read-observation.js";
import { roundWakeAt } from "./wait-tool.js";

/** What a durable loop's journal holds already of its history and counters (see `pausedEntry`). */
export interface Journaled {
  messages: number;
  calls: Map<string, number>;
}

/** The mutable record of one loop invocation. Only the loop's named steps change it. */
export interface AgentRun {
  config: AgentConfig;
  history: Message[];
  steps: number;
  usage: UsageTotals;
  budget: Budget;
  events: EventHub;
  /** Aborts on the caller's signal or the deadline; handed to the model and the tools. */
  signal: AbortSignal;
  abortCause(): AbortCause | undefined;
  limitTools: LimitFunction;
  toolCallCounts: Record<string, number>;
  /** What every tool call of this loop goes through the guarded call with. */
  callScope: CallScope;
  /** The run's id (the store's key, and the first part of every idempotency key). */
  runId: string;
  /** Where the loop's decisions and call outcomes are written, for a durable run. */
  checkpoints: Checkpoints | undefined;
  /** Where a durable loop keeps what each model call was sent and answered (unless it keeps none). */
  calls: ModelCallLog | undefined;
  progress: NoProgress;
  lastCall: NextCallEstimate | undefined;
  lastError: AgentError | undefined;
  rejectedAnswer: { output: string; feedback: string } | undefined;
  openRound: OpenRound | undefined;
  /** The tools the model is offered: the loop's, and `read_observation` with a context policy. */
  runner: ToolRunner;
  /** Where a context policy's view starts (see `contextView`). */
  contextCut: ContextCut | undefined;
  /**
   * What the journal's last snapshot holds of the growing parts of the state: how many of
   * `history`'s messages, and the no-progress counters; the next snapshot writes only what changed.
   */
  journaled: Journaled;
  dispose(): void;
}

export function startRun(
  config: AgentConfig,
  identity: { runId: string; checkpoints?: Checkpoints | undefined; journaled?: AgentState | undefined },
): AgentRun {
  const saved = config.resume;
  const budget =
    config.budget instanceof Budget
      ? config.budget
      : new Budget(config.budget, { clock: config.clock, ...(saved ? { elapsedMs: saved.elapsedMs } : {}) });
  // A durable loop stops too when its lease is lost (another process took it over).
  const lost = identity.checkpoints?.durability.lease?.signal;
  const runSignal = createRunSignal({ signal: config.signal, lost, clock: config.clock, remainingMs: budget.remainingMs() });
  const toolCallCounts = copyTextKeyed(saved?.toolCallCounts);
  const signal = runSignal.signal;
  const runner = config.context ? withObservationReader(config.runner, () => run.history) : config.runner;
  const run: AgentRun = {
    config,
    history: saved ? [...saved.messages] : config.initialMessages,
    steps: saved?.steps ?? 0,
    usage: saved?.usage ?? emptyUsage(),
    budget,
    events: new EventHub({ clock: config.clock, ...(config.onEvent ? { listener: config.onEvent } : {}) }),
    signal,
    abortCause: runSignal.cause,
    limitTools: pLimit(config.toolConcurrency),
    toolCallCounts,
    callScope: {
      guard: runner,
      budget,
      callCounts: toolCallCounts,
      humans: { approvals: config.approvals, answers: config.answers, used: config.used },
      execution: { signal, step: 0, clock: config.clock, maxOutputChars: config.maxToolOutputChars },
    },
    runId: identity.runId,
    checkpoints: identity.checkpoints,
    calls: identity.checkpoints?.modelCalls(config.secretKeys),
    progress: saved ? continuedNoProgress(saved.progress) : emptyNoProgress(),
    lastCall: saved?.lastCall,
    lastError: undefined,
    rejectedAnswer: saved?.rejectedAnswer,
    openRound: saved?.openRound,
    runner,
    contextCut: saved?.context,
    journaled: {
      messages: identity.journaled?.messages.length ?? 0,
      calls: new Map(Object.entries(identity.journaled?.progress.calls ?? {})),
    },
    dispose: runSignal.dispose,
  };
  run.events.emit({ type: "agent-start", resumed: saved !== undefined, maxSteps: config.maxSteps });
  return run;
}

/** The stop for an aborted run: the caller's cancellation or the deadline. */
export function abortStop(run: AgentRun): AgentStop {
  if (run.abortCause() === "deadline") {
    return { status: "deadline_exceeded", limit: "deadlineMs", reason: `the deadline of ${describeDeadline(run)} passed` };
  }
  return { status: "cancelled", reason: cancelReason(run.config.signal) };
}

function describeDeadline(run: AgentRun): string {
  const limit = run.budget.limits.deadlineMs;
  return limit === undefined ? "the enclosing run" : `${limit} ms`;
}

export function snapshotState(run: AgentRun, status: AgentState["status"]): AgentState {
  return createState({
    status,
    messages: [...run.history],
    steps: run.steps,
    usage: run.usage,
    elapsedMs: run.budget.elapsedMs(),
    toolCallCounts: copyTextKeyed(run.toolCallCounts),
    progress: keptNoProgress(run.progress),
    ...(run.lastCall ? { lastCall: run.lastCall } : {}),
    ...(run.rejectedAnswer ? { rejectedAnswer: run.rejectedAnswer } : {}),
    ...(run.openRound ? { openRound: run.openRound } : {}),
    ...(run.contextCut ? { context: run.contextCut } : {}),
    ...(run.callScope.humans.used.length > 0 ? { usedApprovals: [...run.callScope.humans.used] } : {}),
    ...(run.config.taskType === undefined ? {} : { taskType: run.config.taskType }),
  });
}

export function finishRun(run: AgentRun, stop: AgentStop): AgentResult {
  const result: AgentResultFields = {
    status: stop.status,
    runId: run.runId,
    messages: withOpenRoundResults(run),
    steps: run.steps,
    usage: run.usage,
  };
  if (stop.output !== undefined) result.output = stop.output;
  if (stop.reason !== undefined) result.reason = stop.reason;
  if (stop.limit !== undefined) result.limit = stop.limit;
  if (run.lastError) result.lastError = run.lastError;
  if (run.config.taskType !== undefined) result.taskType = run.config.taskType;
  if (run.openRound?.pending.length || stop.status === "waiting") result.pending = run.openRound?.pending ?? [];
  const wakeAt = stop.status === "waiting" ? roundWakeAt(run.openRound) : undefined;
  if (wakeAt !== undefined) result.wakeAt = new Date(wakeAt).toISOString();
  if (stop.status !== "completed") result.state = signState(snapshotState(run, stop.status), run.config.stateSecret, run.runId);
  run.events.emit({
    type: "agent-end",
    status: stop.status,
    steps: run.steps,
    usage: run.usage,
    ...(stop.reason === undefined ? {} : { reason: stop.reason }),
    ...(run.config.taskType === undefined ? {} : { taskType: run.config.taskType }),
  });
  // Built field by field above; the status decided which fields are set (see AgentResult).
  return result as AgentResult;
}

/** The history as a reader expects it: results of the calls that already ran in a paused round. */
function withOpenRoundResults(run: AgentRun): Message[] {
  const round = run.openRound;
  if (!round) return run.history;
  const done: ToolMessage[] = [];
  round.calls.forEach((call, index) => {
    const outcome = round.outcomes[index];
    if (outcome) done.push(toolMessage(call, outcome));
  });
  return [...run.history, ...done];
}

export function toolMessage(
  call: { id: string | number; name: string },
  outcome: { content: unknown; error?: ToolMessage["error"] },
): ToolMessage {
  const message: ToolMessage = { role: "tool", toolCallId: call.id, name: call.name, content: outcome.content };
  if (outcome.error) message.error = outcome.error;
  return message;
}
