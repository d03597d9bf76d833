import { listTokens } from "../../server/api-tokens.js";
import type { RunServer } from "../../server/start-server.js";
import { startRunServer } from "../../server/start-server.js";
import { bullmqRunner } from "../../workers/bullmq-runner.js";
import { RunWatch } from "../../ui/run-watch.js";
import { uiApp } from "../../ui/ui-app.js";
import { tokenCookie } from "../../ui/ui-http.js";
import { builtPage, loopbackHosts } from "../../ui/ui-server.js";
import type { ContinueRun } from "../../ui/ui-decisions.js";
import { CliError } from "../cli-error.js";
import { importUserModule, loadTools } from "../load-tools.js";
import { readPipelines } from "../../runs/pipelines.js";
import { modelFromFlags, type ModelFlags } from "../model-option.js";
import { webhookSettings } from "./serve-webhooks.js";
import { continuing, quietIo, whyNotHere, type ContinuingWord } from "./ui-command.js";
import type { CheckpointStore } from "../../journal/checkpoint-store.js";
import type { CliIo } from "../cli-io.js";
import type { Rerun } from "../continue-run.js";

/** The flags of `planloop serve` that shape its HTTP API. */
export interface ApiFlags {
  port?: string;
  host: string;
  concurrency: string;
  stepSlots: string;
  webhook?: string;
  redis?: string;
  queue: string;
  allowOrigin?: string[];
  mcpSessions?: boolean;
}

/** What a serve process is told once, at its start: the store, and the folder and modules it continues runs with. */
export interface Served {
  store: CheckpointStore;
  /** The store flag with a SQLite path made absolute: runs continue in their own folders. */
  storeFlag: string;
  tools: string;
  /** The model module runs started with one are continued with. */
  model: string | undefined;
  /** The API's runs' model, with its limit: `--model`, `--base-url`, the limit flags. */
  apiModel: ModelFlags;
  /** `--redis`: where the API's runs' steps go, and the command line's runs started with `--redis`. */
  redis: string | undefined;
  io: CliIo;
  rerun: Rerun;
  /** With --port: the run server, which continues the runs it started itself. */
  server: RunServer | undefined;
}

/** Starts the HTTP API beside the ticks: the runs it starts run in this process, with its tools and model. */
export async function startApi(served: Served, flags: ApiFlags): Promise<RunServer> {
  const port = Number(flags.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new CliError(`--port must be a port number, not ${flags.port}`);
  // The server refuses such an address too; the command it needs next must name this store.
  if (loopbackHosts(flags.host, port) === undefined && (await listTokens(served.store)).length === 0)
    throw new CliError(
      `planloop serve listens on ${flags.host}, beyond this machine, only with a token of its own: add one with ` +
        `planloop serve tokens add <name> --scope run --store ${served.storeFlag}, then start serve again`,
    );
  const concurrency = wholeNumber(flags.concurrency, "--concurrency");
  const stepSlots = wholeNumber(flags.stepSlots, "--step-slots");
  const tools = await loadTools(served.tools);
  // /mcp offers the module's pipelines, as planloop mcp does.
  const pipelines = readPipelines((await importUserModule(served.tools, "tools")).pipelines, served.tools);
  const model = await modelFromFlags(served.apiModel);
  const webhooks = webhookSettings(flags);
  const runner =
    flags.redis === undefined
      ? undefined
      : bullmqRunner({ connection: flags.redis, queue: flags.queue, secret: process.env.PLANLOOP_QUEUE_SECRET || undefined });
  const server = await startRunServer({
    store: served.store,
    tools,
    pipelines,
    model,
    host: flags.host,
    port,
    concurrency,
    stepSlots,
    webhooks,
    runner,
    secret: serverSecret(),
    allowedOrigins: flags.allowOrigin,
    mcpSessions: flags.mcpSessions === true,
    // planloop serve's own loop applies grants to every waiting run of the store.
    servesAllRuns: true,
    onStreamCut: ({ runId, capBytes }) =>
      served.io.err(
        `planloop serve: a reader of run "${runId}"'s stream fell ${capBytes} bytes behind and was cut off; it resumes from its Last-Event-ID`,
      ),
  });
  served.io.out(`planloop serve: the API is on ${server.url} (docs/server.md, ${server.url}/api/openapi.json)`);
  if (server.sessionToken !== undefined)
    served.io.out(`planloop serve: session token (every scope, until this process ends): ${server.sessionToken}`);
  const watch = pageOf(served, server, flags.host);
  // The queue's connection and the page's watch are this command's: closed with the server.
  return { ...server, close: async (options) => (await server.close(options), watch?.stop(), await runner?.close()) };
}

/**
 * On the loopback, `planloop ui`'s page at /ui/, opened with the session token: decisions on
 * the runs the API started continue them here, the way they were started; other runs continue
 * by their command lines, as in `planloop ui`.
 */
function pageOf(served: Served, server: RunServer, host: string): RunWatch | undefined {
  const token = server.sessionToken;
  if (token === undefined) return undefined;
  const watch = new RunWatch(served.store, 500);
  const byCommand = continuing(served.rerun, quietIo(served.io), servedWord(served));
  const continueRun: ContinueRun = async (request) => {
    if (!(await server.host.hosts(request.runId))) return byCommand(request);
    return (await server.host.continue(request.runId, request.taken)).done;
  };
  const { app } = uiApp({
    store: served.store,
    storeFlag: served.storeFlag,
    watch,
    token,
    cookie: () => ({ name: tokenCookie(server.port), path: "/ui" }),
    hosts: () => loopbackHosts(host, server.port),
    base: "/ui",
    folder: builtPage(),
    continueRun,
    continuesHosted: true,
    cannotContinue: async (runId) =>
      (await server.host.hosts(runId))
        ? server.host.cannotContinue(runId)
        : whyNotHere(served.store, runId, { word: servedWord(served), command: "planloop serve" }),
  });
  server.mount(app);
  served.io.out(`planloop serve: the page is on ${server.url}/ui/?token=${token}`);
  return watch;
}

/**
 * What serve continues the command line's runs with, in place of what their launch lines name:
 * its store, tools and model module, and its `--limits-shared`, `--base-url` and `--redis`. A run
 * whose line names another module or place is not continued (see `launch-line.ts`).
 */
export function servedWord(served: Served): ContinuingWord {
  const { limitsShared, baseUrl } = served.apiModel;
  return {
    store: served.storeFlag,
    tools: served.tools,
    ...(served.model === undefined ? {} : { model: served.model }),
    ...(limitsShared === undefined ? {} : { limitsShared }),
    ...(baseUrl === undefined ? {} : { baseUrl }),
    ...(served.redis === undefined ? {} : { redis: served.redis }),
  };
}

/** PLANLOOP_SERVER_SECRET, which signs how each API run was started (docs/server.md#the-servers-secret). */
export function serverSecret(): string | undefined {
  const secret = process.env.PLANLOOP_SERVER_SECRET || undefined;
  if (secret !== undefined && secret.length < 16) throw new CliError("PLANLOOP_SERVER_SECRET must be 16 characters or more");
  return secret;
}

/** A whole number of at least 1 from a flag, or a clear refusal naming it. */
export function wholeNumber(text: string, flag: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 1) throw new CliError(`${flag} must be a whole number ≥ 1, not ${text}`);
  return value;
}
