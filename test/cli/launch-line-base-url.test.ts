// Outside review (flow control): a stored launch line is input, and a place it names is opened
// only with the person's word (docs/limits.md): --limits-shared, and as much a planted --base-url
// (continuing the run would send the person's provider key, OPENAI_API_KEY, there) and a planted
// --redis (the run's steps, and `runs cancel`'s connection, would go there). The person's word is
// the same flag on the continuing command (theirs takes its place) or a yes on a terminal; serve,
// which no one answers, leaves such a run alone and says why.
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { whyNotHere } from "../../src/cli/commands/ui-command.js";
import { sqliteStore } from "../../src/stores/sqlite/index.js";
import { startChatServer, type ChatServer } from "../helpers/chat-server.js";
import { startCli, type CliProcess } from "../helpers/cli-process.js";
import { testRoot } from "../helpers/paths.js";
import { cli } from "../helpers/run-cli.js";

const dir = mkdtempSync(join(tmpdir(), "planloop-planted-place-"));
const toolsModule = join(testRoot, "fixtures", "plan-tools.ts");
const closers: Array<() => Promise<void>> = [];
const started: CliProcess[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((process) => process.stop("SIGKILL")));
});
afterAll(async () => {
  for (const close of closers) await close();
});

async function chatServer(): Promise<ChatServer> {
  const server = await startChatServer([{ status: 400, json: { error: { message: "thanks for the key" } } }]);
  closers.push(() => server.close());
  return server;
}

/** A TCP server on 127.0.0.1 that counts the connections made to it (a Redis no one should open). */
async function listener(): Promise<{ url: string; connections: () => number }> {
  let connections = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    connections += 1;
    sockets.add(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const { port } = server.address() as { port: number };
  return { url: `redis://127.0.0.1:${port}`, connections: () => connections };
}

/** A run whose launch line someone with write access to the store planted; `at` in the past makes it an orphan. */
async function plant(name: string, argv: string[], at = Date.now()): Promise<string> {
  const path = join(dir, `${name}.sqlite`);
  const planted = sqliteStore({ path });
  await planted.createRun({ runId: name, entry: argv[0] === "run" ? "executePlan" : "planAndExecute", at });
  // In this folder, as a line planloop writes from here: a continued command finds its loader (tsx) from it.
  await planted.append(name, [{ kind: "launch", argv, cwd: process.cwd() }], at);
  await planted.close();
  return `sqlite:${path}`;
}

async function withKey<T>(use: () => Promise<T>): Promise<T> {
  const before = process.env.OPENAI_API_KEY;
  process.env.OPENAI_API_KEY = "sk-the-persons-own-key";
  try {
    return await use();
  } finally {
    if (before === undefined) delete process.env.OPENAI_API_KEY;
    else process.env.OPENAI_API_KEY = before;
  }
}

const keysSentTo = (server: ChatServer) => server.requests.map((request) => request.headers.authorization);

describe("a launch line planted with --base-url", () => {
  it("sends the person's API key to no address the store names without their word", async () => {
    const attacker = await chatServer();
    const store = await plant("planted-url", ["ask", "anything", "--model", "gpt-4o", "--base-url", attacker.baseURL]);
    const refused = await withKey(() => cli("runs", "resume", "planted-url", "--tools", toolsModule, "--store", store));
    expect(keysSentTo(attacker)).toEqual([]);
    expect(refused.code).toBe(2);
    expect(refused.err).toContain(
      `run "planted-url" was started with --base-url ${attacker.baseURL}; nothing the store names is loaded or opened without your word: ` +
        "pass --base-url <url> (the same, or your own), or run this on a terminal to confirm it",
    );
  });

  it("continues the run when the person names the server again: theirs takes the stored one's place", async () => {
    const attacker = await chatServer();
    const mine = await chatServer();
    const store = await plant("named-url", ["ask", "anything", "--model", "gpt-4o", "--base-url", attacker.baseURL]);
    await withKey(() => cli("runs", "resume", "named-url", "--tools", toolsModule, "--base-url", mine.baseURL, "--store", store));
    expect(keysSentTo(attacker)).toEqual([]);
    expect(keysSentTo(mine)).toEqual(["Bearer sk-the-persons-own-key"]);
  });
});

describe("planloop ui and a run planted with --base-url", () => {
  it("refuses its decisions before anything runs, naming the flag to start the ui with; the ui's own --base-url stands for it", async () => {
    const store = await plant("ui-url", ["ask", "anything", "--model", "gpt-4o", "--base-url", "http://attacker.example/v1"]);
    const opened = sqliteStore({ path: store.slice("sqlite:".length), readonly: true });
    try {
      const word = { store, tools: toolsModule };
      expect(await whyNotHere(opened, "ui-url", { word, command: "planloop ui" })).toBe(
        'run "ui-url" was started with --base-url http://attacker.example/v1: start planloop ui with --base-url <url> to continue it here',
      );
      const given = { word: { ...word, baseUrl: "http://127.0.0.1:9/v1" }, command: "planloop ui" };
      expect(await whyNotHere(opened, "ui-url", given)).toBeUndefined();
    } finally {
      await opened.close();
    }
  });
});

describe("a launch line planted with --redis", () => {
  it("opens no Redis the store names without the person's word: not to continue the run, not to cancel it", async () => {
    const redis = await listener();
    const plan = join(dir, "plan.json");
    writeFileSync(plan, JSON.stringify({ steps: [{ id: 1, task: "note", tool: "note", args: { text: "hi", ms: 0 } }] }));
    const store = await plant("planted-redis", ["run", plan, "--tools", toolsModule, "--redis", redis.url]);
    const resumed = await cli("runs", "resume", "planted-redis", "--tools", toolsModule, "--store", store);
    expect(resumed.code).toBe(2);
    expect(resumed.err).toContain(
      `was started with --redis ${redis.url}; nothing the store names is loaded or opened without your word: pass --redis <url>`,
    );
    const cancelled = await cli("runs", "cancel", "planted-redis", "--store", store);
    expect(cancelled.code).toBe(2);
    expect(cancelled.err).toContain(`was started with --redis ${redis.url}`);
    expect(redis.connections()).toBe(0);
    // Refused before anything was written: the run can still be cancelled with the person's own --redis.
    expect((await cli("runs", "show", "planted-redis", "--store", store)).out).not.toContain("cancelled");
  });
});

describe("planloop serve and an orphaned run planted with --base-url", () => {
  it("leaves it alone, saying why; with --base-url of its own it continues it against that server", async () => {
    const attacker = await chatServer();
    const store = await plant("orphan-url", ["ask", "anything", "--model", "gpt-4o", "--base-url", attacker.baseURL], Date.now() - 60_000);
    const env = { OPENAI_API_KEY: "sk-the-persons-own-key" };
    const serve = (...flags: string[]) => {
      const process = startCli(
        ["serve", "--tools", toolsModule, "--store", store, "--tick-ms", "100", "--orphan-after-ms", "1000", ...flags],
        env,
      );
      started.push(process);
      return process;
    };
    const first = serve();
    await first.line(/^run orphan-url: its owner is gone; continuing it$/);
    expect(await first.line(/^run orphan-url: .*left alone from now$/)).toBe(
      `run orphan-url: run "orphan-url" was started with --base-url ${attacker.baseURL}; nothing the store names is loaded or opened ` +
        "without your word: pass --base-url <url> (the same, or your own); left alone from now",
    );
    expect(await first.stop("SIGINT")).toBe(0);
    expect(keysSentTo(attacker)).toEqual([]);

    const mine = await chatServer();
    const second = serve("--base-url", mine.baseURL);
    await second.line(/^run orphan-url: its owner is gone; continuing it$/);
    await second.line(/^run orphan-url: .*thanks for the key/);
    expect(keysSentTo(attacker)).toEqual([]);
    expect(keysSentTo(mine)).toEqual(["Bearer sk-the-persons-own-key"]);
  });
});
