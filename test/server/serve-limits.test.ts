// planloop serve's limits from its own flags (issue 58): `--base-url … --model … --requests-per-minute 60`
// gives the API's runs a model behind a provider limit, without a model module; a model module
// with limit flags is refused (it declares its own).
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { planloopClient } from "planloop/client";
import { startCli, type CliProcess } from "../helpers/cli-process.js";
import { completion, startChatServer, type ChatServer } from "../helpers/chat-server.js";
import { testRoot } from "../helpers/paths.js";

const toolsModule = join(testRoot, "fixtures", "plan-tools.ts");
const started: CliProcess[] = [];
const servers: ChatServer[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((process) => process.stop("SIGKILL")));
  for (const server of servers.splice(0)) await server.close();
});

describe("planloop serve with limit flags", () => {
  it("runs the API's runs on a model with the limit its flags declare: two steps' calls a second apart", async () => {
    const chat = await startChatServer([completion({ content: "one" }), completion({ content: "two" })]);
    servers.push(chat);
    const store = `sqlite:${join(mkdtempSync(join(tmpdir(), "planloop-serve-limits-")), "runs.sqlite")}`;
    const serve = startCli([
      "serve",
      "--tools",
      toolsModule,
      "--store",
      store,
      "--port",
      "0",
      "--base-url",
      chat.baseURL,
      "--model",
      "m",
      "--requests-per-minute",
      "60",
    ]);
    started.push(serve);
    const url = /the API is on (http:\/\/\S+) /.exec(await serve.line(/the API is on /))![1]!;
    const token = /session token .*: (\S+)$/.exec(await serve.line(/session token/))![1]!;
    const client = planloopClient({ url, token });
    const plan = { steps: [1, 2].map((id) => ({ id, task: `summarize part ${id}` })) };
    const { runId } = await client.start({ plan, runId: "limited" });
    let last: { type: string; status?: string } | undefined;
    for await (const event of client.stream(runId)) last = event as typeof last;
    expect(last).toMatchObject({ type: "run-end", status: "completed" });
    const at = chat.requests.map((request) => request.at).sort((a, b) => a - b);
    expect(at).toHaveLength(2);
    // A turn a second; without the limit the two calls come within a few ms. The margin is a busy
    // machine's: a first call (its connection made) once arrived 306 ms after its turn, 694 ms apart.
    expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(400);
  });

  it("refuses limit flags beside a model module", async () => {
    const store = `sqlite:${join(mkdtempSync(join(tmpdir(), "planloop-serve-limits-")), "runs.sqlite")}`;
    const serve = startCli([
      "serve",
      "--tools",
      toolsModule,
      "--store",
      store,
      "--port",
      "0",
      "--model",
      join(testRoot, "fixtures", "suite-model.mjs"),
      "--requests-per-minute",
      "60",
    ]);
    started.push(serve);
    expect(await serve.line(/is a module: declare its limit there/)).toContain("suite-model.mjs");
  });
});
