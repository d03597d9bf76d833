// A real MCP server from the npm registry (@modelcontextprotocol/server-filesystem), started
// over stdio by the test on a temporary directory: its tools as planloop tools, in a plan
// whose steps run in parallel, with approvals, structured content, and errors as observations.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { executePlan, runAgent } from "planloop";
import { mcpServerTools, mcpTools, type McpServerTools } from "planloop/mcp";
import { ScriptedModel } from "planloop/testing";

const server = createRequire(import.meta.url).resolve("@modelcontextprotocol/server-filesystem/dist/index.js");
const dir = mkdtempSync(join(tmpdir(), "planloop-mcp-"));
let fs: McpServerTools;

beforeAll(async () => {
  mkdirSync(join(dir, "notes"));
  for (const day of ["mon", "tue", "wed"]) writeFileSync(join(dir, "notes", `${day}.txt`), `sales on ${day}: ${day.length * 100}`);
  fs = await mcpServerTools(
    { command: process.execPath, args: [server, dir] },
    {
      prefix: "fs_",
      include: (tool) => ["read_text_file", "write_file", "list_directory"].includes(tool.name),
      needsApproval: ["write_file"],
      timeoutMs: 10_000,
    },
  );
});

afterAll(async () => {
  await fs?.close();
});

describe("MCP tools from a real server over stdio", () => {
  it("lists the server's tools with their JSON Schema, prefixed", () => {
    expect(fs.tools.map((tool) => tool.name).sort()).toEqual(["fs_list_directory", "fs_read_text_file", "fs_write_file"]);
    const read = fs.tools.find((tool) => tool.name === "fs_read_text_file")!;
    expect(read.inputSchema).toMatchObject({ type: "object", properties: { path: { type: "string" } }, required: ["path"] });
    expect(read.inputSchema).not.toHaveProperty("$schema");
    expect(read.idempotent).toBe(true); // the server marks it read-only
  });

  it("runs a plan whose reads run in parallel, then waits for approval before writing, and writes once approved", async () => {
    const reads = ["mon", "tue", "wed"].map((day, index) => ({
      id: index + 1,
      task: `read ${day}`,
      tool: "fs_read_text_file",
      args: { path: join(dir, "notes", `${day}.txt`) },
    }));
    const plan = {
      steps: [
        ...reads,
        {
          id: 4,
          task: "write the summary",
          tool: "fs_write_file",
          args: { path: join(dir, "summary.txt"), content: "$1.content / $2.content / $3.content" },
          depends_on: [1, 2, 3],
        },
      ],
    };
    const events: Array<{ type: string; stepId?: unknown }> = [];
    const paused = await executePlan({ plan, tools: fs.tools, concurrency: 4, onEvent: (event) => events.push(event) });
    expect(paused.status).toBe("waiting");
    // Structured content is the output: { content } as the tool's outputSchema says.
    expect(paused.steps["1"]).toMatchObject({ status: "succeeded", output: { content: "sales on mon: 300" } });
    const order = events
      .filter((event) => event.type === "step-start" || event.type === "step-end")
      .map((event) => `${event.type}:${String(event.stepId)}`);
    expect(order.slice(0, 3).sort()).toEqual(["step-start:1", "step-start:2", "step-start:3"]);
    expect(paused.pending).toEqual([expect.objectContaining({ id: "step:4", name: "fs_write_file" })]);

    const done = await executePlan({ plan, tools: fs.tools, resume: paused.state!, approvals: { "step:4": { approved: true } } });
    expect(done.status).toBe("completed");
    expect(readFileSync(join(dir, "summary.txt"), "utf8")).toBe("sales on mon: 300 / sales on tue: 300 / sales on wed: 300");
  });

  it("an error from the server is an observation the model reads, and bad arguments never reach the server", async () => {
    const model = new ScriptedModel([
      { type: "tool_calls", calls: [{ id: "1", name: "fs_read_text_file", arguments: { path: "/etc/passwd" } }] },
      { type: "tool_calls", calls: [{ id: "2", name: "fs_read_text_file", arguments: { file: "x" } }] },
      { type: "final", content: "could not read it" },
    ]);
    const result = await runAgent({ model, tools: fs.tools, task: "read /etc/passwd" });
    expect(result.status).toBe("completed");
    const [outside, malformed] = result.messages.filter((message) => message.role === "tool");
    expect(outside).toMatchObject({
      error: { kind: "execution_failed", message: expect.stringMatching(/outside allowed directories|Access denied/i) },
    });
    expect(malformed).toMatchObject({ error: { kind: "invalid_arguments", message: expect.stringContaining("path") } });
  });

  it("mcpTools takes any connected client, and refuses something that is not one", async () => {
    const again = await mcpTools(fs.client, { include: ["list_directory"] });
    expect(again.map((tool) => tool.name)).toEqual(["list_directory"]);
    const listed = await executePlan({
      plan: { steps: [{ id: 1, task: "list", tool: "list_directory", args: { path: join(dir, "notes") } }] },
      tools: again,
    });
    expect(JSON.stringify(listed.output)).toContain("mon.txt");
    await expect(mcpTools({} as never)).rejects.toThrow("mcpTools needs a connected MCP client");
  });
});
