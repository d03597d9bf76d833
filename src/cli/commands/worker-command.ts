import type { Command } from "commander";
import { startWorker } from "../../workers/bullmq-worker.js";
import { CliError } from "../cli-error.js";
import type { CliIo } from "../cli-io.js";
import { modelFromFlags, type ModelFlags } from "../model-option.js";
import { loadTools } from "../load-tools.js";

interface WorkerFlags extends ModelFlags {
  tools: string;
  redis: string;
  queue: string;
  concurrency: string;
}

/**
 * `planloop worker`: a worker process that runs plan steps from a BullMQ queue until it is
 * stopped (SIGINT or SIGTERM: the steps it runs finish first; a second signal exits at once).
 */
export function workerCommand(program: Command, io: CliIo): void {
  program
    .command("worker")
    .requiredOption("--tools <module>", "a JavaScript module exporting the tools (the same the coordinator has)")
    .option("--redis <url>", "the Redis server", process.env.PLANLOOP_REDIS_URL ?? "redis://127.0.0.1:6379")
    .option("--queue <name>", "the queue to take steps from", "planloop")
    .option("--concurrency <n>", "steps at once", "8")
    .option("--model <spec>", "the model for agent steps: openai:<name>, <name> with --base-url, or a module exporting a model")
    .option("--base-url <url>", "an OpenAI-compatible server, e.g. http://127.0.0.1:11434/v1 for Ollama")
    .option("--api-key-env <name>", "the environment variable holding the API key", "OPENAI_API_KEY")
    .option("--requests-per-minute <n>", "the provider's limit: at most n requests a minute, spaced evenly (docs/limits.md)")
    .option("--tokens-per-minute <n>", "the provider's limit: at most n tokens (prompt and answer) a minute (docs/limits.md)")
    .option("--concurrent-requests <n>", "the provider's limit: at most n requests at once in this process")
    .option(
      "--limits-shared <sqlite:path|postgres://…|redis://…>",
      "keep the provider's limit there, shared with every process given the same",
    )
    .option("--limits-shared-env <name>", "the same, read from this environment variable (a URL with a password stays out of ps)")
    .action(async (flags: WorkerFlags) => {
      const concurrency = Number(flags.concurrency);
      if (!Number.isInteger(concurrency) || concurrency < 1) throw new CliError("--concurrency must be a whole number >= 1");
      const tools = await loadTools(flags.tools);
      const model = await modelFromFlags(flags);
      const secret = process.env.PLANLOOP_QUEUE_SECRET;
      if (secret === undefined)
        io.err(
          "planloop worker: no PLANLOOP_QUEUE_SECRET: this worker runs any job anyone who can write to the queue adds (see docs/many-machines.md)",
        );
      const worker = startWorker({ connection: flags.redis, queue: flags.queue, tools, model, concurrency, secret });
      io.out(
        `worker ready: queue ${flags.queue} on ${flags.redis}, ${tools.length} tools${model ? "" : " (no model: agent steps fail here)"}, ${concurrency} at once`,
      );
      await new Promise<void>((resolve) => {
        const stop = () => {
          process.off("SIGINT", stop);
          process.off("SIGTERM", stop);
          process.once("SIGINT", () => process.exit(130));
          process.once("SIGTERM", () => process.exit(143));
          io.out("worker stopping: the steps it runs finish first");
          void worker.close().then(resolve);
        };
        process.on("SIGINT", stop);
        process.on("SIGTERM", stop);
      });
      io.out("worker stopped");
    });
}
