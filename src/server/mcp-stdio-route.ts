import type * as McpServerV2 from "@modelcontextprotocol/server";
import type * as ServerStdioV2 from "@modelcontextprotocol/server/stdio";
import type * as McpStdio from "@modelcontextprotocol/sdk/server/stdio.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { loadOptionalPackage } from "../core/optional-package.js";
import { modernMcpServer, modernSdk } from "./mcp-modern-server.js";
import { TaskSubscriptions } from "./mcp-task-notifications.js";
import { ModernTasks } from "./mcp-tasks-extension.js";
import { planloopMcpServer, type McpServerOptions } from "./mcp-server.js";

type Message = JSONRPCMessage;

/**
 * A transport over stdio that holds what arrives until a server is connected to it: the first
 * message decides which SDK line gets the connection, and that line then reads it from the start.
 */
class HeldTransport {
  onmessage?: (message: Message) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  /** Answers a message ahead of the server (a listen for task ids); true when it did. */
  intercept?: (message: Message) => boolean;
  private readonly held: Message[] = [];
  private started = false;

  constructor(private readonly under: McpStdio.StdioServerTransport) {}

  hold(message: Message): void {
    if (this.intercept?.(message) === true) return;
    if (this.started) this.onmessage?.(message);
    else this.held.push(message);
  }

  async start(): Promise<void> {
    this.started = true;
    // After the server's own start: it set onmessage before calling this.
    queueMicrotask(() => {
      for (const message of this.held.splice(0)) this.onmessage?.(message);
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.under.send(message);
  }

  close(): Promise<void> {
    return this.under.close();
  }
}

/** Whether a connection's first message speaks 2026-07-28: a request with the per-request envelope, not `initialize`. */
function opensModern(message: Message): boolean {
  const request = message as { method?: unknown; params?: { _meta?: Record<string, unknown> } };
  return (
    typeof request.method === "string" &&
    request.method !== "initialize" &&
    request.params?._meta?.["io.modelcontextprotocol/protocolVersion"] !== undefined
  );
}

/**
 * `planloop mcp` over stdio, one connection, served by the SDK line its first message speaks: a
 * 2026-07-28 opening (`server/discover`, or any request with the envelope) by the 2.x line — the
 * same tools, `inputRequired`, the Tasks extension with its `notifications/tasks` — and an `initialize` (every 2025-era client)
 * by the 1.x line with its tasks and elicitations, exactly as before. Resolves when the
 * connection closes.
 */
export async function serveMcpOverStdio(options: McpServerOptions): Promise<void> {
  const { StdioServerTransport } = loadOptionalPackage<typeof McpStdio>({
    name: "@modelcontextprotocol/sdk",
    module: "@modelcontextprotocol/sdk/server/stdio.js",
    neededFor: "planloop mcp",
  });
  const under = new StdioServerTransport();
  const held = new HeldTransport(under);
  const closed = new Promise<void>((done) => {
    under.onclose = () => {
      held.onclose?.();
      done();
    };
  });
  under.onerror = (error) => held.onerror?.(error);
  let chosen = false;
  under.onmessage = (message: Message) => {
    if (!chosen) {
      chosen = true;
      void connectLine(opensModern(message), held, options, closed).catch((error: unknown) => options.log?.(String(error)));
    }
    held.hold(message);
  };
  await under.start();
  process.stdin.once("end", () => void under.close());
  await closed;
}

async function connectLine(modern: boolean, transport: HeldTransport, options: McpServerOptions, closed: Promise<void>): Promise<void> {
  const sdk = modern ? modernSdk() : undefined;
  if (sdk === undefined) {
    await planloopMcpServer({ ...options, interactive: true }).connect(transport as never);
    return;
  }
  const { serveStdio } = loadOptionalPackage<typeof ServerStdioV2>({
    name: "@modelcontextprotocol/server",
    module: "@modelcontextprotocol/server/stdio",
    neededFor: "planloop mcp (2026-07-28)",
  });
  const context = { ...options, client: options.client ?? "mcp" };
  const subscriptions = new TaskSubscriptions({
    tasks: new ModernTasks(sdk as typeof McpServerV2, context),
    changes: options.changes,
    pollMs: options.pollMs ?? 250,
    send: (message) => transport.send(message as Message),
  });
  transport.intercept = (message) => subscriptions.intercept(message);
  void closed.then(() => subscriptions.close());
  serveStdio(() => modernMcpServer(sdk as typeof McpServerV2, context, options.secret), {
    legacy: "reject",
    transport: transport as never,
    onerror: (error) => options.log?.(error.message),
  });
}
