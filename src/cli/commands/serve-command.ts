import { resolve } from "node:path";
import type { Command } from "commander";
import { InvalidOptionsError } from "../../core/errors.js";
import { serveTokensCommand } from "./serve-tokens.js";
import { servedWord, startApi, wholeNumber, type ApiFlags, type Served } from "./serve-api.js";
import { serveRuns, type ContinueEnd, type ContinueRequest } from "../../runs/serve-runs.js";
import { failedStartWebhooks, webhookSettings } from "./serve-webhooks.js";
import type { ScheduleFire } from "../../waits/run-schedules.js";
import { listSchedules } from "../../waits/schedules.js";
import { CliError } from "../cli-error.js";
import type { CliIo } from "../cli-io.js";
import { continuationLine, type Rerun } from "../continue-run.js";
import { runCommandProcess } from "../command-process.js";
import { namesModule, trustedLaunchLine } from "../launch-line.js";
import type { LimitFlags } from "../limit-option.js";
import { defaultStore, openStore } from "../store-option.js";
import type { ScheduledLaunch } from "./schedules-command.js";

interface ServeFlags extends ApiFlags, LimitFlags {
  store: string;
  tools?: string;
  model?: string;
  baseUrl?: string;
  apiKeyEnv?: string;
  tickMs: string;
  limit: string;
  orphanAfterMs: string;
}

/**
 * `planloop serve`: until Ctrl-C (or SIGTERM), on every tick, continues the runs whose wait is
 * over, starts the schedules' runs that are due, and continues runs whose owner is gone (a
 * process that crashed or was killed), and approves what a standing grant covers: a shell over
 * the library's `serveRuns`. Runs go on side by side (`--concurrency`): the API's in this
 * process, each other one by the command line that started it, in its folder, with this
 * command's modules, in a process of its own. Several may serve one store: every run is
 * continued under its lease, and a fire time has one run id.
 */
export function serveCommand(program: Command, io: CliIo, rerun: Rerun): void {
  const serve = program
    .command("serve")
    // Checked in the action, not by commander: `serve tokens …` needs no tools.
    .option("--tools <module>", "the tools module every run continues with (the store is not trusted to name one)")
    .option(
      "--model <module|name>",
      "the API's runs' model (a module, openai:<name>, or a name with --base-url); a module also continues runs started with one",
    )
    .option("--base-url <url>", "with --model <name>: the API's runs' OpenAI-compatible server")
    .option("--api-key-env <name>", "with --base-url: the variable its API key is read from", "OPENAI_API_KEY")
    .option("--requests-per-minute <n>", "the API's runs' model: at most this many requests a minute (a provider limit)")
    .option("--tokens-per-minute <n>", "the API's runs' model: at most this many tokens a minute")
    .option("--concurrent-requests <n>", "the API's runs' model: at most this many requests at once")
    .option(
      "--tenant-weight <tenant=weight...>",
      "a tenant's share of the limit's turns (client:<token name>, schedule:<name>; default 1 each)",
    )
    .option(
      "--limits-shared <sqlite:path|postgres://…|redis://…>",
      "keep the API's runs' limit there, and continue runs started with a shared limit with it",
    )
    .option("--limits-shared-env <name>", "the same, read from this environment variable (a URL with a password stays out of ps)")
    .option("--store <sqlite:path|postgres://…>", "the store to serve", defaultStore)
    .option("--tick-ms <ms>", "how often the store is looked at", "1000")
    .option("--limit <n>", "at most this many runs woken per tick", "100")
    .option("--orphan-after-ms <ms>", "a running run untouched this long whose lease is free has lost its owner: continue it", "10000")
    .option("--port <port>", "also serve the HTTP API (docs/server.md) on this port (0: a free one)")
    .option("--host <host>", "where the API listens; beyond 127.0.0.1 only with a token (planloop serve tokens add)", "127.0.0.1")
    .option("--concurrency <n>", "runs continued at once (the API's in this process, the command line's each in a process of its own)", "8")
    .option("--step-slots <n>", "steps at once across those runs, a freed slot going to the run that holds the fewest", "32")
    .option("--redis <url>", "run the API's runs' steps on BullMQ workers (planloop worker) through this Redis")
    .option("--queue <name>", "the BullMQ queue, with --redis", "planloop")
    .option(
      "--allow-origin <origins...>",
      "browser origins besides the server's own that may call the API and /mcp (https://app.example.com)",
    )
    .option(
      "--mcp-sessions",
      "give /mcp's 2025-11-25 clients that take forms a session in this process, so a waiting task asks them through a form (docs/mcp.md); behind several processes, route by Mcp-Session-Id",
    )
    .option(
      "--webhook <url>",
      "POST every API run's waits and ends here, and each schedule's run that could not start, signed with $PLANLOOP_WEBHOOK_SECRET (docs/server.md#webhooks)",
    )
    .action(async (flags: ServeFlags) => {
      if (flags.tools === undefined) throw new CliError("planloop serve needs --tools <module>: the tools every run continues with");
      const tickMs = wholeNumber(flags.tickMs, "--tick-ms");
      const limit = wholeNumber(flags.limit, "--limit");
      const orphanAfterMs = wholeNumber(flags.orphanAfterMs, "--orphan-after-ms");
      // Checked before the store is opened, with or without --port: --webhook needs its secret.
      const webhooks = webhookSettings(flags);
      const storeFlag = flags.store.startsWith("sqlite:") ? `sqlite:${resolve(flags.store.slice("sqlite:".length))}` : flags.store;
      const store = await openStore(storeFlag, { readonly: false });
      const served: Served = {
        store,
        storeFlag,
        tools: resolve(flags.tools),
        // A module continues the command line's runs started with one; a provider's model is the API's alone.
        model: flags.model === undefined || !namesModule(flags.model) ? undefined : resolve(flags.model),
        apiModel: {
          ...(flags.model === undefined ? {} : { model: namesModule(flags.model) ? resolve(flags.model) : flags.model }),
          ...(flags.baseUrl === undefined ? {} : { baseUrl: flags.baseUrl }),
          ...(flags.apiKeyEnv === undefined ? {} : { apiKeyEnv: flags.apiKeyEnv }),
          ...(flags.requestsPerMinute === undefined ? {} : { requestsPerMinute: flags.requestsPerMinute }),
          ...(flags.tokensPerMinute === undefined ? {} : { tokensPerMinute: flags.tokensPerMinute }),
          ...(flags.concurrentRequests === undefined ? {} : { concurrentRequests: flags.concurrentRequests }),
          ...(flags.limitsShared === undefined ? {} : { limitsShared: flags.limitsShared }),
          ...(flags.limitsSharedEnv === undefined ? {} : { limitsSharedEnv: flags.limitsSharedEnv }),
          ...(flags.tenantWeight === undefined ? {} : { tenantWeight: flags.tenantWeight }),
        },
        redis: flags.redis,
        io,
        rerun,
        server: undefined,
      };
      if (flags.port !== undefined)
        served.server = await startApi(served, flags).catch(async (error: unknown) => {
          await store.close();
          throw error instanceof InvalidOptionsError ? new CliError(error.message) : error;
        });
      const failedStarts = failedStartWebhooks(served, webhooks);
      const stop = stopper(io);
      const schedules = (await listSchedules(store)).filter((schedule) => !schedule.paused).length;
      io.out(
        `planloop serve: ${storeFlag}, tools ${served.tools}; wakes waiting runs, starts ${schedules} schedules, continues runs whose owner is gone; every ${tickMs} ms. Ctrl-C stops`,
      );
      try {
        await serveRuns({
          store,
          host: served.server?.host,
          continueRun: (request) => continueByCommand(served, request),
          launch: (fire) => launchFire(served, fire),
          concurrency: wholeNumber(flags.concurrency, "--concurrency"),
          limit,
          orphanAfterMs,
          tickMs,
          signal: stop.signal,
          log: (line) => io.out(line),
          warn: (line) => io.err(line),
          // A schedule's run that could not start is a failed run: its webhook goes to --webhook, API or not.
          onStartFailed: (failure) => failedStarts.send(failure),
        });
      } finally {
        stop.dispose();
        await failedStarts.close();
        await served.server?.close();
        await store.close();
      }
      io.out("planloop serve: stopped");
      io.exitCode(0);
    });
  serveTokensCommand(serve, io);
}

/**
 * Continues a run of the command line by its command line, in a process of its own, in its
 * folder (`planloop runs resume`, with what a standing grant approves): side by side with the
 * others, none holding another. Its last line goes back to `serveRuns`, for the reason it keeps
 * when the command keeps stopping before the run moves.
 */
async function continueByCommand(served: Served, request: ContinueRequest): Promise<ContinueEnd> {
  const flags = servedWord(served);
  const decisions = request.approve === undefined ? [] : ["--approve", ...request.approve.ids, "--decided-by", request.approve.by];
  // No one answers a service's terminal: a run whose line names a module or place serve was not given is refused, and left alone.
  const line = await continuationLine(served.io, { runId: request.runId, flags, decisions, ask: "never" });
  if (line === undefined) return {};
  return await runCommandProcess(line.argv, { cwd: line.cwd, io: served.io, prefix: `run ${request.runId}: `, runId: request.runId });
}

/** Starts a schedule's run: its command line, checked as a stored launch line is, with the fire's run id. */
async function launchFire(served: Served, fire: ScheduleFire): Promise<{ status: string }> {
  const launch = fire.schedule.run as Partial<ScheduledLaunch>;
  if (!Array.isArray(launch.argv) || typeof launch.cwd !== "string")
    throw new CliError(
      `schedule ${fire.schedule.name} was not added by planloop schedules add; start its runs from your program (runSchedules)`,
    );
  const argv = await trustedLaunchLine(
    fire.runId,
    { kind: "launch", argv: launch.argv, cwd: launch.cwd },
    { ...servedWord(served), ask: "never" },
  );
  // The run's origin names the schedule (its grants hold for it); its id alone would not.
  const scheduleFire = JSON.stringify({ name: fire.schedule.name, fireAt: fire.fireAt });
  await runCommandProcess([...argv, "--store", served.storeFlag, "--run-id", fire.runId, "--schedule-fire", scheduleFire], {
    cwd: launch.cwd,
    io: served.io,
    prefix: `run ${fire.runId}: `,
    runId: fire.runId,
  });
  const run = await served.store.getRun(fire.runId);
  const result = run?.result as { status?: string } | undefined;
  return { status: result?.status ?? (run === undefined ? "not started" : "waiting") };
}

/** The first Ctrl-C (or SIGTERM) stops serving once the runs in hand are done; a second exits at once. */
function stopper(io: CliIo): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const stop = () => {
    if (controller.signal.aborted) process.exit(130);
    io.out("planloop serve: stopping once the runs in hand are done (Ctrl-C again exits now)");
    controller.abort();
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  return {
    signal: controller.signal,
    dispose: () => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
    },
  };
}
