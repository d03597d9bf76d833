import { legacyMcpOverHttp, type McpServerOptions } from "./mcp-server.js";
import { modernMcpServer, modernSdk } from "./mcp-modern-server.js";

/**
 * One MCP request over Streamable HTTP, served by the SDK line that speaks the protocol version
 * it names: a request with the 2026-07-28 envelope (`_meta` naming its revision) goes to the 2.x
 * line, everything else — `initialize`, a 2025-11-25 request, a task method — to the 1.x line, as
 * before. The SDK's own classifier decides (`isLegacyRequest`), so the two never disagree. Both
 * are stateless: any number of clients and serve processes answer alike.
 */
export async function mcpOverHttp(options: McpServerOptions, request: Request): Promise<Response> {
  const sdk = modernSdk();
  if (sdk === undefined || (await sdk.isLegacyRequest(request))) return legacyMcpOverHttp(options, request);
  const context = { ...options, client: options.client ?? "mcp" };
  // A strict 2026-07-28 handler: legacy traffic never reaches it (routed above).
  const handler = sdk.createMcpHandler(() => modernMcpServer(sdk, context, options.secret), { legacy: "reject" });
  // Not closed after: a streamed answer (progress, then the result) keeps its exchange open until it ends.
  return handler.fetch(request);
}
