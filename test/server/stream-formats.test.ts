// A run's stream in the formats other front ends read, each read by its own project's client:
// the AI SDK UI message stream by the `ai` package's DefaultChatTransport and readUIMessageStream,
// AG-UI by @ag-ui/client's HTTP reader with its event checks (verifyEvents).
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { DefaultChatTransport, readUIMessageStream, type UIMessage } from "ai";
import { runHttpRequest, transformHttpEventStream, verifyEvents } from "@ag-ui/client";
import { lastValueFrom, toArray } from "rxjs";
import { defineTool, memoryStore, type CheckpointStore, type ModelRequest } from "planloop";
import { planloopClient } from "planloop/client";
import { refundTool } from "../helpers/refund-tool.js";
import { createParser } from "eventsource-parser";
import { startRunServer, type RunServer } from "../../src/server/start-server.js";

const echo = defineTool({
  name: "echo",
  description: "Echo",
  input: z.object({ text: z.string() }),
  execute: ({ text }) => text.toUpperCase(),
});
const { refund } = refundTool();
const plan = {
  steps: [
    { id: "pull", task: "pull", tool: "echo", args: { text: "rows" } },
    { id: "refund", task: "refund", tool: "refund", args: { order: "A7" }, depends_on: ["pull"] },
  ],
};

let store: CheckpointStore;
let server: RunServer;
afterEach(async () => {
  await server.close({ abortRuns: true });
  await store.close();
});

/** Code mode's program for the same work: the echo, then the refund. */
const program = "const rows = await tools.echo({ text: 'rows' });\nreturn await tools.refund({ order: 'A7' });";
const codeModel = {
  generate: async (request: ModelRequest) => ({
    type: "final" as const,
    content: request.purpose === "plan" ? "```js\n" + program + "\n```" : "refunded A7 [s2]",
  }),
};

/** Starts the plan (or the task in code mode), approves its refund once it waits, and returns when the run has ended. */
async function approvedRun(options: { code?: boolean } = {}): Promise<{ runId: string; pendingId: string }> {
  store = memoryStore();
  server = await startRunServer({ store, tools: [echo, refund], pollMs: 20, ...(options.code ? { model: codeModel } : {}) });
  const client = planloopClient({ url: server.url, token: server.sessionToken! });
  const { runId } = await client.start(options.code ? { task: "refund A7", strategy: "code" } : { plan });
  let pendingId = "";
  for await (const event of client.stream(runId)) {
    if (event.type !== "run-paused") continue;
    pendingId = (event.pending as Array<{ id: string }>)[0]!.id;
    break;
  }
  await client.decide(runId, { pendingId, action: "approve" });
  for await (const event of client.stream(runId)) void event;
  return { runId, pendingId };
}

/** Every server-sent event of a finished run's stream, with the id it carried. */
async function frames(url: string, lastEventId?: string): Promise<Array<{ id?: string | undefined; data: string }>> {
  const response = await fetch(url, {
    headers: { authorization: `Bearer ${server.sessionToken}`, ...(lastEventId ? { "last-event-id": lastEventId } : {}) },
  });
  const found: Array<{ id?: string | undefined; data: string }> = [];
  const parser = createParser({ onEvent: ({ id, data }) => found.push({ id, data }) });
  parser.feed(await response.text());
  return found;
}

describe("stream formats", () => {
  it("?format=ai-sdk, read by the AI SDK's own transport and message reader: the plan and steps as data parts, the answer as text", async () => {
    const { runId } = await approvedRun();
    const transport = new DefaultChatTransport<UIMessage>({
      api: `${server.url}/unused`,
      prepareReconnectToStreamRequest: () => ({
        api: `${server.url}/api/runs/${runId}/stream?format=ai-sdk`,
        headers: { authorization: `Bearer ${server.sessionToken}` },
      }),
    });
    const stream = await transport.reconnectToStream({ chatId: runId });
    expect(stream).not.toBeNull();
    let message: UIMessage | undefined;
    for await (const snapshot of readUIMessageStream<UIMessage>({ stream: stream! })) message = snapshot;
    expect(message!.id).toBe(runId);
    const parts = message!.parts as Array<{ type: string; id?: string; data?: Record<string, unknown>; text?: string }>;
    expect(parts.find((part) => part.type === "data-plan")?.data).toMatchObject({ run: runId, version: 1 });
    const steps = parts.filter((part) => part.type === "data-step").map((part) => [part.data!.stepId, part.data!.status]);
    expect(steps).toEqual([
      ["pull", "succeeded"],
      ["refund", "succeeded"],
    ]);
    expect(parts.find((part) => part.type === "data-run")?.data).toMatchObject({ status: "completed" });
    expect(parts.find((part) => part.type === "text")?.text).toContain("refunded A7");
  });

  it("?format=ag-ui, read by @ag-ui/client with its event checks: spans, state, tool calls, and the approval as an interrupt", async () => {
    const { runId, pendingId } = await approvedRun();
    const response = () =>
      fetch(`${server.url}/api/runs/${runId}/stream?format=ag-ui`, { headers: { authorization: `Bearer ${server.sessionToken}` } });
    const events = (await lastValueFrom(transformHttpEventStream(runHttpRequest(response)).pipe(verifyEvents(), toArray()))) as Array<
      Record<string, unknown> & { type: string }
    >;
    const types = events.map((event) => event.type);
    expect(types.filter((type) => type === "RUN_STARTED")).toHaveLength(2);
    const finished = events.filter((event) => event.type === "RUN_FINISHED");
    expect(finished).toHaveLength(2);
    // The refund's call starts once: it waits for approval (the interrupt names it), then is answered.
    expect(finished[0]!.outcome).toMatchObject({
      type: "interrupt",
      interrupts: [{ id: pendingId, reason: "approval", toolCallId: "refund@1" }],
    });
    expect(finished[1]!.outcome).toBeUndefined();
    expect(events.find((event) => event.type === "STATE_SNAPSHOT")?.snapshot).toMatchObject({ steps: {} });
    expect(events.filter((event) => event.type === "TOOL_CALL_START").map((event) => event.toolCallName)).toEqual(["echo", "refund"]);
    expect(events.find((event) => event.type === "TOOL_CALL_RESULT" && String(event.toolCallId).startsWith("refund"))?.content).toContain(
      "refunded A7",
    );
    expect(events.filter((event) => event.type === "TEXT_MESSAGE_CONTENT").map((event) => event.delta)).toEqual([
      expect.stringContaining("refunded A7"),
    ]);
  });

  it("a code-mode run in both formats: the program with the plan, each call a step naming its tool, the refund a tool call", async () => {
    const { runId, pendingId } = await approvedRun({ code: true });
    expect(pendingId).toMatch(/^code:0:[0-9a-f]{16}:1$/);
    const url = (format: string) => `${server.url}/api/runs/${runId}/stream?format=${format}`;
    const parts = (await frames(url("ai-sdk"))).flatMap(({ data }) => (data === "[DONE]" ? [] : [JSON.parse(data) as Record<string, any>]));
    expect(parts.find((part) => part.type === "data-plan")?.data).toMatchObject({ version: 1, steps: [], program });
    const started = parts.filter((part) => part.type === "data-step" && part.data.status === "running").map((part) => part.data);
    expect(started.map((step) => [step.tool, step.args])).toEqual([
      ["echo", { text: "rows" }],
      ["refund", { order: "A7" }],
      ["refund", { order: "A7" }],
    ]);
    expect(started[1].stepId).toBe(pendingId);
    const events = (await frames(url("ag-ui"))).map(({ data }) => JSON.parse(data) as Record<string, unknown>);
    // The refund's call starts once (it waits, then is answered under the same call), as a plan step's does.
    expect(events.filter((event) => event.type === "TOOL_CALL_START").map((event) => event.toolCallName)).toEqual(["echo", "refund"]);
    expect(events.find((event) => event.type === "TOOL_CALL_RESULT" && String(event.toolCallId).startsWith(pendingId))?.content).toBe(
      "refunded A7",
    );
  });

  it("?format=ag-ui resumed with Last-Event-ID after the interrupt goes on exactly as the whole stream does", async () => {
    const { runId } = await approvedRun();
    const url = `${server.url}/api/runs/${runId}/stream?format=ag-ui`;
    const whole = await frames(url);
    const interrupt = whole.findIndex((frame) => frame.data.includes('"RUN_FINISHED"'));
    const lastId = whole.slice(0, interrupt + 1).findLast((frame) => frame.id !== undefined)!.id!;
    const from = whole.findIndex((frame) => frame.id === lastId) + 1;
    const resumed = await frames(url, lastId);
    expect(resumed.map((frame) => frame.data)).toEqual(whole.slice(from).map((frame) => frame.data));
    expect(JSON.parse(resumed[0]!.data)).toMatchObject({ type: "RUN_STARTED", runId: `${runId}~2` });
  });
});
