import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";

/** JSON-RPC's codes for the two refusals below. */
const methodNotFound = -32601;
const invalidParams = -32602;

/** A protocol error the SDK answers with its code (it reads `code` off what a handler throws). */
class ProtocolRefusal extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

type Handler = (request: { params?: Record<string, unknown> }, extra: unknown) => Promise<unknown>;

/**
 * What the SDK's `McpServer` (1.x) lets through and the spec refuses, checked before its own
 * handlers run: a `tools/list` cursor this server never gave (it lists every tool on one page),
 * and a call asked for as a task to a tool that does not run as one (`-32601`, the tasks spec's
 * answer, where the SDK would run it and fail to read its answer as a task's). Call once every
 * tool is registered: the SDK installs its handlers with the first one.
 */
export function checkRequests(server: McpServer, runsAsTask: (toolName: string) => boolean): void {
  before(server, "tools/list", (params) => {
    if (params?.cursor !== undefined)
      throw new ProtocolRefusal(
        invalidParams,
        `tools/list: cursor ${JSON.stringify(params.cursor)} is not one this server gave (it lists every tool at once)`,
      );
  });
  before(server, "tools/call", (params) => {
    const name = params?.name;
    if (params?.task !== undefined && typeof name === "string" && !runsAsTask(name))
      throw new ProtocolRefusal(methodNotFound, `tool ${JSON.stringify(name)} does not run as a task: call it without "task"`);
  });
}

/** Puts `check` in front of the handler the SDK registered for `method`. */
function before(server: McpServer, method: string, check: (params: Record<string, unknown> | undefined) => void): void {
  // The SDK keeps its handlers in a private map; reached here in one place, and a test fails if it moves.
  const handlers = (server.server as unknown as { _requestHandlers: Map<string, Handler> })._requestHandlers;
  const handler = handlers.get(method);
  if (handler === undefined) throw new Error(`the MCP SDK has no ${method} handler to check requests for`);
  handlers.set(method, async (request, extra) => {
    check(request.params);
    return handler(request, extra);
  });
}
