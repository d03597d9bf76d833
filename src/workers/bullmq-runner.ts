import type * as BullMQ from "bullmq";
import { toolFailure, type ToolOutcome } from "../core/tools/tool-runner.js";
import { emptyUsage } from "../core/usage.js";
import type { AgentJob, AgentJobResult, StepRunner, ToolJob } from "../executor/step-runner.js";
import { cancelChannel, connectionOf, jobIdOf, loadBullmq, redisClient, type RedisConnection } from "./bullmq-connection.js";

export interface BullmqRunnerOptions {
  /** Redis: a `redis://` URL or BullMQ's connection options. */
  connection: RedisConnection;
  /** The queue the workers take steps from; default "planloop". */
  queue?: string | undefined;
  /** How long finished jobs keep their results in Redis (for a coordinator that restarts), in seconds; default 86,400. */
  keepResultsFor?: number | undefined;
}

type Settled = { kind: "completed"; value: unknown } | { kind: "failed"; reason: string } | { kind: "cancelled" };

/**
 * Runs plan steps on BullMQ workers (`startWorker`, or `planloop worker`): each step the run
 * starts becomes a job with a deterministic id (run, step, attempt), so a coordinator that
 * restarts with the same run id re-attaches to the jobs still running and reads the results
 * of those that finished. The DAG stays with planloop's scheduler: BullMQ's flows are trees.
 *
 * @example
 * const runner = bullmqRunner({ connection: "redis://127.0.0.1:6379" });
 * const result = await executePlan({ plan, tools, runner, store, runId: "nightly-7" });
 * await runner.close();
 */
export function bullmqRunner(options: BullmqRunnerOptions): StepRunner & { close(): Promise<void> } {
  const bullmq = loadBullmq();
  const connection = connectionOf(options.connection);
  const name = options.queue ?? "planloop";
  const keep = { age: options.keepResultsFor ?? 86_400 };
  const queue = new bullmq.Queue(name, { connection });
  const events = new bullmq.QueueEvents(name, { connection });
  const ready = Promise.all([queue.waitUntilReady(), events.waitUntilReady()]);
  const waiting = new Map<string, (settled: Settled) => void>();
  events.on("completed", ({ jobId, returnvalue }) => waiting.get(jobId)?.({ kind: "completed", value: parsed(returnvalue) }));
  events.on("failed", ({ jobId, failedReason }) => waiting.get(jobId)?.({ kind: "failed", reason: failedReason }));
  // A Redis that goes away is retried by BullMQ; the errors are not the run's to crash on.
  queue.on("error", () => {});
  events.on("error", () => {});
  const publisher = redisClient(connection);

  // One abort listener per run signal, however many of its steps are out: it cancels them all.
  const bySignal = new WeakMap<AbortSignal, Set<string>>();
  const cancelAll = (signal: AbortSignal) => {
    for (const jobId of bySignal.get(signal) ?? []) {
      waiting.get(jobId)?.({ kind: "cancelled" });
      void publisher.publish(cancelChannel(name), jobId).catch(() => {});
    }
  };
  const watch = (signal: AbortSignal, jobId: string): (() => void) => {
    let jobs = bySignal.get(signal);
    if (jobs === undefined) {
      jobs = new Set();
      bySignal.set(signal, jobs);
      signal.addEventListener("abort", () => cancelAll(signal), { once: true });
    }
    jobs.add(jobId);
    return () => jobs.delete(jobId);
  };

  /** Reads a job that had finished before it was asked for (a restarted run asks again). */
  const finishedAlready = async (jobId: string, settle: (settled: Settled) => void) => {
    const state = await queue.getJobState(jobId);
    if (state !== "completed" && state !== "failed") return;
    // Read after its state says it finished, so the result is there.
    const known = await bullmq.Job.fromId(queue, jobId);
    if (state === "completed") settle({ kind: "completed", value: parsed(known?.returnvalue) });
    else settle({ kind: "failed", reason: known?.failedReason ?? "the job failed" });
  };

  async function run(job: ToolJob | AgentJob, signal: AbortSignal): Promise<Settled> {
    if (signal.aborted) return { kind: "cancelled" };
    const jobId = jobIdOf(job);
    await ready;
    let settle!: (settled: Settled) => void;
    const settled = new Promise<Settled>((resolve) => (settle = resolve));
    // Listening before the job is added: its end cannot come before anyone hears it.
    waiting.set(jobId, settle);
    const unwatch = watch(signal, jobId);
    try {
      await queue.add(job.kind, job, { jobId, removeOnComplete: keep, removeOnFail: keep, attempts: 1 });
      // Not waited for: a new job's end comes as an event, without this extra round trip.
      finishedAlready(jobId, settle).catch(() => {});
      return await settled;
    } catch (error) {
      return { kind: "failed", reason: `could not queue the step: ${(error as Error).message}` };
    } finally {
      waiting.delete(jobId);
      unwatch();
    }
  }

  return {
    async runTool(job, signal): Promise<ToolOutcome> {
      const settled = await run(job, signal);
      if (settled.kind === "completed" && isOutcome(settled.value)) return settled.value;
      if (settled.kind === "cancelled") return toolFailure("cancelled", `the run stopped while "${job.call.name}" ran on a worker`);
      return toolFailure("execution_failed", `the worker running "${job.call.name}" failed: ${failure(settled)}`);
    },
    async runAgent(job, signal): Promise<AgentJobResult> {
      const settled = await run(job, signal);
      if (settled.kind === "completed" && isAgentResult(settled.value)) return settled.value;
      const usage = emptyUsage();
      if (settled.kind === "cancelled")
        return { status: "cancelled", reason: "the run stopped while the step ran on a worker", usage, steps: 0 };
      return { status: "failed", reason: `the worker running the step failed: ${failure(settled)}`, usage, steps: 0 };
    },
    async close() {
      await Promise.allSettled([events.close(), queue.close(), publisher.quit()]);
    },
  };
}

/** Why a job gave no result: its failure, or a result that is not one (a worker of another kind on the queue). */
function failure(settled: Settled): string {
  return settled.kind === "failed" ? settled.reason : "it sent back no result planloop can read";
}

function isOutcome(value: unknown): value is ToolOutcome {
  return typeof value === "object" && value !== null && "content" in value;
}

function isAgentResult(value: unknown): value is AgentJobResult {
  return typeof value === "object" && value !== null && typeof (value as { status?: unknown }).status === "string";
}

/** A job's return value as events carry it (JSON text) or as the job holds it. */
function parsed(value: unknown): unknown {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

export type { BullMQ };
