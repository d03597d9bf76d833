// `planloop serve --port` in processes of its own: a run started through the API, its serve
// SIGKILLed while a step runs, and a second serve on the same store continues it — the step that
// finished does not run again, the one cut off runs once more — while a client's stream, cut by
// the kill, goes on from its Last-Event-ID with no event lost or repeated.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { planloopClient, type StreamEvent } from "planloop/client";
import { startCli, type CliProcess } from "../helpers/cli-process.js";
import { lines, logFile } from "../helpers/call-log.js";
import { testRoot } from "../helpers/paths.js";

const toolsModule = join(testRoot, "fixtures", "plan-tools.ts");
const started: CliProcess[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((process) => process.stop("SIGKILL")));
});

async function serve(store: string, env: Record<string, string>) {
  const process = startCli(
    ["serve", "--tools", toolsModule, "--store", store, "--tick-ms", "100", "--orphan-after-ms", "1", "--port", "0"],
    env,
  );
  started.push(process);
  const url = /the API is on (http:\/\/\S+) /.exec(await process.line(/the API is on /))![1]!;
  const token = /session token .*: (\S+)$/.exec(await process.line(/session token/))![1]!;
  return { process, client: planloopClient({ url, token }) };
}

/** Reads until `done` holds of what was read, for at most 60 s. */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let waited = 0; ; waited += 50) {
    const value = await read();
    if (done(value) || waited > 60_000) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("planloop serve --port, killed and started again", () => {
  it("continues a run it was running, runs no finished step again, and a cut stream resumes exactly", async () => {
    const dir = mkdtempSync(join(tmpdir(), "planloop-serve-kill-"));
    const store = `sqlite:${join(dir, "runs.sqlite")}`;
    const log = logFile();
    const first = await serve(store, { PLANLOOP_TEST_LOG: log });
    const plan = {
      steps: [
        { id: 1, task: "pull", tool: "note", args: { text: "pull", ms: 0 } },
        { id: 2, task: "crunch", tool: "note", args: { text: "crunch", ms: 120_000 }, depends_on: [1] },
        { id: 3, task: "report", tool: "note", args: { text: "report", ms: 0 }, depends_on: [2] },
      ],
    };
    const { runId } = await first.client.start({ plan, runId: "weekly" });
    const before: StreamEvent[] = [];
    for await (const event of first.client.stream(runId, { reconnects: 0 })) {
      before.push(event);
      if (event.type === "step-start" && event.stepId === 2) break;
    }
    expect(await first.process.stop("SIGKILL")).toBe("SIGKILL");
    expect(lines(log)).toEqual(["pull weekly/1", "crunch weekly/2"]);

    // The second serve's note calls take no time; it finds the run's owner gone and continues it.
    const second = await serve(store, { PLANLOOP_TEST_LOG: log, PLANLOOP_TEST_MS: "0" });
    const after: StreamEvent[] = [];
    for await (const event of second.client.stream(runId, { lastEventId: before.at(-1)!.id })) after.push(event);
    expect(after.at(-1)).toMatchObject({ type: "run-end", status: "completed" });
    const whole: StreamEvent[] = [];
    for await (const event of second.client.stream(runId)) whole.push(event);
    expect([...before, ...after].map((event) => event.id)).toEqual(whole.map((event) => event.id));
    expect(lines(log)).toEqual(["pull weekly/1", "crunch weekly/2", "crunch weekly/2", "report weekly/3"]);
    expect(second.process.lines).toContain("run weekly: its owner is gone; continuing it");
  });

  it("a step that finished while its sibling ran is not run again after the kill", async () => {
    const store = `sqlite:${join(mkdtempSync(join(tmpdir(), "planloop-serve-kill-")), "runs.sqlite")}`;
    const log = logFile();
    const first = await serve(store, { PLANLOOP_TEST_LOG: log });
    const plan = {
      steps: [
        { id: "fast", task: "fetch orders", tool: "note", args: { text: "fast", ms: 100 } },
        { id: "slow", task: "fetch tickets", tool: "note", args: { text: "slow", ms: 120_000 } },
      ],
    };
    const { runId } = await first.client.start({ plan, runId: "siblings" });
    for await (const event of first.client.stream(runId, { reconnects: 0 })) {
      if (event.type === "step-end" && event.stepId === "fast") break;
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await first.process.stop("SIGKILL")).toBe("SIGKILL");

    const second = await serve(store, { PLANLOOP_TEST_LOG: log, PLANLOOP_TEST_MS: "0" });
    for await (const event of second.client.stream(runId)) if (event.type === "run-end") expect(event.status).toBe("completed");
    expect(lines(log).sort()).toEqual(["fast siblings/fast", "slow siblings/slow", "slow siblings/slow"]);
  });

  it("an approved e-mail cut off by the kill is asked about under a new id, and the old approval sends nothing", async () => {
    const store = `sqlite:${join(mkdtempSync(join(tmpdir(), "planloop-serve-kill-")), "runs.sqlite")}`;
    const log = logFile();
    const first = await serve(store, { PLANLOOP_TEST_LOG: log });
    const plan = { steps: [{ id: 1, task: "send the report", tool: "sendEmail", args: { text: "report", ms: 120_000 } }] };
    const { runId } = await first.client.start({ plan, runId: "mail" });
    expect(
      (
        await until(
          () => first.client.get(runId),
          (view) => view.pending.length > 0,
        )
      ).pending,
    ).toMatchObject([{ id: "step:1", kind: "approval" }]);
    await first.client.decide(runId, { pendingId: "step:1", action: "approve" });
    for (let waited = 0; lines(log).length === 0 && waited < 30_000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(lines(log)).toEqual(["report mail/1"]);
    expect(await first.process.stop("SIGKILL")).toBe("SIGKILL");

    const second = await serve(store, { PLANLOOP_TEST_LOG: log });
    const view = await until(
      () => second.client.get(runId),
      (seen) => seen.pending[0]?.id === "step:1#2",
    );
    expect(view.pending).toMatchObject([{ id: "step:1#2", kind: "interrupted", question: expect.stringMatching(/did it take effect/) }]);
    // The approval given before the kill, sent again, is refused: nothing is sent.
    await expect(second.client.decide(runId, { pendingId: "step:1", action: "approve" })).rejects.toMatchObject({
      status: expect.any(Number),
    });
    await second.client.decide(runId, { pendingId: "step:1#2", action: "answer", text: "it went out" });
    for await (const event of second.client.stream(runId)) if (event.type === "run-end") expect(event.status).toBe("completed");
    expect(lines(log)).toEqual(["report mail/1"]);
  });
});
