import { z } from "zod";
import { InvalidOptionsError } from "../core/errors.js";
import { isRecord } from "../core/is-record.js";
import { defineTool, type Tool, type ToolOptions } from "../core/tools/define-tool.js";
import { callAsTask, type McpTaskClient } from "./mcp-task-call.js";

/** A tool as an MCP server lists it (`tools/list`). */
export interface McpToolInfo {
  name: string;
  title?: string | undefined;
  description?: string | undefined;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown> | undefined;
  annotations?:
    | {
        readOnlyHint?: boolean | undefined;
        destructiveHint?: boolean | undefined;
        idempotentHint?: boolean | undefined;
        openWorldHint?: boolean | undefined;
        title?: string | undefined;
      }
    | undefined;
  /** `taskSupport: "required"`: the tool runs only as an MCP task, never by a plain call. */
  execution?: { taskSupport?: string | undefined } | undefined;
}

/**
 * What `mcpTools` needs of a client: the `Client` of `@modelcontextprotocol/sdk` has it (and
 * so does anything that speaks the same two requests).
 */
export interface McpClientLike {
  listTools(
    params?: { cursor?: string },
    options?: { signal?: AbortSignal },
  ): Promise<{ tools: McpToolInfo[]; nextCursor?: string | undefined }>;
  callTool(
    params: { name: string; arguments?: Record<string, unknown> },
    resultSchema?: undefined,
    options?: { signal?: AbortSignal; timeout?: number },
  ): Promise<Record<string, unknown>>;
  /** Where the client has MCP tasks (the SDK's `Client`, 1.23 and later): tools that run only as a task are called as one. */
  experimental?: { tasks?: McpTaskClient } | undefined;
}

export interface McpToolsOptions {
  /** Put before each tool's name (e.g. "fs_"), so two servers' tools do not clash. */
  prefix?: string;
  /** Only these tools (by the server's names), or those the function keeps. */
  include?: readonly string[] | ((tool: McpToolInfo) => boolean);
  /** Per call; default 60 s (the SDK's own default). */
  timeoutMs?: number;
  /** Calls allowed per run, per tool. */
  maxCalls?: number;
  /** Tools (by the server's names) whose calls wait for a human, or a function deciding by the tool. Default none. */
  needsApproval?: readonly string[] | ((tool: McpToolInfo) => boolean);
  /** Plan steps calling one tool that may run at once. */
  concurrency?: number;
  /** Listing the tools: abort it, or give up after `timeoutMs`. */
  signal?: AbortSignal;
  /** Told in one line of each tool left out and why; default a line on stderr. */
  onNotice?: (line: string) => void;
}

/**
 * A Model Context Protocol server's tools as planloop tools: each keeps its JSON Schema (the
 * model sees it; arguments are checked with it where planloop can read it, else by the
 * server), and gets planloop's guard: timeouts, call limits, approvals. A call the server
 * answers with `isError` is an error the model reads, never an exception that ends the run;
 * a result with `structuredContent` gives that as the output, else the text of its content.
 * Tools the server marks read-only or idempotent may be retried without a new approval. A tool
 * that runs only as an MCP task (`taskSupport: "required"`) is called as one where the client
 * has tasks: the task created, followed to its end, its result returned; cancelled on abort.
 *
 * @example
 * const client = new Client({ name: "my-app", version: "1.0.0" });
 * await client.connect(new StdioClientTransport({ command: "npx", args: ["@modelcontextprotocol/server-filesystem", dir] }));
 * const tools = await mcpTools(client, { prefix: "fs_", needsApproval: ["write_file"] });
 */
export async function mcpTools(client: McpClientLike, options: McpToolsOptions = {}): Promise<Tool[]> {
  if (typeof client?.listTools !== "function" || typeof client.callTool !== "function")
    throw new InvalidOptionsError("mcpTools needs a connected MCP client (Client from @modelcontextprotocol/sdk)");
  const listed: McpToolInfo[] = [];
  let cursor: string | undefined;
  const requestOptions = {
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs }),
  };
  do {
    const page = await client.listTools(cursor === undefined ? undefined : { cursor }, requestOptions);
    listed.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  const include = options.include;
  const notice = options.onNotice ?? ((line: string) => process.stderr.write(`${line}\n`));
  const kept = listed.filter((tool) => {
    if (include !== undefined && !(typeof include === "function" ? include(tool) : include.includes(tool.name))) return false;
    if (tool.execution?.taskSupport !== "required" || client.experimental?.tasks !== undefined) return true;
    // A plain call of such a tool always fails: offering it would only waste the model's calls.
    notice(
      `planloop/mcp: left out "${tool.name}": it runs only as an MCP task (execution.taskSupport "required"), and this client has no tasks (the SDK's Client has them from 1.23)`,
    );
    return false;
  });
  return uniquelyNamed(kept, options.prefix ?? "").map(([name, tool]) => toPlanloopTool(client, tool, { ...options, name }));
}

/** Each tool's planloop name (letters, digits, _ and -, at most 64); two that come out alike are an error naming both. */
function uniquelyNamed(tools: readonly McpToolInfo[], prefix: string): Array<[string, McpToolInfo]> {
  const taken = new Map<string, string>();
  return tools.map((tool) => {
    const name = `${prefix}${tool.name}`.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 64);
    const other = taken.get(name);
    if (other !== undefined)
      throw new InvalidOptionsError(
        `the MCP tools "${other}" and "${tool.name}" would both be called "${name}" (tool names keep letters, digits, _ and -): leave one out with include`,
      );
    taken.set(name, tool.name);
    return [name, tool];
  });
}

/** A `$schema` that changes what the schema means (drafts 4 to 7: keywords beside `$ref` are ignored). */
const olderDraft = /json-schema\.org\/draft-0[467]\/schema/;

function toPlanloopTool(client: McpClientLike, info: McpToolInfo, options: McpToolsOptions & { name: string }): Tool {
  const { name } = options;
  const approval = options.needsApproval;
  const readOnly = info.annotations?.readOnlyHint === true;
  const { $schema: draft, ...schema } = info.inputSchema;
  const inputSchema = { ...schema, type: "object" as const };
  const spec = {
    name,
    description: info.description ?? info.title ?? info.annotations?.title ?? info.name,
    inputSchema,
    execute: async (args, { signal }) => {
      const params = { name: info.name, arguments: args };
      const each = { signal, ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs }) };
      const tasks = client.experimental?.tasks;
      // A tool that runs only as a task: its task created, followed, its result read (cancelled when the call is).
      const result =
        info.execution?.taskSupport === "required" && tasks !== undefined
          ? await callAsTask(tasks, params, { signal, timeout: options.timeoutMs })
          : await client.callTool(params, undefined, each);
      if (result.isError === true)
        throw Object.assign(new Error(contentText(result.content) || "the MCP tool reported an error"), { retryable: false });
      return result.structuredContent ?? outputOf(result.content);
    },
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.maxCalls === undefined ? {} : { maxCalls: options.maxCalls }),
    ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
    ...(approval === undefined ? {} : { needsApproval: typeof approval === "function" ? approval(info) : approval.includes(info.name) }),
    idempotent: readOnly || info.annotations?.idempotentHint === true,
    // A read-only tool changes nothing; one the server calls destructive and not idempotent is
    // not run again after a crash without asking.
    effect: readOnly
      ? "pure"
      : info.annotations?.idempotentHint === true
        ? "idempotent"
        : info.annotations?.destructiveHint === true
          ? "side-effecting"
          : undefined,
  } satisfies Omit<ToolOptions<Record<string, unknown>, unknown>, "input">;
  // Arguments are checked with the tool's own JSON Schema (nothing added), in the draft its
  // `$schema` names (the model's copy leaves that out); one planloop cannot check (a keyword zod
  // does not know, a $ref cycle) is left to the server, which checks it anyway.
  try {
    return defineTool<Record<string, unknown>, unknown>({
      ...spec,
      input: olderDraft.test(String(draft)) ? { ...inputSchema, $schema: draft } : inputSchema,
    });
  } catch (error) {
    if (!(error instanceof InvalidOptionsError)) throw error;
    return defineTool<Record<string, unknown>, unknown>({ ...spec, input: z.record(z.string(), z.unknown()) });
  }
}

/** A result's content as the model reads it: its text when every part is text, else the parts. */
function outputOf(content: unknown): unknown {
  if (!Array.isArray(content)) return content ?? null;
  if (content.every((part) => isRecord(part) && part.type === "text")) return contentText(content);
  return content;
}

function contentText(content: unknown): string {
  if (!Array.isArray(content)) return "";
  return content
    .map((part) => (isRecord(part) && typeof part.text === "string" ? part.text : ""))
    .filter(Boolean)
    .join("\n");
}
