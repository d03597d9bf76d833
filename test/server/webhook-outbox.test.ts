// Webhooks survive a restart (issue 54): a delivery is kept in the store's outbox before its
// first try, so one whose receiver was away when its serve was SIGKILLed is delivered once the
// serve starts again — the same delivery, by its id. Before, tries pending at the kill were lost.
import { mkdtempSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { memoryStore } from "planloop";
import { planloopClient } from "planloop/client";
import { claimDue, addToOutbox, outboxEntries } from "../../src/server/webhook-outbox.js";
import { startCli, type CliProcess } from "../helpers/cli-process.js";
import { testRoot } from "../helpers/paths.js";
import { logFile } from "../helpers/call-log.js";

const toolsModule = join(testRoot, "fixtures", "plan-tools.ts");
const secret = "a-webhook-secret-of-some-length";
const started: CliProcess[] = [];
const receivers: Server[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((process) => process.stop("SIGKILL")));
  for (const receiver of receivers.splice(0)) receiver.close();
});

async function serve(store: string, hook: string) {
  const process = startCli(["serve", "--tools", toolsModule, "--store", store, "--tick-ms", "100", "--port", "0", "--webhook", hook], {
    PLANLOOP_WEBHOOK_SECRET: secret,
    PLANLOOP_TEST_LOG: logFile(),
  });
  started.push(process);
  const url = /the API is on (http:\/\/\S+) /.exec(await process.line(/the API is on /))![1]!;
  const token = /session token .*: (\S+)$/.exec(await process.line(/session token/))![1]!;
  return { process, client: planloopClient({ url, token }) };
}

/** A receiver on `port`, keeping each body it is sent. */
async function receiver(port: number): Promise<unknown[]> {
  const got: unknown[] = [];
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      got.push(JSON.parse(body));
      response.end("ok");
    });
  });
  receivers.push(server);
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return got;
}

/** A free port, given back at once: nothing listens on it until the test says. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe("webhooks across a restart", () => {
  it("delivers after a SIGKILL what was still to deliver, as the same delivery", async () => {
    const store = `sqlite:${join(mkdtempSync(join(tmpdir(), "planloop-outbox-")), "runs.sqlite")}`;
    const port = await freePort();
    const hook = `http://127.0.0.1:${port}/hook`;
    const first = await serve(store, hook);
    await first.client.start({ plan: { steps: [{ id: 1, task: "note", tool: "note", args: { text: "x", ms: 0 } }] }, runId: "kept" });
    // The receiver is away: the first try fails, and the serve is killed before the next.
    for (let look = 0; look < 600; look += 1) {
      const view = (await first.client.get("kept")) as unknown as { webhooks?: unknown[] };
      if ((view.webhooks?.length ?? 0) > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await first.process.stop("SIGKILL")).toBe("SIGKILL");
    const got = await receiver(port);
    await serve(store, hook);
    for (let look = 0; look < 1200 && got.length === 0; look += 1) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(got).toMatchObject([{ type: "run.completed", runId: "kept", id: expect.any(String) }]);
  });

  it("gives a claimed delivery to another server only once its claim ran out, and only when due", async () => {
    const store = memoryStore();
    const entry = { id: "d1", url: "http://127.0.0.1:9/", payload: {}, tried: 1, nextAt: 1_000, owner: "server-a", claimedUntil: 5_000 };
    await addToOutbox(store, entry);
    const claim = (at: number) => claimDue(store, { owner: "server-b", at, claimMs: 100, limit: 10 });
    expect(await claim(2_000)).toEqual([]);
    expect((await claim(5_001)).map((each) => each.id)).toEqual(["d1"]);
    // Now server-b's, until 5,101: server-c waits its turn.
    expect(await claimDue(store, { owner: "server-c", at: 5_050, claimMs: 100, limit: 10 })).toEqual([]);
    expect((await outboxEntries(store))[0]).toMatchObject({ owner: "server-b", claimedUntil: 5_101 });
    await addToOutbox(store, { ...entry, id: "later", nextAt: 9_000, owner: undefined, claimedUntil: undefined });
    expect((await claimDue(store, { owner: "server-c", at: 6_000, claimMs: 100, limit: 10 })).map((each) => each.id)).toEqual(["d1"]);
  });
});
