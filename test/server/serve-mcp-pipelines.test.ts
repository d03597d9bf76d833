// `planloop serve --port` offers on /mcp the pipelines of its tools module, as `planloop mcp` does
// (issue 56: docs/mcp.md said so, and /mcp listed none). Driven by the MCP SDK's client.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { startCli, type CliProcess } from "../helpers/cli-process.js";
import { lines, logFile } from "../helpers/call-log.js";
import { testRoot } from "../helpers/paths.js";

let serve: CliProcess | undefined;
let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  await serve?.stop("SIGKILL");
  client = serve = undefined;
});

describe("planloop serve's /mcp", () => {
  it("lists the tools module's pipelines beside the run tools, and runs one", async () => {
    const store = `sqlite:${join(mkdtempSync(join(tmpdir(), "planloop-serve-mcp-")), "runs.sqlite")}`;
    const log = logFile();
    serve = startCli(["serve", "--tools", join(testRoot, "fixtures", "ui-tools.ts"), "--store", store, "--port", "0"], {
      PLANLOOP_TEST_LOG: log,
    });
    const url = /the API is on (http:\/\/\S+) /.exec(await serve.line(/the API is on /, 60_000))![1]!;
    const token = /session token .*: (\S+)$/.exec(await serve.line(/session token/, 60_000))![1]!;
    client = new Client({ name: "planloop-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
    );
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(["run_plan", "decide", "double_it"]));
    const answer = await client.callTool({ name: "double_it", arguments: { value: 21 } });
    expect(answer).toMatchObject({ structuredContent: { status: "completed", output: 42 } });
    expect(lines(log)).toEqual([expect.stringMatching(/^double 21 /)]);
  });
});
