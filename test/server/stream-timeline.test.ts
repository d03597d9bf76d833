// A strategy run's stream in the order the run lived it, across the runs kept inside it (its
// plan runs), in every format, live and read again from the start: the plan and the steps
// before the answer, AG-UI's state whole before any patch and every span ended, and one
// terminal event per run. Each format is read by its own project's reader: the AI SDK's
// transport and readUIMessageStream, AG-UI's HTTP reader with verifyEvents, fast-json-patch
// (what AG-UI's client applies state patches with) for the state.
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { DefaultChatTransport, readUIMessageStream, type UIMessage, type UIMessageChunk } from "ai";
import { runHttpRequest, transformHttpEventStream, verifyEvents } from "@ag-ui/client";
import fastJsonPatch from "fast-json-patch";
import { from, lastValueFrom, takeWhile, toArray } from "rxjs";
import { createParser } from "eventsource-parser";
import { defineTool, memoryStore, type CheckpointStore } from "planloop";
import { ScriptedModel } from "planloop/testing";
import { planloopClient, type PlanloopClient } from "planloop/client";
import { refundTool } from "../helpers/refund-tool.js";
import { startRunServer, type RunServer } from "../../src/server/start-server.js";

type Ending = "completed" | "waiting" | "failed" | "cancelled";
type Event = Record<string, unknown> & { type: string };

const double = defineTool({
  name: "double",
  description: "Double",
  input: z.object({ value: z.number() }),
  execute: ({ value }) => value * 2,
});
const broken = defineTool({
  name: "broken",
  description: "Always fails",
  input: z.object({}),
  execute: () => {
    throw new Error("disk full");
  },
});
const secondStep: Record<Ending, { tool: string; args: unknown }> = {
  completed: { tool: "double", args: { value: "$1" } },
  waiting: { tool: "refund", args: { order: "A7" } },
  cancelled: { tool: "refund", args: { order: "A7" } },
  failed: { tool: "broken", args: {} },
};

let store: CheckpointStore;
let server: RunServer;
const controllers: AbortController[] = [];
afterEach(async () => {
  for (const controller of controllers.splice(0)) controller.abort();
  await server.close({ abortRuns: true });
  await store.close();
});

/** A gate the first step waits at: a live stream is open before the run gets past it. */
function gateTool() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  const gate = defineTool({
    name: "gate",
    description: "Waits for the test",
    input: z.object({ value: z.number() }),
    execute: async ({ value }) => (await opened, value),
  });
  return { gate, open };
}

/** A plan-and-execute run on a server whose model plans `gate` then the ending's second step, and answers "84". */
async function strategyServer(ending: Ending): Promise<{ client: PlanloopClient; open: () => void }> {
  const { gate, open } = gateTool();
  const { refund } = refundTool();
  const plan = {
    steps: [
      { id: 1, task: "gate", tool: "gate", args: { value: 42 } },
      { id: 2, task: "then", ...secondStep[ending], depends_on: [1] },
    ],
  };
  const reply = (request: { purpose: string }) => ({
    type: "final" as const,
    content: request.purpose === "plan" ? JSON.stringify(plan) : request.purpose === "solve" ? "the answer is 84" : "no plan here",
  });
  store = memoryStore();
  server = await startRunServer({
    store,
    tools: [gate, double, refund, broken],
    model: new ScriptedModel(Array(8).fill(reply)),
    pollMs: 20,
  });
  return { client: planloopClient({ url: server.url, token: server.sessionToken! }), open };
}

const headers = () => ({ authorization: `Bearer ${server.sessionToken}` });
const streamUrl = (runId: string, format: string) => `${server.url}/api/runs/${runId}/stream?format=${format}`;
const signal = () => {
  const controller = new AbortController();
  controllers.push(controller);
  return controller.signal;
};

/** planloop's own events, until the stream ends or `until` says so. */
async function readPlanloop(runId: string, until: (event: Event) => boolean): Promise<Event[]> {
  const events: Event[] = [];
  const controller = new AbortController();
  controllers.push(controller);
  const response = await fetch(streamUrl(runId, "planloop"), { headers: headers(), signal: controller.signal });
  let done = false;
  const parser = createParser({
    onEvent: ({ event, data }) => {
      if (done || event === "end") return;
      events.push(JSON.parse(data) as Event);
      if (until(events.at(-1)!)) done = true;
    },
  });
  const decoder = new TextDecoder();
  for await (const chunk of response.body!) {
    parser.feed(decoder.decode(chunk as Uint8Array, { stream: true }));
    if (done) break;
  }
  controller.abort();
  return events;
}

/** The AI SDK's chunks and the message its reader builds of them, until the stream ends or `until` says so. */
async function readAiSdk(runId: string, until: (chunk: UIMessageChunk) => boolean) {
  const transport = new DefaultChatTransport<UIMessage>({
    api: `${server.url}/unused`,
    fetch: (input, init) => fetch(input, { ...init, signal: signal() }),
    prepareReconnectToStreamRequest: () => ({ api: streamUrl(runId, "ai-sdk"), headers: headers() }),
  });
  const stream = (await transport.reconnectToStream({ chatId: runId }))!;
  const chunks: UIMessageChunk[] = [];
  const upTo = stream.pipeThrough(
    new TransformStream<UIMessageChunk, UIMessageChunk>({
      transform(chunk, controller) {
        chunks.push(chunk);
        controller.enqueue(chunk);
        if (until(chunk)) controller.terminate();
      },
    }),
  );
  let message: UIMessage | undefined;
  for await (const snapshot of readUIMessageStream<UIMessage>({ stream: upTo })) message = snapshot;
  return { chunks, message: message! };
}

/** AG-UI's events through its own HTTP reader and event checks, until the stream ends or `until` says so. */
async function readAgUi(runId: string, until: (event: Event) => boolean): Promise<Event[]> {
  const response = () => fetch(streamUrl(runId, "ag-ui"), { headers: headers(), signal: signal() });
  const read = transformHttpEventStream(runHttpRequest(response)).pipe(
    takeWhile((event) => !until(event as unknown as Event), true),
    toArray(),
  );
  const events = (await lastValueFrom(read)) as unknown as Event[];
  // The checks run again over exactly what was read: a stream cut at an interrupt is checked too.
  await lastValueFrom(from(events as never[]).pipe(verifyEvents(), toArray()));
  return events;
}

const isInterrupt = (event: Event) =>
  event.type === "RUN_FINISHED" && (event.outcome as { type?: string } | undefined)?.type === "interrupt";
const ends = {
  planloop: (ending: Ending) => (event: Event) => (ending === "waiting" ? event.type === "run-paused" : false),
  aiSdk: (ending: Ending) => (chunk: UIMessageChunk) =>
    ending === "waiting" && chunk.type === "data-run" && (chunk.data as { status?: string }).status === "waiting",
  agUi: (ending: Ending) => (event: Event) => ending === "waiting" && isInterrupt(event),
};

/** Starts the run and reads it in every format: `live` opens the streams before the run gets past its first step. */
async function readAll(ending: Ending, live: boolean) {
  const { client, open } = await strategyServer(ending);
  const { runId } = await client.start({ task: "What is twice 42?", runId: `asked-${ending}` });
  const reading = () =>
    Promise.all([readPlanloop(runId, ends.planloop(ending)), readAiSdk(runId, ends.aiSdk(ending)), readAgUi(runId, ends.agUi(ending))]);
  let read: ReturnType<typeof reading> | undefined;
  if (live) {
    read = reading();
    // The run waits at its gate until a stream of it has seen the gate's step start.
    await readPlanloop(runId, (event) => event.type === "step-start");
  }
  open();
  const settled = await readPlanloop(runId, (event) => event.type === "run-paused" || event.type === "run-end");
  if (ending === "cancelled") await client.cancel(runId);
  else if (ending !== "waiting") expect(settled.at(-1)).toMatchObject({ type: "run-end", status: ending });
  const [planloop, aiSdk, agUi] = await (read ?? reading());
  return { runId, planloop, aiSdk, agUi };
}

const endings: Ending[] = ["completed", "waiting", "failed", "cancelled"];
const cases = endings.flatMap((ending) => [
  [ending, "live"],
  [ending, "replayed"],
]) as Array<[Ending, "live" | "replayed"]>;

describe("a strategy run's stream, in the order it happened", () => {
  it.each(cases)("%s run, %s", async (ending, how) => {
    const { runId, planloop, aiSdk, agUi } = await readAll(ending, how === "live");

    // planloop's own events: the plan, then the steps, then the run's end, which comes once and last.
    const types = planloop.map((event) => event.type);
    const plan = types.indexOf("plan-created");
    const steps = types.flatMap((type, index) => (type.startsWith("step-") ? [index] : []));
    expect(plan).toBeGreaterThan(-1);
    expect(steps.length).toBeGreaterThanOrEqual(3);
    expect(Math.min(...steps)).toBeGreaterThan(plan);
    const terminal = types.filter((type) => type === "run-end");
    if (ending === "waiting") expect(terminal).toEqual([]);
    else {
      expect(terminal).toEqual(["run-end"]);
      expect(types.at(-1)).toBe("run-end");
      expect(planloop.at(-1)).toMatchObject({ status: ending });
    }
    // In time order, to a millisecond (a model call's start is its end less its measured length): the events timed by the journal's clock (a plan's creation and the run's end
    // are timed by the store's, which may stand a few milliseconds apart from it in a long-lived process).
    const timed = planloop.filter((event) => event.type !== "plan-created" && event.type !== "run-end");
    const times = timed.map((event) => Math.floor(event.time as number));
    const order = JSON.stringify(planloop.map((event) => [event.type, event.run, event.time]));
    for (let index = 1; index < times.length; index += 1) expect(times[index]!, order).toBeGreaterThanOrEqual(times[index - 1]! - 1);

    // The AI SDK's message: the plan and every step before the answer; one finish on a stream that ends.
    const parts = aiSdk.message.parts as Array<{ type: string; data?: Record<string, unknown>; text?: string }>;
    const partTypes = parts.map((part) => part.type);
    expect(aiSdk.message.id).toBe(runId);
    expect(partTypes.indexOf("data-plan")).toBeGreaterThan(-1);
    expect(partTypes.indexOf("data-plan")).toBeLessThan(partTypes.indexOf("data-step"));
    const chunkTypes = aiSdk.chunks.map((chunk) => chunk.type);
    const lastStep = chunkTypes.lastIndexOf("data-step");
    expect(chunkTypes.filter((type) => type === "finish")).toHaveLength(ending === "waiting" ? 0 : 1);
    if (ending === "completed") {
      expect(parts.find((part) => part.type === "text")?.text).toBe("the answer is 84");
      expect(chunkTypes.indexOf("text-start")).toBeGreaterThan(lastStep);
    }
    expect(parts.find((part) => part.type === "data-run")?.data).toMatchObject({ status: ending });

    // AG-UI: each span opens with the whole state; every patch applies to the state before it.
    let state: unknown;
    for (const event of agUi) {
      if (event.type === "STATE_SNAPSHOT") state = structuredClone(event.snapshot);
      if (event.type === "STATE_DELTA") {
        expect(state, "a patch before any snapshot").toBeDefined();
        state = fastJsonPatch.applyPatch(state, event.delta as never, true, false).newDocument;
      }
    }
    expect(state).toMatchObject({ status: ending, steps: { "plan:1/1": "succeeded" } });
    // One terminal event per span, and only the last span ends the run's way.
    const spans = agUi.filter((event) => event.type === "RUN_STARTED").map((event) => event.runId);
    const terminals = agUi.filter((event) => event.type === "RUN_FINISHED" || event.type === "RUN_ERROR");
    expect(terminals.map((event) => event.runId ?? spans.at(-1))).toEqual(spans);
    const started = agUi.filter((event) => event.type === "STEP_STARTED").map((event) => event.stepName);
    expect(agUi.filter((event) => event.type === "STEP_FINISHED").map((event) => event.stepName)).toEqual(started);
    const last = terminals.at(-1)!;
    const earlier = terminals.slice(0, -1);
    // A span that ends before the run does ends at a wait: never as a success.
    for (const span of earlier) expect(isInterrupt(span)).toBe(true);
    if (ending === "completed") (expect(last).toMatchObject({ type: "RUN_FINISHED" }), expect(last.outcome).toBeUndefined());
    if (ending === "waiting") expect(isInterrupt(last)).toBe(true);
    if (ending === "cancelled") expect(last).toMatchObject({ type: "RUN_FINISHED", outcome: { type: "cancelled" } });
    if (ending === "failed") expect(last).toMatchObject({ type: "RUN_ERROR", code: "failed" });
    if (ending === "completed") {
      const answer = agUi.findIndex((event) => event.type === "TEXT_MESSAGE_CONTENT");
      expect(answer).toBeGreaterThan(agUi.findLastIndex((event) => event.type === "STEP_FINISHED"));
    }
  });
});
