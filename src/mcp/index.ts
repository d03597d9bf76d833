// planloop/mcp: a Model Context Protocol server's tools as planloop tools (needs the optional
// peer @modelcontextprotocol/sdk to start a server; mcpTools takes any connected client).
export { mcpTools } from "./mcp-tools.js";
export type { McpClientLike, McpToolInfo, McpToolsOptions } from "./mcp-tools.js";
export type { McpTaskClient, McpTaskInfo } from "./mcp-task-call.js";
export { mcpServerTools } from "./mcp-stdio.js";
export type { McpServerTools } from "./mcp-stdio.js";
