import { InvalidOptionsError } from "../core/errors.js";
import { effectOf } from "../core/tools/define-tool.js";
import { toolFailure, type ToolOutcome } from "../core/tools/tool-runner.js";
import { emptyUsage } from "../core/usage.js";
import type { AgentJob, AgentJobResult, ToolJob } from "../executor/step-runner.js";
import {
  cancelChannel,
  connectionOf,
  endedRunOf,
  eventsChannel,
  loadBullmq,
  redisClient,
  runOf,
  type RedisConnection,
} from "./bullmq-connection.js";
import { checkQueueSecret, signResult, verifiedJob } from "./job-signature.js";
import { refusalBeforeRun, runJob, type WorkerKit } from "./run-job.js";

export interface WorkerOptions extends WorkerKit {
  /** Redis: a `redis://` URL or BullMQ's connection options. */
  connection: RedisConnection;
  /** The queue to take steps from; default "planloop". */
  queue?: string | undefined;
  /** Steps this worker runs at once; default 8. */
  concurrency?: number | undefined;
  /**
   * How long a job stays locked to this worker without a renewal, in ms (BullMQ's
   * `lockDuration`; default 30,000). A worker that dies lets its steps go after this, and
   * another worker runs them, with the same `idempotencyKey`.
   */
  lockDurationMs?: number | undefined;
  /**
   * The secret the coordinators sign jobs with (`bullmqRunner({ secret })`): a job that is not
   * signed with it is refused without running anything, and results are signed back. Without
   * one, anyone who can write to the queue can have this worker run any of its tools.
   */
  secret?: string | undefined;
  /**
   * The largest result a job sends back through Redis, in bytes of JSON; default 4 MB. A
   * larger output fails the step with a message saying so (Redis keeps every result twice,
   * in the job and in the events stream).
   */
  maxResultBytes?: number | undefined;
  /**
   * A step whose tool this worker does not have (a rolling deploy: some workers run the new
   * tools module, some the old) is left for a worker that has it, for this long after the job
   * was queued (ms; default 60,000), then fails naming the tool. Jobs are put back a moment
   * later each time (a tenth of this, at most a second), so every worker gets its turn.
   */
  missingToolWaitMs?: number | undefined;
}

export interface RunningWorker {
  /** Stops taking steps; with `{ force: true }` the steps it runs are dropped (another worker gets them). */
  close(options?: { force?: boolean }): Promise<void>;
}

/**
 * A worker process's loop: takes plan steps from the queue and runs each as the run itself
 * would (`runJob`): the guarded call's second half with the tool's timeout, the output limit
 * and the step's `idempotencyKey`, or an agent step's loop with the worker's model. A run
 * that stops (cancelled, deadline) aborts its steps here through a Redis channel.
 *
 * @example
 * const worker = startWorker({ connection: "redis://127.0.0.1:6379", tools, model, concurrency: 8 });
 * process.on("SIGTERM", () => void worker.close());
 */
export function startWorker(options: WorkerOptions): RunningWorker {
  if (!Array.isArray(options?.tools)) throw new InvalidOptionsError("startWorker needs { tools }: the tools the plans call");
  const concurrency = options.concurrency ?? 8;
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new InvalidOptionsError("concurrency must be an integer >= 1");
  const bullmq = loadBullmq();
  const connection = connectionOf(options.connection);
  const name = options.queue ?? "planloop";
  const kit: WorkerKit = { tools: options.tools, model: options.model, models: options.models };
  const lockDuration = options.lockDurationMs ?? 30_000;
  const secret = checkQueueSecret(options.secret);
  const ended = new EndedRuns();
  let publisher: ReturnType<typeof redisClient> | undefined;
  const events = () => (publisher ??= redisClient(connection));
  const maxResultBytes = options.maxResultBytes ?? 4 * 1024 * 1024;
  const missingToolWaitMs = options.missingToolWaitMs ?? 60_000;
  // A side-effecting call's job is marked in Redis as it starts: one run again under its id (a
  // job replayed after it was removed) is refused, and its step asks a person.
  const ranBefore = async (data: ToolJob | AgentJob, jobId: string) => {
    if (data.kind !== "tool") return undefined;
    const tool = kit.tools.find((candidate) => candidate.name === data.call.name);
    if (tool === undefined || effectOf(tool) !== "side-effecting") return undefined;
    const first = await events().set(ranKey(name, jobId), String(Date.now()), "EX", ranKeptSeconds, "NX");
    if (first === "OK") return undefined;
    const refused = toolFailure(
      "execution_failed",
      `"${tool.name}" ran on a worker before under this job's id (the job was queued again after it was removed); it is side-effecting, so it was not run again`,
    );
    refused.error = { ...refused.error!, cutShort: true };
    return refused;
  };
  const worker = new bullmq.Worker(
    name,
    async (job, token, signal) => {
      const data = verifiedJob<ToolJob | AgentJob>(job.data, secret, job.id!);
      // Thrown, the job fails with this reason and nothing ran: a forged job gets no tool call.
      if (data === undefined) throw new Error("the job is not signed with this worker's secret for its id; nothing was run");
      if (data === "expired")
        throw new Error("the job's signature ran out before a worker took it (a day after it was queued); nothing was run");
      const missing = data.kind === "tool" && !kit.tools.some((tool) => tool.name === data.call.name);
      if (missing && Date.now() - job.timestamp < missingToolWaitMs) {
        // Not this worker's step: back to the queue a moment later, for a worker that has the tool.
        await job.moveToDelayed(Date.now() + Math.min(1_000, Math.max(20, Math.floor(missingToolWaitMs / 10))), token);
        throw new bullmq.DelayedError();
      }
      const refusal =
        refusalOf(data, ended) ??
        stalledRefusal(data, job.stalledCounter, kit) ??
        (missing
          ? toolFailure(
              "unknown_tool",
              `no worker with a tool "${(data as ToolJob).call.name}" took the step within ${missingToolWaitMs} ms (missingToolWaitMs); this one has: ${kit.tools.map((tool) => tool.name).join(", ") || "none"}`,
            )
          : undefined) ??
        (await ranBefore(data, job.id!));
      // An agent step's loop sends its events back as they happen (the coordinator listens on the
      // job's channel); all are sent before the result, so none arrives after the step has ended.
      const sent: Array<Promise<unknown>> = [];
      const onEvent =
        data.kind === "agent"
          ? (event: unknown) =>
              void sent.push(
                events()
                  .publish(eventsChannel(name, job.id!), JSON.stringify(event))
                  .catch(() => 0),
              )
          : undefined;
      const ran = refusal ?? (await runJob(data, kit, signal ?? new AbortController().signal, onEvent));
      const result = refusal === undefined ? afterStall(ran, job.stalledCounter) : ran;
      await Promise.all(sent);
      return signResult(job.id!, withinSize(data, result, maxResultBytes), secret);
    },
    // One stall is forgiven (the call runs once more, with its key); a second fails the job.
    { connection, concurrency, lockDuration, stalledInterval: Math.max(500, Math.floor(lockDuration / 2)), maxStalledCount: 1 },
  );
  worker.on("error", () => {}); // BullMQ reconnects to Redis on its own
  const listener = redisClient(connection);
  void listener.subscribe(cancelChannel(name)).catch(() => {});
  listener.on("message", (_channel: string, message: string) => {
    const run = endedRunOf(message);
    if (run === undefined) worker.cancelJob(message, "the run stopped");
    else ended.add(run);
  });
  return {
    async close({ force = false } = {}) {
      await Promise.allSettled([worker.close(force), listener.quit(), publisher?.quit()]);
    },
  };
}

/** How long a side-effecting job's mark stays (s): past a signed job's lifetime, so no signed copy outlives it. */
const ranKeptSeconds = 2 * 86_400;

function ranKey(queue: string, jobId: string): string {
  return `planloop:${queue}:ran:${jobId}`;
}

/** The runs this worker heard are over, for a while (their queued jobs may still be taken). */
class EndedRuns {
  private readonly runs = new Map<string, number>();

  add(run: string): void {
    this.runs.set(run, Date.now());
    // An hour is far longer than a removed job's way to a worker; the list stays small.
    for (const [known, at] of this.runs) if (Date.now() - at > 3_600_000) this.runs.delete(known);
  }

  has(run: string): boolean {
    return this.runs.has(run);
  }
}

/** A job of a run that is over is not run (its deadline is checked by `runJob`): before any tool is called. */
function refusalOf(job: ToolJob | AgentJob, ended: EndedRuns) {
  return ended.has(runOf(job)) ? refusalBeforeRun(job, "its run had ended before a worker took the step") : undefined;
}

/**
 * A side-effecting call whose worker stalled (its lock ran out while it ran) is not run again
 * on another worker unasked: the step fails saying so. Other calls run once more, with their key.
 */
function stalledRefusal(job: ToolJob | AgentJob, stalled: number | undefined, kit: WorkerKit) {
  if (job.kind !== "tool" || !(stalled !== undefined && stalled > 0)) return undefined;
  const tool = kit.tools.find((candidate) => candidate.name === job.call.name);
  if (tool === undefined || effectOf(tool) !== "side-effecting") return undefined;
  const refused = toolFailure(
    "execution_failed",
    `"${tool.name}" was running on a worker that stalled (its lock ran out); it is side-effecting, so it was not run again`,
  );
  refused.error = { ...refused.error!, cutShort: true };
  return refused;
}

/**
 * A call that failed on its second run (its first worker stalled) is not retried by the step:
 * it ran twice already, the bound a stall allows, retries counted.
 */
function afterStall(result: ToolOutcome | AgentJobResult, stalled: number | undefined): ToolOutcome | AgentJobResult {
  if (!(stalled !== undefined && stalled > 0) || !("content" in result) || result.error === undefined) return result;
  return {
    ...result,
    error: { ...result.error, message: `${result.error.message} (it ran twice: its first worker stalled; not retried)`, retryable: false },
  };
}

/** A result too large for Redis fails the step instead of filling the server. */
function withinSize(job: ToolJob | AgentJob, result: unknown, maxBytes: number): unknown {
  const bytes = Buffer.byteLength(JSON.stringify(result) ?? "");
  if (bytes <= maxBytes) return result;
  const problem = `the output is ${bytes} bytes of JSON, over the queue's limit of ${maxBytes} (the worker's maxResultBytes): write large outputs elsewhere and return a reference`;
  return job.kind === "tool"
    ? toolFailure("execution_failed", problem)
    : { status: "failed", reason: problem, usage: emptyUsage(), steps: 0 };
}
