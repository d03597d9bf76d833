import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { CheckpointStore } from "../journal/checkpoint-store.js";
import { errorMessage } from "../core/errors.js";
import type { Tool } from "../core/tools/define-tool.js";
import { renderTraceHtml } from "../trace/trace-html.js";
import { storedRunEvents } from "../trace/stored-trace.js";
import { childrenOf } from "../strategies/stored-runs.js";
import { inbox, runDetail } from "./run-detail.js";
import { runPage } from "./run-rows.js";
import { RunWatch } from "./run-watch.js";
import { continueCommand, readDecision, readWave, type ContinueRun, type Decision } from "./ui-decisions.js";
import { forkFrom, resumeCommand } from "./ui-fork.js";
import { checkOrigin, hasToken, HttpError, readJson, sendJson, sendStatic, tokenCookie } from "./ui-http.js";

export interface UiOptions {
  store: CheckpointStore;
  /** How the store is named on the command line (`--store`), for the commands the page shows. */
  storeFlag?: string;
  /** Where to listen: 127.0.0.1 unless told otherwise. */
  host?: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** The access token every request needs; a random one when absent. */
  token?: string;
  /**
   * Continues a run with a person's decision (the `planloop ui` command does what `planloop
   * runs approve` does). Without it, a decision is not taken here: the page shows the command
   * that takes it.
   */
  continueRun?: ContinueRun;
  /** The run's tools, for checking an edited plan's tool names and arguments. */
  tools?: readonly Tool[];
  /** How often the store is looked at for runs that moved, for the page's live updates (ms). */
  pollMs?: number;
  /** The built page; default: the one the package was built with. */
  appFolder?: string;
}

export interface UiServer {
  /** The URL to open, with the token. */
  url: string;
  token: string;
  close(): Promise<void>;
}

/** How continuing a run with a decision is going, by run, for the page. */
type Continuation =
  | { state: "continuing" | "continued"; decision: Decision | undefined }
  | { state: "failed"; decision: Decision | undefined; error: string };

/**
 * Serves the web app over a store: the page, its JSON API (docs/ui.md) and a stream of the
 * runs that moved. Every request needs the token; see `checkOrigin` for cross-site requests.
 */
export async function startUi(options: UiOptions): Promise<UiServer> {
  const host = options.host ?? "127.0.0.1";
  const token = options.token ?? randomBytes(24).toString("base64url");
  const folder = options.appFolder ?? builtPage();
  const watch = new RunWatch(options.store, options.pollMs ?? 500);
  const continuations = new Map<string, Continuation>();
  // One continuation at a time: each runs the run's command in this process.
  let queue: Promise<void> = Promise.resolve();
  let hosts: string[] | undefined = [];
  const context: Context = {
    options,
    token,
    folder,
    watch,
    continuations,
    hosts: () => hosts,
    enqueue: (job) => (queue = queue.then(job)),
  };
  const server = createServer((request, response) => {
    handle(context, request, response).catch((error: unknown) => {
      const status = error instanceof HttpError ? error.status : 500;
      if (!response.headersSent)
        sendJson(response, status, { error: errorMessage(error), ...(error instanceof HttpError ? error.details : {}) });
      else response.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  const named = host.includes(":") ? `[${host}]` : host;
  const loopback = host === "127.0.0.1" || host === "::1" || host === "localhost";
  hosts = loopback ? [`${named}:${port}`, `localhost:${port}`, `127.0.0.1:${port}`] : undefined;
  return {
    url: `http://${named}:${port}/?token=${token}`,
    token,
    close: async () => {
      watch.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await queue;
    },
  };
}

/**
 * Where the built page is: beside this module in the package (dist/ui/app); run from the
 * source (tests, tsx), the one `npm run build` made.
 */
function builtPage(): string {
  const candidates = [new URL("./app/", import.meta.url), new URL("../../dist/ui/app/", import.meta.url)].map((url) => fileURLToPath(url));
  return candidates.find((folder) => existsSync(join(folder, "assets"))) ?? candidates[0]!;
}

interface Context {
  options: UiOptions;
  token: string;
  folder: string;
  watch: RunWatch;
  continuations: Map<string, Continuation>;
  /** The names a request may give as its host (undefined: any, for a server not on the loopback). */
  hosts(): string[] | undefined;
  enqueue(job: () => Promise<void>): void;
}

async function handle(context: Context, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const url = new URL(request.url ?? "/", "http://ui");
  checkOrigin(request, context.hosts());
  if (!hasToken(request, url, context.token)) {
    throw new HttpError(401, "this needs the token: open the URL planloop ui printed (it ends in ?token=…)");
  }
  const { store } = context.options;
  const path = url.pathname;
  if (path === "/api/events") return context.watch.stream(request, response);
  if (path === "/api/runs" && request.method === "GET") {
    const limit = Math.min(Number(url.searchParams.get("limit") ?? 50) || 50, 500);
    const before = url.searchParams.get("before");
    const cut = before?.indexOf(":") ?? -1;
    return sendJson(
      response,
      200,
      await runPage(store, {
        limit,
        status: url.searchParams.get("status") || undefined,
        taskType: url.searchParams.get("taskType") || undefined,
        before: before && cut > 0 ? { createdAt: Number(before.slice(0, cut)), runId: before.slice(cut + 1) } : undefined,
      }),
    );
  }
  if (path === "/api/inbox")
    return sendJson(response, 200, { items: await inbox(store), canDecide: context.options.continueRun !== undefined });
  const run = /^\/api\/runs\/([^/]+)(\/trace\.html|\/decisions|\/fork)?$/.exec(path);
  if (run) return runRoute(context, request, response, { runId: decodeURIComponent(run[1]!), part: run[2] });
  if (request.method !== "GET") throw new HttpError(405, `${request.method} ${path} is not part of the API`);
  if (path.startsWith("/api/")) throw new HttpError(404, `${path} is not part of the API (docs/ui.md lists it)`);
  // The page: opened with the token, it is given a cookie, so its own files need no token in their URLs.
  const cookie = `${tokenCookie}=${context.token}; HttpOnly; SameSite=Strict; Path=/`;
  const served = await sendStatic(response, context.folder, path.startsWith("/assets/") ? path : "/", { "set-cookie": cookie });
  if (!served) throw new HttpError(404, `no such file: ${path} (was the package built? npm run build)`);
}

/** Continues the run in this process (one continuation at a time), keeping how it went for the page. */
function goOn(context: Context, runId: string, decided: Decision | readonly Decision[] | undefined): void {
  const continueRun = context.options.continueRun!;
  if (context.continuations.get(runId)?.state === "continuing") throw new HttpError(409, `run "${runId}" is being continued already`);
  // The page shows a wave by its first decision.
  const decision = Array.isArray(decided) ? (decided as readonly Decision[])[0] : (decided as Decision | undefined);
  context.continuations.set(runId, { state: "continuing", decision });
  context.enqueue(async () => {
    try {
      await continueRun({
        runId,
        ...(Array.isArray(decided) ? { decisions: decided as readonly Decision[] } : decision ? { decision } : {}),
      });
      context.continuations.set(runId, { state: "continued", decision });
    } catch (error) {
      context.continuations.set(runId, { state: "failed", decision, error: errorMessage(error) });
    }
    void context.watch.poke();
  });
}

async function runRoute(
  context: Context,
  request: IncomingMessage,
  response: ServerResponse,
  { runId, part }: { runId: string; part: string | undefined },
): Promise<void> {
  const { store, continueRun } = context.options;
  if (part === "/decisions") {
    if (request.method !== "POST") throw new HttpError(405, "decisions are POSTed");
    const body = await readJson(request);
    // One decision, or a wave (Approve all / Deny all): several approvals or denials at once.
    const decided = Array.isArray(body)
      ? await readWave(store, runId, body)
      : await readDecision(store, runId, body, context.options.tools);
    if (continueRun === undefined) {
      return sendJson(response, 200, { continued: false, command: continueCommand(runId, decided, context.options.storeFlag) });
    }
    goOn(context, runId, decided);
    return sendJson(response, 202, { continued: true });
  }
  if (part === "/fork") {
    if (request.method !== "POST") throw new HttpError(405, "a rerun is POSTed");
    const forked = await forkFrom(store, runId, await readJson(request));
    if (continueRun === undefined)
      return sendJson(response, 200, { ...forked, continued: false, command: resumeCommand(forked.runId, context.options.storeFlag) });
    goOn(context, forked.runId, undefined);
    return sendJson(response, 202, { ...forked, continued: true });
  }
  if (request.method !== "GET") throw new HttpError(405, `${request.method} is not allowed here`);
  if (part === "/trace.html") {
    const stored = await store.getRun(runId);
    if (stored === undefined) throw new HttpError(404, `there is no run "${runId}"`);
    const html = renderTraceHtml(storedRunEvents(stored, await childrenOf(store, runId)), { title: `run ${runId}`, embedded: true });
    // Drawn in a sandboxed frame: its own inline script runs, and it can reach nothing.
    response.writeHead(200, {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      "content-security-policy":
        "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'self'",
    });
    return void response.end(html);
  }
  const detail = await runDetail(store, runId);
  if (detail === undefined) throw new HttpError(404, `there is no run "${runId}"`);
  const continuation = context.continuations.get(runId);
  sendJson(response, 200, { ...detail, canDecide: continueRun !== undefined, ...(continuation ? { continuation } : {}) });
}
