// MCP as real servers behave (issue 29 §5): a server whose connection closes (a result over the
// SDK's 10 MB limit) is started again; a server that never answers initialize is given up on
// within timeoutMs; tools that run only as MCP tasks are left out with a notice by a client without tasks; two names
// that come out alike are an error naming both.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { executePlan } from "planloop";
import { mcpServerTools, mcpTools, type McpClientLike, type McpToolInfo } from "planloop/mcp";
import { testRoot } from "../helpers/paths.js";

const server = { command: process.execPath, args: [join(testRoot, "fixtures", "mcp-test-server.mjs")] };

const listing = (tools: McpToolInfo[]): McpClientLike => ({
  listTools: async () => ({ tools }),
  callTool: async () => ({ content: [{ type: "text", text: "ok" }] }),
});
const schema = { type: "object", properties: {} };

describe("MCP servers as they behave", () => {
  it("a result over the SDK's limit fails its step, once, and the next call finds the server started again", async () => {
    const notices: string[] = [];
    const started = await mcpServerTools(server, { onNotice: (line) => notices.push(line), timeoutMs: 20_000 });
    try {
      const huge = await executePlan({ plan: { steps: [{ id: 1, task: "h", tool: "huge", args: {} }] }, tools: started.tools });
      expect(huge.status).toBe("failed");
      expect(huge.steps[1]).toMatchObject({ attempts: 1, error: expect.stringContaining("connection closed during the call") });
      const echo = await executePlan({ plan: { steps: [{ id: 1, task: "e", tool: "echo", args: { text: "hi" } }] }, tools: started.tools });
      expect(echo).toMatchObject({ status: "completed", output: "echo: hi" });
      expect(notices).toEqual([expect.stringMatching(/had closed; restarted it \(1 of 3\)/)]);
    } finally {
      await started.close();
    }
  });

  it("gives up on a server that never answers initialize within timeoutMs", async () => {
    const started = Date.now();
    await expect(
      mcpServerTools({ ...server, env: { ...(process.env as Record<string, string>), MCP_TEST_SILENT: "1" } }, { timeoutMs: 500 }),
    ).rejects.toThrow(/did not start: .*timed out/i);
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it("leaves out a tool that runs only as a task where the client has no tasks, saying so; offers the others", async () => {
    const notices: string[] = [];
    const tools = await mcpTools(
      listing([
        { name: "research", inputSchema: schema, execution: { taskSupport: "required" } },
        { name: "echo", inputSchema: schema, execution: { taskSupport: "optional" } },
      ]),
      { onNotice: (line) => notices.push(line) },
    );
    expect(tools.map((tool) => tool.name)).toEqual(["echo"]);
    expect(notices).toEqual([expect.stringContaining('left out "research": it runs only as an MCP task')]);
  });

  it("refuses two tools whose names come out alike, naming both", async () => {
    await expect(
      mcpTools(
        listing([
          { name: "a.b", inputSchema: schema },
          { name: "a_b", inputSchema: schema },
        ]),
      ),
    ).rejects.toThrow('the MCP tools "a.b" and "a_b" would both be called "a_b"');
  });

  it("a schema with a $ref cycle is left to the server: the run goes on, no exception out of it", async () => {
    const cyclic = {
      type: "object",
      properties: { x: { $ref: "#/$defs/a" } },
      $defs: { a: { $ref: "#/$defs/b" }, b: { $ref: "#/$defs/a" } },
    };
    const tools = await mcpTools(listing([{ name: "cyclic", inputSchema: cyclic }]));
    const result = await executePlan({ plan: { steps: [{ id: 1, task: "c", tool: "cyclic", args: { x: 1 } }] }, tools });
    expect(result).toMatchObject({ status: "completed", output: "ok" });
  });
});
