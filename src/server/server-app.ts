import { Hono, type Context } from "hono";
import { headerBodyLimit } from "./body-limit.js";
import { RunBusyError, errorMessage, InvalidOptionsError } from "../core/errors.js";
import type { CheckpointStore } from "../journal/checkpoint-store.js";
import { sendEvent } from "../waits/send-event.js";
import type { RunDecisions } from "../runs/decide-run.js";
import { NoSuchRunError } from "../runs/take-decisions.js";
import { TamperedRequestError } from "../runs/hosted-request.js";
import { DecisionsRefusedError } from "../runs/decisions-refused.js";
import type { ApiScope, DecisionRequest, RunView } from "../client/api-types.js";
import { allows, findToken, hashToken, listTokens } from "./api-tokens.js";
import { sameSecretText } from "../trust/keyed-hash.js";
import { BodyError, decisionsBody, eventBody, forkBody, readBody, startRunBody, type GrantRequest } from "./api-requests.js";
import { addGrant, GrantError } from "../runs/standing-grants.js";
import { checkRunReference, RunIdError } from "../runs/run-id.js";
import { mayChangeRun, notCallersRun } from "../runs/run-access.js";
import { openApiDocument } from "./openapi.js";
import { allowedMethods, checkedOrigins, originAllowed } from "./request-guards.js";
import { CannotContinueError, NotHostedError, type RunHost } from "../runs/run-host.js";
import { viewOfRun } from "./run-view.js";
import type { LegacyMcpSessions } from "./mcp-legacy-sessions.js";
import { mcpOverHttp } from "./mcp-over-http.js";
import type {
  Answer,
  decisionsTaken,
  eventKept,
  forkCreated,
  grantKept,
  runCancelled,
  runCreated,
  runList,
  runView as runViewSchema,
} from "./api-responses.js";
import type { RunChanges } from "./run-changes.js";
import type { Pipeline } from "../runs/pipelines.js";
import { webhookAttempts, type Webhooks } from "./webhooks.js";
import { ApiFailure } from "./api-failure.js";
import { streamRun } from "./run-stream-route.js";

/** How far (bytes) a stream's reader may fall behind before it is cut off and must reconnect. */
export const defaultStreamBufferBytes = 1_048_576;

export interface ServerAppOptions {
  store: CheckpointStore;
  host: RunHost;
  /** Told when a run of this process wrote something: streams look at the store at once instead of at their next poll. */
  changes: RunChanges;
  /** A token with every scope for this process's life (the local case); tokens in the store count too. */
  sessionToken?: string | undefined;
  /**
   * How often an open stream looks at the store for what other processes wrote (ms), when the
   * store has no change feed (`watchRuns`); with one, streams wait for the feed. Default 250.
   */
  pollMs?: number | undefined;
  /**
   * The most a stream holds for a reader that has not taken it (bytes; default 1 MiB): a reader
   * further behind (one that stopped reading) is cut off, and reconnects with its `Last-Event-ID`.
   */
  streamBufferBytes?: number | undefined;
  /** Told when a stream's reader was cut off (`streamBufferBytes`), for the server's log. */
  onStreamCut?: ((cut: { runId: string; capBytes: number }) => void) | undefined;
  /** The largest request body taken, in bytes. Default 1 MB. */
  maxBodyBytes?: number | undefined;
  /** Where webhooks go out; without it a run that asks for one is refused. */
  webhooks?: Webhooks | undefined;
  /**
   * A service over the store (`serveRuns`: planloop serve) applies standing grants to every
   * waiting run, not only this server's: a grant on a run of the command line (a schedule's) is
   * then kept, and applied on its next pass.
   */
  servesAllRuns?: boolean | undefined;
  /** Browser origins besides this server's own that may call the API and `/mcp` (`https://app.example.com`); see `originAllowed`. */
  allowedOrigins?: readonly string[] | undefined;
  /** The server listens on the loopback only: a page counts as its own only under a loopback name (DNS rebinding); see `originAllowed`. */
  loopbackOnly?: boolean | undefined;
  /** Named pipelines, one `/mcp` tool each, as `planloop mcp` offers them. */
  pipelines?: readonly Pipeline[] | undefined;
  /** Sessions of `/mcp` for 2025-11-25 clients that take forms (`LegacyMcpSessions`); without, `/mcp` is stateless for them. */
  mcpSessions?: LegacyMcpSessions | undefined;
  /** The server's secret: `/mcp`'s 2026-07-28 `requestState` is signed with a key made from it, so any process of the server verifies it. */
  secret?: string | undefined;
}

/** Who made the request: the token's name and scopes, and the token itself (its hash): a name outlives a removed token. */
type Caller = { name: string; scopes: readonly ApiScope[]; key: string };
type Env = { Variables: { caller: Caller } };

/**
 * The run server's HTTP API (docs/server.md) as a Hono app: start runs, read them, follow
 * their events as a resumable stream, decide what they wait for, cancel them, send events.
 * Every route but the OpenAPI document needs a bearer token with the route's scope.
 */
export function serverApp(options: ServerAppOptions): Hono<Env> {
  const { store, host, changes } = options;
  const app = new Hono<Env>();
  const maxBodyBytes = options.maxBodyBytes ?? 1_000_000;
  const streamBufferBytes = options.streamBufferBytes ?? defaultStreamBufferBytes;
  if (!(Number.isSafeInteger(streamBufferBytes) && streamBufferBytes > 0))
    throw new InvalidOptionsError(`streamBufferBytes must be a whole number of bytes above 0, not ${String(options.streamBufferBytes)}`);
  app.onError((error, context) => failed(context, error));
  app.notFound((context) => {
    const allow = allowedMethods(app.routes, context.req.path);
    if (allow.length > 0)
      return context.json({ error: `${context.req.path} takes ${allow.join(", ")}, not ${context.req.method}` }, 405, {
        Allow: allow.join(", "),
      });
    return context.json(
      { error: `${context.req.method} ${context.req.path} is not part of the API (GET /api/openapi.json lists it)` },
      404,
    );
  });
  const origins = checkedOrigins(options.allowedOrigins);
  const sameOrigin = async (context: Context<Env>, next: () => Promise<void>) => {
    if (!originAllowed(context, origins, { loopbackOnly: options.loopbackOnly }))
      throw new ApiFailure(
        403,
        `a page of ${context.req.header("origin")} may not call this server: only its own origin and those it was told to allow (--allow-origin)`,
      );
    await next();
  };
  app.use("/api/*", sameOrigin);
  app.use("/mcp", sameOrigin);
  app.get("/api/openapi.json", (context) => context.json(openApiDocument()));
  app.use(
    "/api/*",
    headerBodyLimit({
      maxSize: maxBodyBytes,
      onError: () => Promise.reject(new ApiFailure(413, `the body is larger than ${maxBodyBytes} bytes`)),
    }),
  );
  const needs = (scope: ApiScope) => async (context: Context<Env>, next: () => Promise<void>) => {
    context.set("caller", await caller(context, scope));
    await next();
  };
  async function caller(context: Context<Env>, scope: ApiScope): Promise<Caller> {
    const presented = /^Bearer\s+(\S+)$/i.exec(context.req.header("authorization") ?? "")?.[1];
    if (presented === undefined) throw new ApiFailure(401, "this needs a token: Authorization: Bearer <token> (planloop serve tokens add)");
    const session = options.sessionToken !== undefined && sameSecretText(presented, options.sessionToken);
    const known: Omit<Caller, "key"> | undefined = session
      ? { name: "session", scopes: ["admin"] }
      : findToken(await listTokens(store), presented);
    if (known === undefined) throw new ApiFailure(401, "the token is not one this server knows");
    if (!allows(known.scopes, scope)) throw new ApiFailure(403, `token "${known.name}" may not do this: it needs the "${scope}" scope`);
    return { name: known.name, scopes: known.scopes, key: session ? sessionKey! : hashToken(presented) };
  }
  // The session token's hash, made once rather than at each of its requests.
  const sessionKey = options.sessionToken === undefined ? undefined : hashToken(options.sessionToken);

  // MCP over Streamable HTTP (docs/mcp.md): its tools start and decide runs, so the token needs both scopes.
  app.use(
    "/mcp",
    headerBodyLimit({
      maxSize: maxBodyBytes,
      onError: () => Promise.reject(new ApiFailure(413, `the body is larger than ${maxBodyBytes} bytes`)),
    }),
  );
  app.all("/mcp", needs("run"), async (context) => {
    const { name, scopes, key } = context.get("caller");
    if (!allows(scopes, "decide"))
      throw new ApiFailure(403, `token "${name}" may not use /mcp: its tools start and decide runs (run and decide scopes)`);
    return mcpOverHttp(
      {
        store,
        host,
        changes,
        client: name,
        pipelines: options.pipelines,
        secret: options.secret,
        pollMs: options.pollMs,
        sessions: options.mcpSessions,
        owner: key,
      },
      context.req.raw,
    );
  });

  app.get("/api/runs", needs("read"), async (context) => {
    const limit = Math.min(Math.max(Number(context.req.query("limit") ?? 50) || 50, 1), 500);
    const status = context.req.query("status") || undefined;
    const rows = await store.listRuns({ topLevel: true, limit, status });
    const runs = rows.map((row) => ({
      runId: row.runId,
      entry: row.entry,
      status: row.outcome?.status ?? "running",
      // A completed run whose answer has claims its steps do not support: a pipeline's reader sees it in the list.
      ...(row.outcome?.unsupported === undefined ? {} : { unsupportedClaims: row.outcome.unsupported }),
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    }));
    return context.json({ runs } satisfies Answer<typeof runList>);
  });

  app.post("/api/runs", needs("run"), async (context) => {
    const body = readBody(startRunBody, await jsonOf(context), "body");
    if (body.webhook !== undefined && options.webhooks === undefined)
      throw new ApiFailure(400, "webhook: this server sends no webhooks (start it with --webhook-secret or PLANLOOP_WEBHOOK_SECRET)", {
        field: "body.webhook",
      });
    const started = await host.start(body, { client: context.get("caller").name });
    return context.json(started satisfies Answer<typeof runCreated>, started.created ? 201 : 200);
  });

  app.get("/api/runs/:id", needs("read"), async (context) => {
    const view = await runView(store, idOf(context));
    const webhooks = await webhookAttempts(store, view.runId);
    return context.json({ ...view, ...(webhooks.length === 0 ? {} : { webhooks }) } satisfies Answer<typeof runViewSchema>);
  });

  app.post("/api/runs/:id/fork", needs("run"), async (context) => {
    const runId = idOf(context);
    const body = readBody(forkBody, await jsonOf(context), "body");
    await callersRun(runId, context.get("caller"), "fork");
    // A retried fork (the same id, from the same run and step, by the same client) is answered as a retried start is.
    if (
      body.runId !== undefined &&
      (await retriedFork(store, { runId, step: body.step, forkId: body.runId, client: context.get("caller").name }))
    )
      return context.json({ runId: body.runId, created: false } satisfies Answer<typeof forkCreated>, 200);
    const { plan: _, ...forked } = await host.fork(runId, body, { client: context.get("caller").name });
    return context.json({ ...forked, created: true } satisfies Answer<typeof forkCreated>, 201);
  });

  app.post("/api/runs/:id/cancel", needs("run"), async (context) => {
    const runId = idOf(context);
    const caller = context.get("caller");
    await callersRun(runId, caller, "cancel");
    const outcome = await host.cancel(runId, `cancelled through the run server by ${caller.name}`).catch((error: unknown) => {
      if (error instanceof RunBusyError) throw new ApiFailure(409, `run "${runId}" is running in another process; cancel it there`);
      throw error;
    });
    if (outcome === "missing") throw new ApiFailure(404, `there is no run "${runId}"`);
    if (outcome === "finished") throw new ApiFailure(409, `run "${runId}" has finished already; there is nothing to cancel`);
    return context.json({ runId, status: "cancelled" } satisfies Answer<typeof runCancelled>);
  });

  app.post("/api/runs/:id/decisions", needs("decide"), async (context) => {
    const runId = idOf(context);
    const body = readBody(decisionsBody, await jsonOf(context), "decisions");
    if ("grant" in body)
      return context.json((await grant(runId, body.grant, context.get("caller").name)) satisfies Answer<typeof grantKept>, 201);
    const { decided } = await hostDecides(host, runId, { decisions: body, by: context.get("caller").name });
    return context.json({ decided: decided.ids, continued: true } satisfies Answer<typeof decisionsTaken>, 202);
  });

  /** The run a caller changes (`mayChangeRun`: its own, unless it may decide runs too); 404 or 403 otherwise. */
  async function callersRun(runId: string, caller: Caller, verb: string): Promise<void> {
    const [run] = await store.listRuns({ runId, limit: 1 });
    if (run === undefined) throw new ApiFailure(404, `there is no run "${runId}"`);
    const who = { name: caller.name, everyRun: allows(caller.scopes, "decide") };
    if (!mayChangeRun(run, who)) throw new ApiFailure(403, notCallersRun(run, who, verb));
  }

  /** Keeps a standing grant, and approves at once what the run waits for that it covers. */
  async function grant(runId: string, given: GrantRequest, by: string) {
    if ((await store.getRun(runId)) === undefined) throw new ApiFailure(404, `there is no run "${runId}"`);
    const hosted = await host.hosts(runId);
    // A run of the command line (a schedule's) has its grants applied by a service over the store (planloop serve), if one runs.
    if (!hosted && !options.servesAllRuns)
      throw new ApiFailure(
        409,
        `run "${runId}" was not started by this server, and no service over the store applies its grants (planloop serve does)`,
      );
    try {
      const kept = await addGrant(store, runId, { ...given, by, at: Date.now() });
      return { grant: kept, decided: hosted ? await host.applyGrants(runId) : [] };
    } catch (error) {
      if (error instanceof GrantError) throw new ApiFailure(400, error.message, { field: `decisions.${error.field}` });
      throw error;
    }
  }

  app.post("/api/events/:name", needs("run"), async (context) => {
    const body = readBody(eventBody, await jsonOf(context), "event");
    const sent = await sendEvent({ store, event: context.req.param("name") ?? "", data: body.data, runId: body.runId, id: body.id });
    return context.json(sent satisfies Answer<typeof eventKept>, 202);
  });

  app.get("/api/runs/:id/stream", needs("read"), (context) =>
    streamRun(context, idOf(context), {
      store,
      changes,
      pollMs: options.pollMs,
      bufferBytes: streamBufferBytes,
      onCut: options.onStreamCut,
    }),
  );
  return app;
}

/**
 * Whether the fork asked for is there already, made by the same client from the same run and
 * step (a retry); a run of that id that is anything else is a 409.
 */
async function retriedFork(
  store: CheckpointStore,
  asked: { runId: string; step: string | number; forkId: string; client: string },
): Promise<boolean> {
  const [existing] = await store.listRuns({ runId: asked.forkId, limit: 1 });
  if (existing === undefined) return false;
  const from = existing.origin?.forkedFrom;
  if (from?.runId === asked.runId && from.step === String(asked.step) && existing.origin?.client === asked.client) return true;
  throw new ApiFailure(
    409,
    `a run "${asked.forkId}" exists already, and it is not this client's fork of "${asked.runId}" at step ${asked.step}; give the new run another id`,
  );
}

/** A run as `GET /api/runs/:id` gives it, or a 404. */
async function runView(store: CheckpointStore, runId: string): Promise<RunView> {
  const view = await viewOfRun(store, runId);
  if (view === undefined) throw new ApiFailure(404, `there is no run "${runId}"`);
  return view;
}

/**
 * A decision or a wave taken by the run host (`RunHost.decide`: checked, the run's lease held,
 * checked again under it) and the run continued with it; each refusal as its HTTP answer.
 */
async function hostDecides(
  host: RunHost,
  runId: string,
  given: { decisions: DecisionRequest | DecisionRequest[]; by: string },
): Promise<{ decided: RunDecisions }> {
  try {
    const { decided, done } = await host.decide(runId, given);
    done.catch(() => {});
    return { decided };
  } catch (error) {
    if (error instanceof NoSuchRunError) throw new ApiFailure(404, error.message);
    if (error instanceof DecisionsRefusedError)
      throw new ApiFailure(error.httpStatus, error.message, { ids: error.ids, problems: [...error.problems] });
    if (error instanceof NotHostedError || error instanceof TamperedRequestError || error instanceof CannotContinueError)
      throw new ApiFailure(409, error.message);
    if (error instanceof RunBusyError)
      throw new ApiFailure(
        409,
        `run "${runId}" is being continued already (by ${error.owner}); nothing was decided: follow it on its stream`,
      );
    throw error;
  }
}

/** The run id of a `/api/runs/:id…` route, checked by the one rule for ids callers name (never an inner run's). */
function idOf(context: Context): string {
  try {
    return checkRunReference(context.req.param("id") ?? "", { field: "id" });
  } catch (error) {
    if (error instanceof RunIdError) throw new ApiFailure(400, error.message, { field: error.field });
    throw error;
  }
}

async function jsonOf(context: Context): Promise<unknown> {
  if (!(context.req.header("content-type") ?? "").startsWith("application/json"))
    throw new ApiFailure(415, "send JSON (Content-Type: application/json)");
  try {
    return await context.req.json();
  } catch (error) {
    if (error instanceof ApiFailure) throw error;
    throw new ApiFailure(400, "the body is not JSON");
  }
}

function failed(context: Context, error: unknown): Response {
  if (error instanceof ApiFailure) return context.json({ error: error.message, ...error.extra }, error.status);
  if (error instanceof BodyError) return context.json({ error: error.message, field: error.field }, 400);
  if (error instanceof InvalidOptionsError) return context.json({ error: error.message }, 400);
  return context.json({ error: `the server failed: ${errorMessage(error)}` }, 500);
}
