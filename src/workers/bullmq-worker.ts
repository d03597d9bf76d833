import { InvalidOptionsError } from "../core/errors.js";
import type { AgentJob, ToolJob } from "../executor/step-runner.js";
import { cancelChannel, connectionOf, loadBullmq, redisClient, type RedisConnection } from "./bullmq-connection.js";
import { runJob, type WorkerKit } from "./run-job.js";

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
  const worker = new bullmq.Worker(
    name,
    async (job, _token, signal) => runJob(job.data as ToolJob | AgentJob, kit, signal ?? new AbortController().signal),
    { connection, concurrency, lockDuration, stalledInterval: Math.max(500, Math.floor(lockDuration / 2)), maxStalledCount: 5 },
  );
  worker.on("error", () => {}); // BullMQ reconnects to Redis on its own
  const listener = redisClient(connection);
  void listener.subscribe(cancelChannel(name)).catch(() => {});
  listener.on("message", (_channel: string, jobId: string) => {
    worker.cancelJob(jobId, "the run stopped");
  });
  return {
    async close({ force = false } = {}) {
      await Promise.allSettled([worker.close(force), listener.quit()]);
    },
  };
}
