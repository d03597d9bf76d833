import { systemClock } from "../core/clock.js";
import { errorMessage } from "../core/errors.js";
import type { Model } from "../core/model.js";
import type { Tool } from "../core/tools/define-tool.js";
import { runAdmittedCall } from "../core/tools/guarded-call.js";
import { toolFailure, type ToolOutcome } from "../core/tools/tool-runner.js";
import { emptyUsage } from "../core/usage.js";
import type { AgentJob, AgentJobResult, StepRunner, ToolJob } from "../executor/step-runner.js";
import { runAgent } from "../react/run-agent.js";
import type { PlanloopEvent } from "../core/events.js";

/** What a worker runs jobs with: the tools (the same module the run was given) and, for agent steps, a model. */
export interface WorkerKit {
  tools: readonly Tool[];
  model?: Model | undefined;
  /** Models agent steps name in their `model`, by name. */
  models?: Record<string, Model> | undefined;
}

/**
 * Runs one job as the run itself would: a tool call with its arguments parsed by the tool's
 * schema, under the run's signal (and deadline), the tool's timeout and the output limit,
 * with the call's `idempotencyKey`; or an agent step's loop. Never throws: every way a job
 * can end is an outcome the run understands.
 */
export async function runJob(
  job: ToolJob | AgentJob,
  kit: WorkerKit,
  signal: AbortSignal,
  onEvent?: (event: PlanloopEvent) => void,
): Promise<ToolOutcome | AgentJobResult> {
  const refused = refusalBeforeRun(job, undefined);
  if (refused !== undefined) return refused;
  const limited = withDeadline(signal, job.deadlineAt);
  try {
    return job.kind === "tool"
      ? await runToolJob(job, kit, limited.signal)
      : await runAgentJob(job, kit, { signal: limited.signal, onEvent });
  } finally {
    limited.dispose();
  }
}

async function runToolJob(job: ToolJob, kit: WorkerKit, signal: AbortSignal): Promise<ToolOutcome> {
  const tool = kit.tools.find((candidate) => candidate.name === job.call.name);
  if (tool === undefined) {
    const known = kit.tools.map((candidate) => candidate.name).join(", ") || "none";
    return toolFailure("unknown_tool", `this worker has no tool "${job.call.name}" (it has: ${known})`);
  }
  const parsed = await tool.checkArgs(job.call.arguments ?? {});
  if (!parsed.ok) return toolFailure("invalid_arguments", `invalid arguments for "${tool.name}": ${parsed.problems}`);
  return runAdmittedCall(
    { id: job.call.id, name: tool.name, idempotencyKey: job.call.idempotencyKey },
    { kind: "run", tool, args: parsed.value, timeoutMs: job.timeoutMs ?? tool.timeoutMs },
    { signal, step: 0, clock: systemClock, maxOutputChars: job.maxOutputChars ?? Infinity },
  );
}

async function runAgentJob(
  job: AgentJob,
  kit: WorkerKit,
  { signal, onEvent }: { signal: AbortSignal; onEvent: ((event: PlanloopEvent) => void) | undefined },
): Promise<AgentJobResult> {
  const named = job.model === undefined ? undefined : kit.models?.[job.model];
  const model = named ?? kit.model;
  if (model === undefined) {
    const which = job.model === undefined ? "no model" : `no model "${job.model}" and no default model`;
    return { status: "failed", reason: `this worker has ${which} for agent steps (start it with one)`, usage: emptyUsage(), steps: 0 };
  }
  try {
    const result = await runAgent({
      model,
      tools: kit.tools,
      task: job.task,
      maxSteps: job.maxSteps,
      ...(job.budget === undefined ? {} : { budget: job.budget }),
      ...(job.context === undefined ? {} : { context: job.context }),
      // A label for the limit's turns, checked as any run's (a job's data is input).
      ...(job.tenant === undefined ? {} : { tenant: job.tenant }),
      ...(onEvent === undefined ? {} : { onEvent }),
      signal,
      ...(job.resume ? { resume: job.resume, approvals: job.approvals ?? {}, answers: job.answers ?? {} } : {}),
    });
    return {
      status: result.status,
      usage: result.usage,
      steps: result.steps,
      ...(result.output === undefined ? {} : { output: result.output }),
      ...(result.reason === undefined ? {} : { reason: result.reason }),
      ...(result.limit === undefined ? {} : { limit: result.limit }),
      ...(result.pending ? { pending: result.pending } : {}),
      ...(result.state ? { state: result.state } : {}),
    };
  } catch (error) {
    return { status: "failed", reason: `the step's agent failed on the worker: ${errorMessage(error)}`, usage: emptyUsage(), steps: 0 };
  }
}

/**
 * The outcome of a job that is not run (`why`, or its run's deadline had passed when a worker
 * took it): cancelled, before any tool is called. Undefined when it may run.
 */
export function refusalBeforeRun(job: ToolJob | AgentJob, why: string | undefined): ToolOutcome | AgentJobResult | undefined {
  const reason =
    why ??
    (job.deadlineAt !== undefined && Date.now() >= job.deadlineAt
      ? "the run's deadline had passed before a worker took the step"
      : undefined);
  if (reason === undefined) return undefined;
  return job.kind === "tool" ? toolFailure("cancelled", reason) : { status: "cancelled", reason, usage: emptyUsage(), steps: 0 };
}

/** The run's signal, aborted too when its deadline passes. */
function withDeadline(signal: AbortSignal, deadlineAt: number | undefined): { signal: AbortSignal; dispose(): void } {
  if (deadlineAt === undefined) return { signal, dispose: () => {} };
  const controller = new AbortController();
  const stop = (reason: unknown) => controller.abort(reason);
  const onAbort = () => stop(signal.reason);
  signal.addEventListener("abort", onAbort, { once: true });
  const timer = setTimeout(() => stop(new Error("the run's deadline passed")), Math.max(0, deadlineAt - Date.now()));
  if (signal.aborted) onAbort();
  return {
    signal: controller.signal,
    dispose: () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
    },
  };
}

/**
 * A runner that runs every job in this process, through the same code a worker runs: for
 * tests, and to try a runner setup without Redis.
 */
export function localRunner(kit: WorkerKit): StepRunner {
  return {
    runTool: (job, signal) => runJob(job, kit, signal) as Promise<ToolOutcome>,
    runAgent: (job, signal, onEvent) => runJob(job, kit, signal, onEvent) as Promise<AgentJobResult>,
  };
}
