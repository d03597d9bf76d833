// planloop mcp driven by a client nobody here wrote: the MCP Inspector's command-line mode
// (@modelcontextprotocol/inspector-cli), which starts `planloop mcp` over stdio for each call.
import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../helpers/paths.js";
import { mcpServerArgs } from "../helpers/mcp-command.js";

const run = promisify(execFile);
// The inspector finds its own package.json relative to the folder it runs in: its build folder.
const inspectorFolder = join(repoRoot, "node_modules", "@modelcontextprotocol", "inspector-cli", "build");

async function inspect(store: string, log: string, method: string[]): Promise<Record<string, unknown>> {
  // The server's command first, the inspector's options next, the server's arguments after "--".
  const server = mcpServerArgs(store);
  const { stdout } = await run(process.execPath, ["index.js", process.execPath, ...method, "--", ...server], {
    cwd: inspectorFolder,
    env: { ...process.env, PLANLOOP_TEST_LOG: log },
    timeout: 60_000,
  });
  return JSON.parse(stdout) as Record<string, unknown>;
}

describe("planloop mcp under the MCP Inspector's command line", () => {
  it("lists the tools, runs a plan to its end, and reads the run back from a new process", async () => {
    const dir = mkdtempSync(join(tmpdir(), "planloop-inspector-"));
    const store = `sqlite:${join(dir, "runs.sqlite")}`;
    const log = join(dir, "calls.log");
    writeFileSync(log, "");
    const listed = (await inspect(store, log, ["--method", "tools/list"])) as { tools: Array<{ name: string }> };
    expect(listed.tools.map((tool) => tool.name)).toContain("run_plan");
    const plan = { steps: [{ id: 1, task: "double", tool: "double", args: { value: 21 } }] };
    const ran = (await inspect(store, log, [
      "--method",
      "tools/call",
      "--tool-name",
      "run_plan",
      "--tool-arg",
      `plan=${JSON.stringify(plan)}`,
      "runId=inspected",
    ])) as {
      structuredContent: { status: string; output: unknown };
    };
    expect(ran.structuredContent).toMatchObject({ status: "completed", output: 42 });
    const read = (await inspect(store, log, ["--method", "tools/call", "--tool-name", "get_run", "--tool-arg", "runId=inspected"])) as {
      structuredContent: { status: string };
    };
    expect(read.structuredContent.status).toBe("completed");
  });
});
