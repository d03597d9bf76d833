import type * as BullMQ from "bullmq";
import { toolFailure, type ToolOutcome } from "../core/tools/tool-runner.js";
import { emptyUsage } from "../core/usage.js";
import type { AgentJob, AgentJobResult, StepRunner, ToolJob } from "../executor/step-runner.js";
import type { PlanloopEvent } from "../core/events.js";
import {
  cancelChannel,
  connectionOf,
  endedRunMessage,
  eventsChannel,
  jobIdOf,
  loadBullmq,
  redisClient,
  runOf,
  type RedisConnection,
} from "./bullmq-connection.js";
import { checkQueueSecret, signJob, verifiedResult } from "./job-signature.js";

export interface BullmqRunnerOptions {
  /** Redis: a `redis://` URL or BullMQ's connection options. */
  connection: RedisConnection;
  /** The queue the workers take steps from; default "planloop". */
  queue?: string | undefined;
  /**
   * How long a finished job's result stays in Redis after this coordinator read it, in
   * seconds; default 5. A coordinator that dies between reading a result and checkpointing
   * the step's end (milliseconds) leaves the call to run again under the same key, unless
   * this is longer than the run's lease. A result nobody reads is removed after a day.
   */
  keepResultsFor?: number | undefined;
  /**
   * A secret shared with the workers (`startWorker({ secret })`, `PLANLOOP_QUEUE_SECRET`): jobs
   * are signed, and only results the workers signed are taken. See docs/many-machines.md.
   */
  secret?: string | undefined;
  /**
   * How often the jobs this coordinator waits for are checked to still be in Redis, in ms:
   * a job lost with the server's data (`FLUSHALL`, a
   * restart without persistence) is queued again, under the same id and idempotency key.
   * Default 2,000.
   */
  recheckMs?: number | undefined;
  /**
   * Runs that share the queue take turns (default true): each run's n-th job is queued with
   * priority n, so a small run's first steps go before a big run's hundredth, and every run's
   * own steps keep their order. `false`: first in, first out across all runs.
   */
  fairShare?: boolean | undefined;
}

/** `ranTwice`: the job stalled past BullMQ's limit, so its call ran twice already and must not run again. */
type Settled =
  | { kind: "completed"; value: unknown }
  | { kind: "failed"; reason: string; ranTwice?: true }
  | { kind: "cancelled" }
  /** Gone from Redis with its result unseen: a side-effecting call may have run. */
  | { kind: "lost" };

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
  const keep = { age: 86_400 };
  const forgetAfterMs = (options.keepResultsFor ?? 5) * 1000;
  // Results read, removed once the window for a coordinator taking over has passed.
  const forgetting = new Map<string, ReturnType<typeof setTimeout>>();
  const forget = (jobId: string) => {
    if (forgetting.has(jobId)) return;
    const timer = setTimeout(() => {
      forgetting.delete(jobId);
      void queue.remove(jobId).catch(() => {});
    }, forgetAfterMs);
    timer.unref();
    forgetting.set(jobId, timer);
  };
  // The events stream holds a copy of every result: kept to the last 1,000 (BullMQ's default is 10,000).
  const queue = new bullmq.Queue(name, { connection, streams: { events: { maxLen: 1_000 } } });
  const events = new bullmq.QueueEvents(name, { connection });
  const secret = checkQueueSecret(options.secret);
  const ready = Promise.all([queue.waitUntilReady(), events.waitUntilReady()]);
  const waiting = new Map<string, (settled: Settled) => void>();
  // A result that is not the worker's (a forged event, an edited job) is not taken: the real one comes on its own.
  const completed = (jobId: string, value: unknown) => {
    const verified = verifiedResult(jobId, parsed(value), secret);
    const settle = waiting.get(jobId);
    if (verified === undefined || settle === undefined) return;
    settle({ kind: "completed", value: verified.result });
    forget(jobId);
  };
  events.on("completed", ({ jobId, returnvalue }) => completed(jobId, returnvalue));
  events.on("failed", ({ jobId, failedReason }) => waiting.get(jobId)?.(failedWith(failedReason)));
  // A Redis that goes away is retried by BullMQ; the errors are not the run's to crash on.
  queue.on("error", () => {});
  events.on("error", () => {});
  const publisher = redisClient(connection);

  // An agent step's events, heard on its job's channel (subscribed before the job is added).
  let subscriber: ReturnType<typeof redisClient> | undefined;
  const listeners = new Map<string, (event: PlanloopEvent) => void>();
  const listen = async (channel: string, onEvent: (event: PlanloopEvent) => void) => {
    if (subscriber === undefined) {
      subscriber = redisClient(connection);
      subscriber.on("message", (heard: string, message: string) => {
        const deliver = listeners.get(heard);
        if (deliver === undefined) return;
        try {
          deliver(JSON.parse(message) as PlanloopEvent);
        } catch {
          // Not an event: nothing to tell the listeners.
        }
      });
    }
    listeners.set(channel, onEvent);
    await subscriber.subscribe(channel).catch(() => {});
    return async () => {
      listeners.delete(channel);
      await subscriber?.unsubscribe(channel).catch(() => {});
    };
  };

  // Each run's jobs counted, for their turn (BullMQ's priorities: 1 is first, 2,097,152 the last).
  const fair = options.fairShare !== false;
  const turns = new Map<string, number>();
  const turnOf = (job: ToolJob | AgentJob): number | undefined => {
    if (!fair) return undefined;
    const run = runOf(job);
    const turn = (turns.get(run) ?? 0) + 1;
    turns.delete(run);
    turns.set(run, turn);
    if (turns.size > 10_000) turns.delete(turns.keys().next().value!);
    return Math.min(turn, 2_097_152);
  };
  const jobOptions = (jobId: string, job: ToolJob | AgentJob) => {
    const priority = turnOf(job);
    return { jobId, removeOnComplete: keep, removeOnFail: keep, attempts: 1, ...(priority === undefined ? {} : { priority }) };
  };

  // The jobs waited for, to queue again any that Redis lost; a side-effecting call is not
  // queued again (a worker may have run it): its step asks a person what became of it.
  const outstanding = new Map<string, ToolJob | AgentJob>();
  const requeueLost = async () => {
    for (const [jobId, job] of outstanding) {
      const state = await queue.getJobState(jobId).catch(() => undefined);
      if (state !== "unknown" || !outstanding.has(jobId)) continue;
      if (job.kind === "tool" && job.effect === "side-effecting") waiting.get(jobId)?.({ kind: "lost" });
      else await queue.add(job.kind, signJob(job, secret, jobId), jobOptions(jobId, job)).catch(() => {});
    }
  };
  let rechecking = false;
  const recheck = () => {
    if (rechecking || outstanding.size === 0) return;
    rechecking = true;
    void requeueLost().finally(() => (rechecking = false));
  };
  const recheckTimer = setInterval(recheck, options.recheckMs ?? 2_000);
  recheckTimer.unref();

  // A durable run's owner is fenced in Redis as in the store: the highest lease token that
  // queued its jobs is kept, and only an owner holding it may stop them.
  const fences = new Set<string>();
  const fence = async (job: ToolJob | AgentJob) => {
    if (job.owner === undefined || fences.has(runOf(job))) return;
    await publisher.eval(raiseFence, 1, fenceKey(name, job.runId), String(job.owner), String(keep.age));
    fences.add(runOf(job));
    if (fences.size > 10_000) fences.delete(fences.values().next().value!);
  };

  // One abort listener per run signal, however many of its steps are out: it stops them all.
  const bySignal = new WeakMap<AbortSignal, Set<string>>();
  const cancelAll = async (signal: AbortSignal, job: ToolJob | AgentJob) => {
    const jobIds = [...(bySignal.get(signal) ?? [])];
    for (const jobId of jobIds) waiting.get(jobId)?.({ kind: "cancelled" });
    // An owner that lost the run leaves its jobs to the owner that took it over, which waits on them.
    if (isLeaseLoss(signal.reason)) return;
    // Workers hear that the run is over (a job of it taken later is refused), and abort its
    // running jobs, only from the run's current owner: a stale one's message is not sent.
    const sent = await publisher
      .eval(fencedCancel, 1, fenceKey(name, job.runId), String(job.owner ?? 0), cancelChannel(name), endedRunMessage(runOf(job)), ...jobIds)
      .catch(() => 0);
    if (sent !== 1) return;
    // A job no worker has taken yet is removed; one that runs is locked, and its worker aborts it.
    for (const jobId of jobIds) void queue.remove(jobId).catch(() => {});
  };
  const watch = (signal: AbortSignal, job: ToolJob | AgentJob, jobId: string): (() => void) => {
    let jobs = bySignal.get(signal);
    if (jobs === undefined) {
      jobs = new Set();
      bySignal.set(signal, jobs);
      signal.addEventListener("abort", () => void cancelAll(signal, job), { once: true });
    }
    jobs.add(jobId);
    return () => jobs.delete(jobId);
  };

  /**
   * Reads a job that had finished before it was asked for (a restarted run asks again). One
   * kept as cancelled did not run (its run was stopped, as by a deadline, and is now resumed):
   * it is queued again.
   */
  const finishedAlready = async (job: ToolJob | AgentJob, jobId: string, settle: (settled: Settled) => void) => {
    const state = await queue.getJobState(jobId);
    if (state !== "completed" && state !== "failed") return;
    // Read after its state says it finished, so the result is there.
    const known = await bullmq.Job.fromId(queue, jobId);
    if (state === "failed") return settle(failedWith(known?.failedReason ?? "the job failed"));
    const verified = verifiedResult(jobId, parsed(known?.returnvalue), secret);
    if (verified === undefined) return;
    if (!wasCancelled(verified.result)) {
      settle({ kind: "completed", value: verified.result });
      return forget(jobId);
    }
    await queue.remove(jobId);
    await queue.add(job.kind, signJob(job, secret, jobId), jobOptions(jobId, job));
  };

  async function run(job: ToolJob | AgentJob, signal: AbortSignal): Promise<Settled> {
    if (signal.aborted) return { kind: "cancelled" };
    const jobId = jobIdOf(job);
    await ready;
    let settle!: (settled: Settled) => void;
    const settled = new Promise<Settled>((resolve) => (settle = resolve));
    // Listening before the job is added: its end cannot come before anyone hears it.
    waiting.set(jobId, settle);
    outstanding.set(jobId, job);
    const unwatch = watch(signal, job, jobId);
    try {
      // Stopped while Redis was being reached: an aborted signal's listeners never run, so it is looked at here.
      if (signal.aborted) return { kind: "cancelled" };
      await fence(job);
      if (signal.aborted) return { kind: "cancelled" };
      await queue.add(job.kind, signJob(job, secret, jobId), jobOptions(jobId, job));
      // Not waited for: a new job's end comes as an event, without this extra round trip.
      finishedAlready(job, jobId, settle).catch(() => {});
      return await settled;
    } catch (error) {
      return { kind: "failed", reason: `could not queue the step: ${(error as Error).message}` };
    } finally {
      waiting.delete(jobId);
      outstanding.delete(jobId);
      unwatch();
    }
  }

  return {
    async runTool(job, signal): Promise<ToolOutcome> {
      const settled = await run(job, signal);
      if (settled.kind === "completed" && isOutcome(settled.value)) return settled.value;
      if (settled.kind === "cancelled") return toolFailure("cancelled", `the run stopped while "${job.call.name}" ran on a worker`);
      if (settled.kind === "lost") {
        const lost = toolFailure("execution_failed", `the job of "${job.call.name}" was lost from Redis before its result was seen`);
        lost.error = { ...lost.error!, retryable: false, cutShort: true };
        return lost;
      }
      const failed = toolFailure("execution_failed", `the worker running "${job.call.name}" failed: ${failure(settled)}`);
      // Run twice already: a retry of the step would be a third run, past the bound.
      if (settled.kind === "failed" && settled.ranTwice) failed.error!.retryable = false;
      return failed;
    },
    async runAgent(job, signal, onEvent): Promise<AgentJobResult> {
      const stopListening = onEvent === undefined ? undefined : await listen(eventsChannel(name, jobIdOf(job)), onEvent);
      let settled: Settled;
      try {
        settled = await run(job, signal);
      } finally {
        await stopListening?.();
      }
      if (settled.kind === "completed" && isAgentResult(settled.value)) return settled.value;
      const usage = emptyUsage();
      if (settled.kind === "cancelled")
        return { status: "cancelled", reason: "the run stopped while the step ran on a worker", usage, steps: 0 };
      return { status: "failed", reason: `the worker running the step failed: ${failure(settled)}`, usage, steps: 0 };
    },
    async close() {
      clearInterval(recheckTimer);
      // What was read is removed now: nothing of a closed coordinator's runs is left behind.
      const read = [...forgetting.keys()];
      for (const timer of forgetting.values()) clearTimeout(timer);
      forgetting.clear();
      await Promise.allSettled(read.map((jobId) => queue.remove(jobId)));
      await Promise.allSettled([events.close(), queue.close(), publisher.quit(), subscriber?.quit()]);
    },
  };
}

/** Keeps the higher of the kept lease token and ARGV[1] (for ARGV[2] seconds). */
const raiseFence = `
local kept = tonumber(redis.call('GET', KEYS[1]) or '0')
if tonumber(ARGV[1]) >= kept then redis.call('SET', KEYS[1], ARGV[1], 'EX', tonumber(ARGV[2])) end
return kept`;

/**
 * Publishes a run's end and its jobs' aborts (ARGV[3], ARGV[4…]) on the cancel channel
 * (ARGV[2]) only when the owner ARGV[1] holds the run's fence: 1 if sent, 0 if it is stale.
 */
const fencedCancel = `
local kept = tonumber(redis.call('GET', KEYS[1]) or '0')
if tonumber(ARGV[1]) < kept then return 0 end
for i = 3, #ARGV do redis.call('PUBLISH', ARGV[2], ARGV[i]) end
return 1`;

/** The key that holds the lease token of a durable run's current owner, for the workers of `queue`. */
function fenceKey(queue: string, runId: string): string {
  return `planloop:${queue}:owner:${runId}`;
}

/** An abort because the run was taken over by another process (`LeaseLostError`). */
function isLeaseLoss(reason: unknown): boolean {
  return reason instanceof Error && reason.name === "LeaseLostError";
}

/** Why a job gave no result: its failure, or a result that is not one (a worker of another kind on the queue). */
function failure(settled: Settled): string {
  if (settled.kind === "lost") return "its job was lost from Redis";
  return settled.kind === "failed" ? settled.reason : "it sent back no result planloop can read";
}

/** A failed job as a run reads it: one that stalled too often says so, and is not run again. */
function failedWith(reason: string): Settled {
  if (!/stalled more than allowable limit/i.test(reason)) return { kind: "failed", reason };
  return {
    kind: "failed",
    reason:
      "the worker running it stalled twice (it did not renew its lock within the worker's lockDurationMs: a process killed, or an event loop blocked); it was run at most once more, with the same idempotency key, and is not run again",
    ranTwice: true,
  };
}

/** A kept result of a job that was stopped before it ran to its end. */
function wasCancelled(value: unknown): boolean {
  if (isOutcome(value)) return value.error?.kind === "cancelled";
  return isAgentResult(value) && value.status === "cancelled";
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
