import { isRecord } from "../core/is-record.js";
import { cancelChannel, connectionOf, endedRunMessage, loadBullmq, redisClient, runOf, type RedisConnection } from "./bullmq-connection.js";

export interface StopQueuedRunOptions {
  /** Redis: a `redis://` URL or BullMQ's connection options. */
  connection: RedisConnection;
  /** The queue the run's steps went to; default "planloop". */
  queue?: string | undefined;
  runId: string;
}

/** What `stopQueuedRun` found of the run in the queue. */
export interface StoppedJobs {
  /** Jobs no worker had taken, removed. */
  removed: number;
  /** Jobs a worker was running: told to abort (the tool's signal fires). */
  aborted: number;
}

/** The states a job waits or runs in (finished ones are left as they are). */
const unfinished = ["waiting", "prioritized", "delayed", "waiting-children", "active"] as const;

/**
 * Stops a run's steps in the queue when no coordinator is there to do it (`planloop runs
 * cancel` of a run whose coordinator died): tells the workers the run is over (a job of it
 * taken later is refused), aborts its running jobs and removes those no worker took. Call it
 * after the run was ended in the store (`cancelStoredRun`), so no coordinator continues it.
 */
export async function stopQueuedRun(options: StopQueuedRunOptions): Promise<StoppedJobs> {
  const bullmq = loadBullmq();
  const connection = connectionOf(options.connection);
  const name = options.queue ?? "planloop";
  const queue = new bullmq.Queue(name, { connection });
  const publisher = redisClient(connection);
  queue.on("error", () => {});
  try {
    const jobs = (await queue.getJobs([...unfinished])).filter((job) => job !== undefined && ofRun(job.data, options.runId));
    const runs = new Set(jobs.map((job) => runOf(job.data as { runId: string })));
    // The run's end first: a worker that takes one of its jobs from now on refuses it.
    for (const run of runs) await publisher.publish(cancelChannel(name), endedRunMessage(run));
    let removed = 0;
    let aborted = 0;
    for (const job of jobs) {
      const state = await job.getState();
      if (state === "active") {
        await publisher.publish(cancelChannel(name), job.id!);
        aborted += 1;
        continue;
      }
      // A job a worker took a moment ago is locked: it is aborted instead.
      await job.remove().then(
        () => (removed += 1),
        async () => {
          await publisher.publish(cancelChannel(name), job.id!);
          aborted += 1;
        },
      );
    }
    return { removed, aborted };
  } finally {
    await Promise.allSettled([queue.close(), publisher.quit()]);
  }
}

/** Whether a job's data is a step of the run (signed or not: the signature sits beside the fields). */
function ofRun(data: unknown, runId: string): boolean {
  return isRecord(data) && data.runId === runId && (data.kind === "tool" || data.kind === "agent");
}
