import { Hono, type Context } from "hono";
import { headerBodyLimit } from "../server/body-limit.js";
import { streamSSE } from "hono/streaming";
import type { CheckpointStore } from "../journal/checkpoint-store.js";
import { errorMessage } from "../core/errors.js";
import type { Tool } from "../core/tools/define-tool.js";
import { renderTraceHtml } from "../trace/trace-html.js";
import { storedRunEvents } from "../trace/stored-trace.js";
import { childrenOf } from "../strategies/stored-runs.js";
import { RunDetails, stepsPage } from "./run-details.js";
import { runPage } from "./run-rows.js";
import type { RunWatch } from "./run-watch.js";
import { continueCommand, readDecisions, refuseHosted, takeRun, type ContinueRun, type Decision } from "./ui-decisions.js";
import type { TakenRun } from "../runs/take-decisions.js";
import { checkRunReference, RunIdError } from "../runs/run-id.js";
import { forkFrom, resumeCommand } from "./ui-fork.js";
import { checkOrigin, hasToken, HttpError, readJson, safety, staticFile } from "./ui-http.js";

/** How continuing a run with a decision is going, by run, for the page. */
type Continuation =
  | { state: "continuing" | "continued"; decision: Decision | undefined }
  | { state: "failed"; decision: Decision | undefined; error: string };

export interface UiAppOptions {
  store: CheckpointStore;
  storeFlag?: string | undefined;
  continueRun?: ContinueRun | undefined;
  /** `continueRun` continues the runs `planloop serve`'s HTTP API started (the page is that server's); without, their decisions are refused. */
  continuesHosted?: boolean | undefined;
  /** Why `continueRun` cannot continue this run (started by a program, with a model module not given): refused before anything is decided. */
  cannotContinue?: ((runId: string) => Promise<string | undefined>) | undefined;
  tools?: readonly Tool[] | undefined;
  watch: RunWatch;
  /** The access token every request needs. */
  token: string;
  /** The token's cookie: its name (for the server's port), and the path it is kept for (the page's). */
  cookie(): { name: string; path: string };
  /** The names a request may give as its host (undefined: any, for a server not on the loopback). */
  hosts(): string[] | undefined;
  /** Where the page is served: "" (the root) or a path of its own ("/ui"). */
  base?: string | undefined;
  /** The built page's folder. */
  folder: string;
}

/**
 * The web app's routes (docs/ui.md) as a Hono app: the page, its JSON API and a stream of the
 * runs that moved, under `base`. Every request needs the token; see `checkOrigin` for
 * cross-site requests. Decisions continue runs through `continueRun`, one at a time per run.
 */
export function uiApp(options: UiAppOptions): { app: Hono; settled(): Promise<void> } {
  const base = options.base ?? "";
  const app = new Hono().basePath(base === "" ? "/" : base);
  const continuations = new Map<string, Continuation>();
  // Continuations of one run follow each other; different runs' go on side by side.
  const queues = new Map<string, Promise<void>>();
  const enqueue = (runId: string, job: () => Promise<void>) => {
    const next = (queues.get(runId) ?? Promise.resolve()).then(job);
    queues.set(runId, next);
    void next.then(() => queues.get(runId) === next && queues.delete(runId));
  };
  const { store, continueRun } = options;
  const details = new RunDetails(store);

  const guarded =
    (handler: (context: Context) => Promise<Response>) =>
    async (context: Context): Promise<Response> => {
      try {
        checkOrigin(context, options.hosts());
        if (!hasToken(context, options.token, options.cookie().name))
          throw new HttpError(401, "this needs the token: open the URL planloop printed (it ends in ?token=…)");
        return await handler(context);
      } catch (error) {
        const status = error instanceof HttpError ? error.status : 500;
        const details = error instanceof HttpError ? error.details : {};
        return context.json({ error: errorMessage(error), ...details }, status as 400, safety);
      }
    };
  const json = (context: Context, body: unknown, status = 200) => context.json(body, status as 200, safety);
  // A run id by the library's one rule (never an inner run's, "" or a path): 400 otherwise.
  const runIdOf = (context: Context) => {
    try {
      return checkRunReference(decodeURIComponent(context.req.param("id") ?? ""), { field: "id" });
    } catch (error) {
      if (error instanceof RunIdError) throw new HttpError(400, error.message);
      throw error;
    }
  };

  app.use(
    "/api/*",
    headerBodyLimit({ maxSize: 1_000_000, onError: (context) => context.json({ error: "the body is larger than 1000000 bytes" }, 413) }),
  );

  app.get(
    "/api/events",
    guarded(async (context) =>
      streamSSE(context, async (stream) => {
        const listening = options.watch.listen((event, data) => void stream.writeSSE({ event, data: JSON.stringify(data) }));
        stream.onAbort(() => listening.stop());
        await listening.ready;
        await stream.writeSSE({ event: "ready", data: "{}", retry: 1000 });
        await listening.ended;
      }),
    ),
  );

  app.get(
    "/api/runs",
    guarded(async (context) => {
      const limit = Math.min(Number(context.req.query("limit") ?? 50) || 50, 500);
      const before = context.req.query("before");
      const cut = before?.indexOf(":") ?? -1;
      return json(
        context,
        await runPage(store, {
          limit,
          status: context.req.query("status") || undefined,
          taskType: context.req.query("taskType") || undefined,
          before: before && cut > 0 ? { createdAt: Number(before.slice(0, cut)), runId: before.slice(cut + 1) } : undefined,
        }),
      );
    }),
  );

  app.get(
    "/api/inbox",
    guarded(async (context) => json(context, { items: await details.inbox(), canDecide: continueRun !== undefined })),
  );

  const busy = (runId: string) => {
    if (continuations.get(runId)?.state === "continuing") throw new HttpError(409, `run "${runId}" is being continued already`);
  };

  /** Continues the run in this process (one continuation at a time per run), keeping how it went for the page. */
  const goOn = (runId: string, given?: { decisions: Decision | readonly Decision[]; taken: TakenRun }) => {
    // The page shows a wave by its first decision.
    const wave = Array.isArray(given?.decisions) ? (given.decisions as readonly Decision[]) : undefined;
    const decision = wave ? wave[0] : (given?.decisions as Decision | undefined);
    continuations.set(runId, { state: "continuing", decision });
    enqueue(runId, async () => {
      try {
        await continueRun!({
          runId,
          ...(wave ? { decisions: wave } : decision ? { decision } : {}),
          ...(given ? { taken: given.taken } : {}),
        });
        continuations.set(runId, { state: "continued", decision });
      } catch (error) {
        continuations.set(runId, { state: "failed", decision, error: errorMessage(error) });
      } finally {
        // A continuation that could not start gives the lease up here; one that ran gave it up as it stopped.
        await given?.taken.lease.release();
      }
      void options.watch.poke();
    });
  };

  app.post(
    "/api/runs/:id/decisions",
    guarded(async (context) => {
      const runId = runIdOf(context);
      const body = await readJson(context);
      // One decision, or a wave (Approve all / Deny all): several approvals or denials at once.
      const { decisions } = await readDecisions(store, runId, body, options.tools);
      if (!options.continuesHosted) await refuseHosted(store, runId);
      if (continueRun === undefined)
        return json(context, { continued: false, command: continueCommand(runId, decisions, options.storeFlag) });
      busy(runId);
      const why = await options.cannotContinue?.(runId);
      if (why !== undefined) throw new HttpError(409, `${why}; nothing was decided`);
      // The run's lease is taken and the decisions checked under it before the page is told: a 202 is a decision the run goes on with.
      goOn(runId, { decisions, taken: await takeRun(store, runId, decisions, options.tools) });
      return json(context, { continued: true }, 202);
    }),
  );

  app.post(
    "/api/runs/:id/fork",
    guarded(async (context) => {
      const source = runIdOf(context);
      // A rerun of a run planloop serve's API started is that server's to run.
      if (!options.continuesHosted) await refuseHosted(store, source);
      const forked = await forkFrom(store, source, await readJson(context));
      if (continueRun === undefined)
        return json(context, { ...forked, continued: false, command: resumeCommand(forked.runId, options.storeFlag) });
      busy(forked.runId);
      goOn(forked.runId);
      return json(context, { ...forked, continued: true }, 202);
    }),
  );

  app.get(
    "/api/runs/:id/trace.html",
    guarded(async (context) => {
      const runId = runIdOf(context);
      const stored = await store.getRun(runId);
      if (stored === undefined) throw new HttpError(404, `there is no run "${runId}"`);
      const html = renderTraceHtml(storedRunEvents(stored, await childrenOf(store, runId)), { title: `run ${runId}`, embedded: true });
      // Drawn in a sandboxed frame: its own inline script runs, and it can reach nothing.
      return context.html(html, 200, {
        "cache-control": "no-store",
        "content-security-policy":
          "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'self'",
      });
    }),
  );

  app.get(
    "/api/runs/:id/steps",
    guarded(async (context) => {
      const runId = runIdOf(context);
      const from = wholeNumber(context.req.query("from"), 0);
      const limit = wholeNumber(context.req.query("limit"), stepsPage);
      const page = await details.steps(runId, from, limit);
      if (page === undefined) throw new HttpError(404, `there is no run "${runId}"`);
      return json(context, page);
    }),
  );

  app.get(
    "/api/runs/:id",
    guarded(async (context) => {
      const runId = runIdOf(context);
      const detail = await details.page(runId, { bars: context.req.query("bars") === "1" });
      if (detail === undefined) throw new HttpError(404, `there is no run "${runId}"`);
      const continuation = continuations.get(runId);
      return json(context, { ...detail, canDecide: continueRun !== undefined, ...(continuation ? { continuation } : {}) });
    }),
  );

  app.all(
    "/api/*",
    guarded(async (context) => {
      if (context.req.method !== "GET") throw new HttpError(405, `${context.req.method} ${context.req.path} is not part of the API`);
      throw new HttpError(404, `${context.req.path} is not part of the API (docs/ui.md lists it)`);
    }),
  );

  app.get(
    "*",
    guarded(async (context) => {
      // Under a path of its own the page is read from "<base>/", so that its relative addresses resolve under it.
      if (base !== "" && context.req.path === base) return context.redirect(`${base}/${new URL(context.req.url).search}`);
      const path = context.req.path.slice(base.length) || "/";
      // The page: opened with the token, it is given a cookie, so its own files need no token in their URLs.
      const { name, path: kept } = options.cookie();
      const cookie = `${name}=${options.token}; HttpOnly; SameSite=Strict; Path=${kept}`;
      const file = await staticFile(options.folder, path.startsWith("/assets/") ? path : "/");
      if (file === undefined) throw new HttpError(404, `no such file: ${path} (was the package built? npm run build)`);
      return context.body(new Uint8Array(file.body), 200, { ...safety, "set-cookie": cookie, "content-type": file.type });
    }),
  );

  return { app, settled: () => Promise.all([...queues.values()]).then(() => {}) };
}

/** A query's whole number (`from`, `limit`), or `fallback` when absent; anything else is a 400. */
function wholeNumber(given: string | undefined, fallback: number): number {
  if (given === undefined || given === "") return fallback;
  const value = Number(given);
  if (!Number.isSafeInteger(value) || value < 0) throw new HttpError(400, `expected a whole number, got "${given}"`);
  return value;
}
