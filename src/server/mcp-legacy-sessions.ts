import { randomUUID } from "node:crypto";
import type * as McpHttp from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { loadOptionalPackage } from "../core/optional-package.js";
import { planloopMcpServer, type McpServerOptions } from "./mcp-server.js";

export interface LegacyMcpSessionsOptions {
  /** A session nobody has a request open on for this long is closed (ms). Default 10 minutes. */
  idleMs?: number | undefined;
  /** Sessions kept at once; a client beyond them is served statelessly, without forms. Default 256. */
  maxSessions?: number | undefined;
  /** Sessions one token holds at once, so one caller cannot take every slot; beyond them it is served statelessly. Default 32. */
  maxSessionsPerToken?: number | undefined;
}

interface Session {
  transport: McpHttp.WebStandardStreamableHTTPServerTransport;
  /** The token that opened it (its hash over HTTP): no other may use it, not even one given its name later. */
  owner: string;
  /** Requests whose answer is still being sent (a held `tasks/result`, the client's event stream). */
  open: number;
  idle: ReturnType<typeof setTimeout> | undefined;
  close(): Promise<void>;
}

/**
 * Sessions of `/mcp` for 2025-11-25 clients that declare form elicitation (`planloop serve
 * --mcp-sessions`): such a client's `initialize` gets an `Mcp-Session-Id` and a server of its own
 * in this process, interactive as over stdio — a task that waits for a person asks through an
 * elicitation on the client's `tasks/result`, and the client's answer (a POST naming the session)
 * reaches the server that asked. Every other client is served statelessly, as before. A session
 * lives in one process: behind several, route by the `Mcp-Session-Id` header.
 */
export class LegacyMcpSessions {
  private readonly sessions = new Map<string, Session>();
  private readonly idleMs: number;
  private readonly maxSessions: number;
  private readonly maxSessionsPerToken: number;

  constructor(options: LegacyMcpSessionsOptions = {}) {
    this.idleMs = options.idleMs ?? 600_000;
    this.maxSessions = options.maxSessions ?? 256;
    this.maxSessionsPerToken = options.maxSessionsPerToken ?? 32;
  }

  /** Whether the request names a session: `handle` answers it, found or not. */
  names(request: Request): boolean {
    return request.headers.has("mcp-session-id");
  }

  /** A request naming a session: served by that session's server; 404 (the spec's answer) for one this process does not have, or another token's. */
  async handle(options: SessionOptions, request: Request): Promise<Response> {
    const session = this.sessions.get(request.headers.get("mcp-session-id") ?? "");
    if (session === undefined || session.owner !== ownerOf(options))
      return Response.json({ jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null }, { status: 404 });
    return this.served(session, request);
  }

  /** A new session for an `initialize` that declares form elicitation; undefined for any other request, or when full. */
  async open(options: SessionOptions, request: Request): Promise<Response | undefined> {
    if (request.method !== "POST" || this.sessions.size >= this.maxSessions) return undefined;
    const owner = ownerOf(options);
    if (this.heldBy(owner) >= this.maxSessionsPerToken) return undefined;
    if (
      !asksForForms(
        await request
          .clone()
          .json()
          .catch(() => undefined),
      )
    )
      return undefined;
    const { WebStandardStreamableHTTPServerTransport } = loadOptionalPackage<typeof McpHttp>({
      name: "@modelcontextprotocol/sdk",
      module: "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js",
      neededFor: "the run server's /mcp",
    });
    const server = planloopMcpServer({ ...options, interactive: true });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void this.sessions.set(id, session),
      // The client ended it (DELETE).
      onsessionclosed: (id) => void this.forget(id),
    });
    const session: Session = { transport, owner, open: 0, idle: undefined, close: () => server.close() };
    await server.connect(transport);
    return this.served(session, request);
  }

  /** Closes every session (the server stops). */
  async close(): Promise<void> {
    await Promise.all([...this.sessions.keys()].map((id) => this.forget(id)));
  }

  get size(): number {
    return this.sessions.size;
  }

  private heldBy(owner: string): number {
    let held = 0;
    for (const session of this.sessions.values()) if (session.owner === owner) held += 1;
    return held;
  }

  private async served(session: Session, request: Request): Promise<Response> {
    session.open += 1;
    clearTimeout(session.idle);
    let response: Response;
    try {
      response = await session.transport.handleRequest(request);
    } catch (error) {
      this.ended(session);
      throw error;
    }
    if (response.body === null) {
      this.ended(session);
      return response;
    }
    return new Response(
      onEnd(response.body, () => this.ended(session)),
      { status: response.status, headers: response.headers },
    );
  }

  private ended(session: Session): void {
    session.open -= 1;
    if (session.open > 0) return;
    const id = session.transport.sessionId;
    if (id === undefined) return void session.close();
    session.idle = setTimeout(() => void this.forget(id), this.idleMs);
    session.idle.unref?.();
  }

  private async forget(id: string): Promise<void> {
    const session = this.sessions.get(id);
    if (session === undefined) return;
    this.sessions.delete(id);
    clearTimeout(session.idle);
    await session.close().catch(() => {});
  }
}

/** The server's options, and whose the session is (the token's hash; by default the client's name). */
type SessionOptions = McpServerOptions & { owner?: string | undefined };

const ownerOf = (options: SessionOptions) => options.owner ?? options.client ?? "mcp";

/** Whether a message is an `initialize` whose client takes form elicitations (`elicitation: {}` means forms too). */
function asksForForms(message: unknown): boolean {
  const request = message as { method?: unknown; params?: { capabilities?: { elicitation?: { form?: unknown; url?: unknown } } } } | null;
  const elicitation = request?.method === "initialize" ? request.params?.capabilities?.elicitation : undefined;
  if (elicitation === undefined || elicitation === null || typeof elicitation !== "object") return false;
  return elicitation.form !== undefined || elicitation.url === undefined;
}

/** The same stream, telling `done` once when it ends, fails or its reader goes. */
function onEnd(body: ReadableStream<Uint8Array>, done: () => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    done();
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done: finished, value } = await reader.read();
        if (finished) {
          end();
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        end();
        controller.error(error);
      }
    },
    async cancel(reason) {
      end();
      await reader.cancel(reason);
    },
  });
}
