import type { LegacyMcpSessions } from "./mcp-legacy-sessions.js";
import { legacyMcpOverHttp, type McpServerOptions } from "./mcp-server.js";
import { modernMcpServer, modernSdk } from "./mcp-modern-server.js";
import { serveTaskNotifications, taskListenRequest, undeclaredListen, type ListenRequest } from "./mcp-task-notifications.js";
import { ModernTasks } from "./mcp-tasks-extension.js";

export interface McpOverHttpOptions extends McpServerOptions {
  /** Sessions for 2025-11-25 clients that take forms (`planloop serve --mcp-sessions`); without, every request is stateless. */
  sessions?: LegacyMcpSessions | undefined;
  /** Whose a session is: the token (its hash), so a later token given a removed one's name does not get its sessions. Default the client's name. */
  owner?: string | undefined;
}

/**
 * One MCP request over Streamable HTTP, served by the SDK line that speaks the protocol version
 * it names: a request with the 2026-07-28 envelope (`_meta` naming its revision) goes to the 2.x
 * line, everything else — `initialize`, a 2025-11-25 request, a task method — to the 1.x line, as
 * before. The SDK's own classifier decides (`isLegacyRequest`), so the two never disagree. Both
 * are stateless: any number of clients and serve processes answer alike. A `subscriptions/listen`
 * for task ids (the Tasks extension's `notifications/tasks`) is answered here: the SDK's listen
 * knows only its own four kinds of change. With `sessions`, a 2025-11-25 client that declares
 * form elicitation gets a session (`LegacyMcpSessions`): its forms reach it over HTTP too.
 */
export async function mcpOverHttp(options: McpOverHttpOptions, request: Request): Promise<Response> {
  const { sessions } = options;
  if (sessions?.names(request)) return sessions.handle(options, request);
  const sdk = modernSdk();
  if (sdk === undefined || (await sdk.isLegacyRequest(request)))
    return (await sessions?.open(options, request)) ?? legacyMcpOverHttp(options, request);
  const context = { ...options, client: options.client ?? "mcp" };
  const listen = mayBeListen(request) ? taskListenRequest(await readJson(request)) : undefined;
  if (listen !== undefined)
    return taskNotificationStream(listen, new ModernTasks(sdk, context), options, {
      owner: options.owner ?? context.client,
      signal: request.signal,
    });
  // A strict 2026-07-28 handler: legacy traffic never reaches it (routed above).
  const handler = sdk.createMcpHandler(() => modernMcpServer(sdk, context, options.secret), { legacy: "reject" });
  // Not closed after: a streamed answer (progress, then the result) keeps its exchange open until it ends.
  return handler.fetch(request);
}

/** A POST that may be a `subscriptions/listen`: a 2026-07-28 client names the method in a header, so other bodies are read once. */
const mayBeListen = (request: Request) =>
  request.method === "POST" && (request.headers.get("mcp-method") ?? "subscriptions/listen") === "subscriptions/listen";

const readJson = (request: Request): Promise<unknown> =>
  request
    .clone()
    .json()
    .catch(() => undefined);

const keepAliveMs = 15_000;
/** Task subscriptions open at once in this process, at most (the SDK's own listen keeps as many). */
const maxTaskStreams = 1024;
/** A quarter of them for one token, so one caller cannot take every subscription from the rest. */
const maxTaskStreamsPerOwner = 256;
let openTaskStreams = 0;
const openByOwner = new Map<string, number>();

/** The subscription's answer: an event stream of its notifications, closed when it ends or the client goes. */
function taskNotificationStream(
  listen: ListenRequest,
  tasks: ModernTasks,
  options: McpServerOptions,
  { owner, signal }: { owner: string; signal: AbortSignal },
): Response {
  const refusal = undeclaredListen(listen);
  if (refusal !== undefined) return Response.json(refusal);
  const held = openByOwner.get(owner) ?? 0;
  if (openTaskStreams >= maxTaskStreams || held >= maxTaskStreamsPerOwner)
    return Response.json({ jsonrpc: "2.0", id: listen.id, error: { code: -32603, message: "Subscription limit reached" } });
  openTaskStreams += 1;
  openByOwner.set(owner, held + 1);
  const gone = new AbortController();
  gone.signal.addEventListener(
    "abort",
    () => {
      openTaskStreams -= 1;
      const left = (openByOwner.get(owner) ?? 1) - 1;
      if (left === 0) openByOwner.delete(owner);
      else openByOwner.set(owner, left);
    },
    { once: true },
  );
  signal.addEventListener("abort", () => gone.abort(), { once: true });
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (message: Record<string, unknown>) => {
        if (!gone.signal.aborted) controller.enqueue(encoder.encode(`event: message\ndata: ${JSON.stringify(message)}\n\n`));
      };
      // A comment now and then: a proxy does not take a quiet subscription for a dead one.
      const keepAlive = setInterval(() => !gone.signal.aborted && controller.enqueue(encoder.encode(": keepalive\n\n")), keepAliveMs);
      gone.signal.addEventListener("abort", () => clearInterval(keepAlive), { once: true });
      void serveTaskNotifications(listen, { tasks, changes: options.changes, pollMs: options.pollMs ?? 250, send, signal: gone.signal })
        .catch((error: unknown) => options.log?.(`notifications/tasks: ${String(error)}`))
        .finally(() => {
          if (gone.signal.aborted) return;
          gone.abort();
          controller.close();
        });
    },
    cancel() {
      gone.abort();
    },
  });
  return new Response(body, { headers: { "content-type": "text/event-stream", "cache-control": "no-cache, no-transform" } });
}
