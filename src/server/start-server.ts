import { randomBytes } from "node:crypto";
import { listenError } from "../core/listen-error.js";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import type { Hono } from "hono";
import { InvalidOptionsError } from "../core/errors.js";
import type { Model } from "../core/model.js";
import type { Tool } from "../core/tools/define-tool.js";
import type { StepRunner } from "../executor/step-runner.js";
import type { CheckpointStore } from "../journal/checkpoint-store.js";
import type { Pipeline } from "../runs/pipelines.js";
import { listTokens } from "./api-tokens.js";
import { RunChanges } from "./run-changes.js";
import { RunHost } from "../runs/run-host.js";
import { LegacyMcpSessions, type LegacyMcpSessionsOptions } from "./mcp-legacy-sessions.js";
import { serverApp } from "./server-app.js";
import { toldWrites } from "./told-writes.js";
import { payloadOf, Webhooks, type WebhookOptions } from "./webhooks.js";

export interface RunServerOptions {
  store: CheckpointStore;
  tools: readonly Tool[];
  model?: Model | undefined;
  /** Named pipelines of the tools module, one tool each on `/mcp` (docs/mcp.md). */
  pipelines?: readonly Pipeline[] | undefined;
  /** Where to listen: 127.0.0.1 unless told otherwise. Anywhere else needs a token kept in the store. */
  host?: string | undefined;
  /** 0 (the default) picks a free port. */
  port?: number | undefined;
  /** Where the runs' steps run: `bullmqRunner(…)` from planloop/bullmq puts them on workers. Default: this process. */
  runner?: StepRunner | undefined;
  /** Runs at once in this process (default 8). */
  concurrency?: number | undefined;
  /** Steps at once across those runs, shared fairly between them (default 32). */
  stepSlots?: number | undefined;
  /**
   * The server's secret (16 characters or more): how each run was started (its plan or task, its
   * webhook) is kept signed with it, and a kept request someone changed in the store is not run.
   */
  secret?: string | undefined;
  /** How often open streams look at the store for other processes' writes (ms), for a store without a change feed. */
  pollMs?: number | undefined;
  /** The most a stream holds for a reader that has not taken it (bytes; default 1 MiB); a reader further behind is cut off and reconnects. */
  streamBufferBytes?: number | undefined;
  /** Told when a stream's reader was cut off, for a log. */
  onStreamCut?: ((cut: { runId: string; capBytes: number }) => void) | undefined;
  /** The largest request body taken, in bytes (default 1 MB). */
  maxBodyBytes?: number | undefined;
  /** A service over the store (`serveRuns`) applies grants to every waiting run: grants on runs this server did not start are kept too. */
  servesAllRuns?: boolean | undefined;
  /**
   * Browser origins besides the server's own that may call the API and `/mcp`
   * (`https://app.example.com`). A request from any other page is refused (403); programs send none.
   */
  allowedOrigins?: readonly string[] | undefined;
  /**
   * `/mcp` keeps a session for each 2025-11-25 client that declares form elicitation, so a task
   * waiting for a person asks it through a form over HTTP as over stdio (docs/mcp.md). A session
   * lives in this process: behind several, route by the `Mcp-Session-Id` header. Default off:
   * every request stateless.
   */
  mcpSessions?: boolean | LegacyMcpSessionsOptions | undefined;
  /**
   * Webhooks: signed with `secret`, POSTed to `url` (every run) and to a run's own `webhook`
   * when it waits or ends. Without it, a run that asks for a webhook is refused.
   */
  webhooks?: (WebhookOptions & { url?: string | undefined }) | undefined;
}

export interface RunServer {
  /** `http://host:port`, no slash at the end. */
  url: string;
  /** On the loopback only: a token with every scope for this process's life. */
  sessionToken: string | undefined;
  host: RunHost;
  /** The port it listens on. */
  port: number;
  /** Serves `routes` too, beside the API (a Hono app with a base path of its own: `planloop ui`'s page under /ui). */
  mount(routes: Hono): void;
  /**
   * Sends a run's end or wait to the server's webhook URL (`webhooks.url`), as it does for its
   * own runs: for runs the server did not start (a schedule's run that could not start). False
   * when the server sends no webhooks there.
   */
  sendWebhook(runId: string, stop: { status: string; reason?: string | undefined }): boolean;
  /** Stops taking requests, then waits for the runs of this process to stop (`abortRuns`: cancels them first). */
  close(options?: { abortRuns?: boolean }): Promise<void>;
}

const loopback = new Set(["127.0.0.1", "::1", "localhost"]);

/**
 * Starts the run server (docs/server.md): the HTTP API over `store`, running what it is asked
 * to with `tools` and `model`. On the loopback it makes a session token; anywhere else it
 * refuses to start until a token was added to the store (`planloop serve tokens add`).
 */
export async function startRunServer(options: RunServerOptions): Promise<RunServer> {
  const hostname = options.host ?? "127.0.0.1";
  const local = loopback.has(hostname);
  if (!local && (await listTokens(options.store)).length === 0)
    throw new InvalidOptionsError(
      `the run server listens on ${hostname}, beyond this machine, only with a token of its own: add one with planloop serve tokens add <name> --scope …`,
    );
  const sessionToken = local ? `pls_${randomBytes(24).toString("base64url")}` : undefined;
  const changes = new RunChanges(options.store);
  const webhooks = options.webhooks === undefined ? undefined : new Webhooks(options.store, options.webhooks);
  const host = new RunHost({
    // The runs of this process wake their streams as each write is committed.
    store: toldWrites(options.store, (runId) => changes.changed(runId)),
    tools: options.tools,
    model: options.model,
    concurrency: options.concurrency,
    stepSlots: options.stepSlots,
    runner: options.runner,
    secret: options.secret,
    onActivity: (runId, event) => changes.changed(runId, event),
    onStop: (runId, stop) => {
      const payload = payloadOf(runId, stop);
      if (webhooks === undefined || payload === undefined) return;
      for (const url of new Set([options.webhooks?.url, stop.request.webhook])) if (url !== undefined) webhooks.send(url, payload);
    },
  });
  const mcpSessions = options.mcpSessions ? new LegacyMcpSessions(options.mcpSessions === true ? {} : options.mcpSessions) : undefined;
  const app = serverApp({
    mcpSessions,
    webhooks,
    store: options.store,
    host,
    changes,
    sessionToken,
    pollMs: options.pollMs,
    streamBufferBytes: options.streamBufferBytes,
    onStreamCut: options.onStreamCut,
    maxBodyBytes: options.maxBodyBytes,
    allowedOrigins: options.allowedOrigins,
    servesAllRuns: options.servesAllRuns,
    pipelines: options.pipelines,
    loopbackOnly: local,
    secret: options.secret,
  });
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const started = serve({ fetch: app.fetch, hostname, port: options.port ?? 0 }, () => resolve(started));
    started.once("error", (error) => reject(listenError(error, { host: hostname, port: options.port })));
  });
  const { port } = server.address() as AddressInfo;
  const named = hostname.includes(":") ? `[${hostname}]` : hostname;
  return {
    url: `http://${named}:${port}`,
    sessionToken,
    host,
    port,
    mount: (routes) => void app.route("/", routes),
    sendWebhook: (runId, stop) => {
      const url = options.webhooks?.url;
      const payload = payloadOf(runId, stop);
      if (webhooks === undefined || url === undefined || payload === undefined) return false;
      webhooks.send(url, payload);
      return true;
    },
    close: async ({ abortRuns = false } = {}) => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
      changes.close();
      await mcpSessions?.close();
      await host.close({ abort: abortRuns });
      await webhooks?.close();
      await closed;
    },
  };
}
