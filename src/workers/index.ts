// planloop/bullmq: plan steps run by worker processes on any number of machines, through
// BullMQ on Redis (needs the optional peers bullmq and ioredis).
export { bullmqRunner } from "./bullmq-runner.js";
export type { BullmqRunnerOptions } from "./bullmq-runner.js";
export { startWorker } from "./bullmq-worker.js";
export type { RunningWorker, WorkerOptions } from "./bullmq-worker.js";
export { stopQueuedRun } from "./stop-queued-run.js";
export type { StopQueuedRunOptions, StoppedJobs } from "./stop-queued-run.js";
export { localRunner, runJob } from "./run-job.js";
export type { WorkerKit } from "./run-job.js";
export type { RedisConnection } from "./bullmq-connection.js";
export type { AgentJob, AgentJobResult, StepRunner, ToolJob } from "../executor/step-runner.js";
