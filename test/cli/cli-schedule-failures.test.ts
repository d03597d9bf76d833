// A schedule whose runs cannot start under `planloop serve` (a process of its own): each fire
// time is kept as a failed run with the reason, listed by `runs list` and `schedules list`, and
// its run.failed webhook posted to serve's --webhook (a receiver this test starts on 127.0.0.1).
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cli } from "../helpers/run-cli.js";
import { startCli, type CliProcess } from "../helpers/cli-process.js";
import { testRoot } from "../helpers/paths.js";
import { sqliteStore } from "../../src/stores/sqlite/index.js";
import { webhookAttempts } from "../../src/server/webhooks.js";

const toolsModule = join(testRoot, "fixtures", "plan-tools.ts");
const started: CliProcess[] = [];

afterEach(async () => {
  await Promise.all(started.splice(0).map((process) => process.stop("SIGKILL")));
});

/** A receiver of webhooks on 127.0.0.1: the bodies it got, and its URL. */
async function receiver() {
  const received: string[] = [];
  const hook = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => (received.push(body), response.writeHead(200).end()));
  });
  await new Promise<void>((resolve) => hook.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`;
  return { received, url, close: () => new Promise((resolve) => hook.close(resolve)) };
}

/** A store with schedule "digest" firing every second, whose model's key is not where serve runs. */
async function failingSchedule(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "planloop-schedule-failures-"));
  const store = `sqlite:${join(dir, "runs.sqlite")}`;
  // The key is there when the schedule is added (add checks it), and gone where serve runs.
  process.env.TEST_SCHEDULE_API_KEY = "sk-test";
  const flags = ["--cron", "* * * * * *", "--task", "sum up", "--model", "openai:gpt-4.1-mini", "--api-key-env", "TEST_SCHEDULE_API_KEY"];
  try {
    expect((await cli("schedules", "add", "digest", ...flags, "--store", store)).code).toBe(0);
  } finally {
    delete process.env.TEST_SCHEDULE_API_KEY;
  }
  return store;
}

describe("a schedule whose runs cannot start under planloop serve", () => {
  it("keeps each fire time as a failed run with the reason, shown by runs list and schedules list", async () => {
    const store = await failingSchedule();
    const { received, url, close } = await receiver();
    const serve = startCli(["serve", "--tools", toolsModule, "--store", store, "--tick-ms", "100", "--port", "0", "--webhook", url], {
      PLANLOOP_WEBHOOK_SECRET: "a-webhook-secret-of-some-length",
    });
    started.push(serve);
    await serve.line(/^schedule digest: digest@\S+ could not start: .*needs an API key in TEST_SCHEDULE_API_KEY/);
    while (received.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await serve.stop("SIGINT")).toBe(0);
    await close();
    expect(JSON.parse(received[0]!)).toMatchObject({
      type: "run.failed",
      runId: expect.stringMatching(/^digest@/),
      status: "failed",
      reason: expect.stringMatching(/^schedule digest could not start its run: .*needs an API key in TEST_SCHEDULE_API_KEY/),
    });

    const runs = (await cli("runs", "list", "--schedule", "digest", "--store", store)).out.trim().split("\n");
    expect(runs.length).toBeGreaterThanOrEqual(1);
    for (const line of runs) expect(line).toMatch(/^digest@\S+ {2}runSchedules {2}failed/);
    const listed = (await cli("schedules", "list", "--store", store)).out;
    expect(listed).toMatch(
      /last digest@\S+ \(failed: schedule digest could not start its run: .*needs an API key in TEST_SCHEDULE_API_KEY/,
    );
    const shown = await cli("runs", "show", runs[0]!.split("  ")[0]!, "--store", store);
    expect(shown.out).toContain("needs an API key in TEST_SCHEDULE_API_KEY");
  });

  it("posts each run.failed webhook to --webhook without --port too, kept and tried as the API's are", async () => {
    const store = await failingSchedule();
    const { received, url, close } = await receiver();
    const serve = startCli(["serve", "--tools", toolsModule, "--store", store, "--tick-ms", "100", "--webhook", url], {
      PLANLOOP_WEBHOOK_SECRET: "a-webhook-secret-of-some-length",
    });
    started.push(serve);
    await serve.line(/^schedule digest: digest@\S+ could not start/);
    while (received.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await serve.stop("SIGINT")).toBe(0);
    await close();
    const delivery = JSON.parse(received[0]!) as { runId: string };
    expect(delivery).toMatchObject({ type: "run.failed", status: "failed", reason: expect.stringMatching(/needs an API key/) });
    // The try is kept beside the run, as the API's server keeps its own.
    const opened = sqliteStore({ path: store.slice("sqlite:".length) });
    try {
      expect(await webhookAttempts(opened, delivery.runId)).toEqual([
        expect.objectContaining({ type: "run.failed", url, attempt: 1, outcome: 200, delivered: true }),
      ]);
    } finally {
      await opened.close();
    }
  });

  it("refuses --webhook without its secret, with or without --port", async () => {
    const store = await failingSchedule();
    const serve = await cli("serve", "--tools", toolsModule, "--store", store, "--webhook", "http://127.0.0.1:9/hook");
    expect(serve.code).not.toBe(0);
    expect(serve.err).toMatch(/--webhook needs PLANLOOP_WEBHOOK_SECRET/);
  });
});
