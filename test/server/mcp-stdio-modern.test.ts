// planloop mcp over stdio answers each connection in the protocol version its first message
// speaks: the SDK's 2.x client pinned to 2026-07-28 gets the 2.x line (the same tools, a form
// through inputRequired), while 1.x clients keep the 1.x line (test/server/mcp-stdio.test.ts).
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterEach, describe, expect, it } from "vitest";
import { mcpServerArgs } from "../helpers/mcp-command.js";
import { repoRoot } from "../helpers/paths.js";

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

describe("planloop mcp over stdio, 2026-07-28", () => {
  it("negotiates 2026-07-28 with the 2.x client, lists and runs the same tools, and asks for an approval through inputRequired", async () => {
    const dir = mkdtempSync(join(tmpdir(), "planloop-mcp-modern-"));
    const log = join(dir, "calls.log");
    writeFileSync(log, "");
    const client = new Client(
      { name: "modern-stdio", version: "1.0.0" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } }, capabilities: { elicitation: { form: {} } } },
    );
    const forms: unknown[] = [];
    client.setRequestHandler("elicitation/create", async (request) => {
      forms.push(request.params);
      const [id] = Object.keys((request.params as { requestedSchema: { properties: Record<string, unknown> } }).requestedSchema.properties);
      return { action: "accept", content: { [id!]: true } };
    });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: mcpServerArgs(`sqlite:${join(dir, "runs.sqlite")}`),
        cwd: repoRoot,
        env: { ...(process.env as Record<string, string>), PLANLOOP_TEST_LOG: log },
        stderr: "pipe",
      }),
    );
    clients.push(client);
    expect(client.getProtocolEra()).toBe("modern");
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(["ask", "cancel_run", "decide", "double_it", "get_run", "list_runs", "run_plan"]);
    expect((await client.callTool({ name: "double_it", arguments: { value: 5 } })).structuredContent).toMatchObject({
      status: "completed",
      output: 10,
    });
    const plan = { steps: [{ id: 1, task: "pay", tool: "pay", args: { amount: 41 } }] };
    const done = await client.callTool({ name: "run_plan", arguments: { plan, runId: "stdio-modern" } });
    expect(done.structuredContent).toMatchObject({ runId: "stdio-modern", status: "completed" });
    expect(forms).toHaveLength(1);
    expect(readFileSync(log, "utf8").match(/^paid 41 /gm)).toHaveLength(1);
  });
});
