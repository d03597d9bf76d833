import type { ToolCall } from "../core/messages.js";
import type { AdmittedCall, RunOptions, ToolOutcome } from "../core/tools/tool-runner.js";
import type { UsageTotals } from "../core/usage.js";
import type { AgentState } from "../react/agent-state.js";
import type { PendingCall } from "../react/agent-status.js";
import type { ApprovalDecision } from "../core/tools/guarded-call.js";
import type { BudgetLimits } from "../core/budget.js";
import type { PlanloopEvent } from "../core/events.js";
import type { ContextPolicy } from "../react/context-window.js";
import { callDigest } from "../core/tools/approvals.js";
import type { ToolEffect } from "../core/tools/define-tool.js";

/**
 * Where plan steps run when not in this process: a queue that worker processes take steps
 * from (`bullmqRunner` in `planloop/bullmq`). The run still decides everything here: which
 * step is ready, approvals, the tool's rules and limits, the budget, retries, checkpoints;
 * a worker runs the call (or an agent step's loop) and sends back what came of it.
 */
export interface StepRunner {
  runTool(job: ToolJob, signal: AbortSignal): Promise<ToolOutcome>;
  /** `onEvent` hears the loop's own events (model calls, tool calls) as the worker sends them. */
  runAgent(job: AgentJob, signal: AbortSignal, onEvent?: (event: PlanloopEvent) => void): Promise<AgentJobResult>;
}

/** What identifies one job: the same run, step and attempt is the same job, also after a crash. */
export interface JobIdentity {
  runId: string;
  /** The step's call id (`step:<id>`) or key. */
  stepKey: string;
  /** Counted per step by the process that runs the plan: a restarted run asks for the same jobs again. */
  attempt: number;
  /** When the run's deadline passes (milliseconds since the epoch), if it has one. */
  deadlineAt?: number | undefined;
  /**
   * Of the exact call (tool name and arguments; an agent step's task): a job is for one call,
   * so a kept result of another call on the same step is never taken for this one.
   */
  digest?: string | undefined;
  /**
   * Which run of this id the job belongs to: a run without a store gets a new one each time
   * (its id may be used again for a new run); a durable run keeps none, so a coordinator that
   * takes the run over after a crash finds the jobs its last owner queued.
   */
  incarnation?: string | undefined;
  /** The lease token of the durable run's owner that queued it: when that owner stops the run, its jobs are refused. */
  owner?: number | undefined;
}

/** A tool step's admitted call, for a worker to run with the tool of that name. */
export interface ToolJob extends JobIdentity {
  kind: "tool";
  call: { id: string; name: string; arguments: unknown; idempotencyKey?: string | undefined };
  /** The tool's effect as the run knows it: a side-effecting job lost by the queue is not queued again. */
  effect?: ToolEffect | undefined;
  timeoutMs?: number | undefined;
  /** Absent: no limit (a plan step's output flows whole into later steps). */
  maxOutputChars?: number | undefined;
}

/** An agent step's loop, for a worker to run with its model and tools. */
export interface AgentJob extends JobIdentity {
  kind: "agent";
  task: string;
  maxSteps: number;
  /** What is left of the run's token, cost and tool-call limits when the step starts. */
  budget?: Pick<BudgetLimits, "maxTokens" | "maxCostUsd" | "maxToolCalls"> | undefined;
  /** The run's context policy for agent steps, as far as it is data (functions stay behind). */
  context?: (Pick<ContextPolicy, "maxTokens" | "maxObservationTokens"> & { keep?: "recent" | "summarize" }) | undefined;
  /** The model the step names (the worker's `models` has it), else the worker's model. */
  model?: string | undefined;
  /** Whose run it is: the loop's model calls carry it to the worker's provider limit (`ModelRequest.tenant`). */
  tenant?: string | undefined;
  /** The loop paused before (waiting for a human), with the decisions for its calls. */
  resume?: AgentState | undefined;
  approvals?: Record<string, ApprovalDecision> | undefined;
  answers?: Record<string, string> | undefined;
}

/** What came of an agent step's loop on the worker. */
export interface AgentJobResult {
  status: string;
  output?: string | undefined;
  reason?: string | undefined;
  limit?: string | undefined;
  pending?: PendingCall[] | undefined;
  state?: AgentState | undefined;
  usage: UsageTotals;
  steps: number;
}

/**
 * Runs an admitted call in another process: what it resolves to is the call's outcome. The
 * call was decided here (approvals, rules, limits, budget); the other side runs the tool with
 * the same arguments, key, timeout and output limit, and gets `options.signal`'s abort.
 */
export type RemoteCall = (
  /**
   * `decidedAs`: the id of the decision a call runs under when it is not the call's own (`step:w#2`,
   * approved again after it was cut short): that run is another job than the one cut short.
   */
  call: ToolCall & { idempotencyKey?: string | undefined; decidedAs?: string | undefined },
  admission: AdmittedCall,
  options: RunOptions,
) => Promise<ToolOutcome>;

/**
 * The guarded call's remote half for one plan run: each admitted call becomes a tool job.
 * Attempts are counted per call in this process, so a run continued after a crash asks for
 * the jobs it asked for before, in the same order, and gets their results.
 */
export function remoteToolCalls(
  runner: StepRunner,
  run: { runId: string; incarnation: string | undefined; owner: number | undefined },
  deadlineAt: () => number | undefined,
  effectOf: (tool: string) => ToolEffect | undefined = () => undefined,
): RemoteCall {
  const { runId, incarnation, owner } = run;
  const attempts = new Map<string, number>();
  return (call, admission, options) => {
    const id = String(call.id);
    // A run of the call under a decision of its own is another job, counted apart.
    const stepKey = call.decidedAs ?? id;
    const attempt = (attempts.get(stepKey) ?? 0) + 1;
    attempts.set(stepKey, attempt);
    const deadline = deadlineAt();
    const effect = effectOf(call.name);
    return runner.runTool(
      {
        kind: "tool",
        runId,
        stepKey,
        attempt,
        digest: callDigest(call.name, call.arguments ?? {}),
        ...(incarnation === undefined ? {} : { incarnation }),
        ...(owner === undefined ? {} : { owner }),
        call: {
          id,
          name: call.name,
          arguments: call.arguments ?? {},
          ...(call.idempotencyKey === undefined ? {} : { idempotencyKey: call.idempotencyKey }),
        },
        ...(effect === undefined ? {} : { effect }),
        ...(admission.timeoutMs === undefined ? {} : { timeoutMs: admission.timeoutMs }),
        ...(Number.isFinite(options.maxOutputChars) ? { maxOutputChars: options.maxOutputChars } : {}),
        ...(deadline === undefined ? {} : { deadlineAt: deadline }),
      },
      options.signal,
    );
  };
}
