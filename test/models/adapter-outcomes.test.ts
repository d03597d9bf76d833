// The two model adapters map the same provider situations to the same outcomes (the table in
// docs/models.md): openAICompatible against a scripted Chat Completions server, fromAISDK
// against the AI SDK's own mocks.
import { afterEach, describe, expect, it } from "vitest";
import { fromAISDK, openAICompatible, runAgent, type ModelAdapter } from "planloop";
import { MockModel, simulateReadableStream } from "../helpers/ai-sdk-mock.js";
import { startChatServer, type ChatServer, type Reply } from "../helpers/chat-server.js";

const usage = { inputTokens: { total: 10, noCache: 10 }, outputTokens: { total: 4, text: 4 } };
const reason = (unified: string, raw: string) => ({ unified, raw });

/** One situation, as each provider says it. */
interface Situation {
  name: string;
  /** The OpenAI finish_reason, or null for none; `cut` ends the stream without [DONE]. */
  openAI: { finish: string | null; cut?: boolean };
  /** The AI SDK's stream parts after the text; none for a stream cut short. */
  aiSdk: { finish?: { unified: string; raw: string } };
  outcome: { output: string } | { error: RegExp };
}

const situations: Situation[] = [
  { name: "a whole answer", openAI: { finish: "stop" }, aiSdk: { finish: reason("stop", "stop") }, outcome: { output: "The total is 42" } },
  {
    name: "the token limit",
    openAI: { finish: "length" },
    aiSdk: { finish: reason("length", "max_tokens") },
    outcome: { error: /cut off at the token limit/ },
  },
  {
    name: "a content filter",
    openAI: { finish: "content_filter" },
    aiSdk: { finish: reason("content-filter", "safety") },
    outcome: { error: /content filter/ },
  },
  {
    name: "the provider's error",
    openAI: { finish: "error" },
    aiSdk: { finish: reason("error", "error") },
    outcome: { error: /ended the answer with an error/ },
  },
  {
    name: "a stream cut short",
    openAI: { finish: null, cut: true },
    aiSdk: {},
    outcome: { error: /ended before the answer was complete/ },
  },
  {
    name: "a reason the table does not name",
    openAI: { finish: "end_turn" },
    aiSdk: { finish: reason("other", "end_turn") },
    outcome: { output: "The total is 42" },
  },
];

let server: ChatServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const text = "The total is 42";
const openAIStream = (situation: Situation): Reply => ({
  sse: [
    { choices: [{ delta: { content: "The total " }, finish_reason: null }] },
    { choices: [{ delta: { content: "is 42" }, finish_reason: situation.openAI.finish }] },
  ],
  ...(situation.openAI.cut ? { cut: true } : {}),
});
const aiSdkStream = (situation: Situation) => [
  { type: "text-start", id: "1" },
  { type: "text-delta", id: "1", delta: "The total " },
  { type: "text-delta", id: "1", delta: "is 42" },
  { type: "text-end", id: "1" },
  ...(situation.aiSdk.finish ? [{ type: "finish", finishReason: situation.aiSdk.finish, usage }] : []),
];

async function outcomeOf(model: ModelAdapter): Promise<{ output: string } | { error: string }> {
  // Watched, so both adapters stream.
  return runAgent({ model, tools: [], task: "total?", onEvent: () => {} }).then(
    (result) => (result.status === "completed" ? { output: String(result.output) } : { error: `${result.status}: ${result.reason}` }),
    (error: unknown) => ({ error: String((error as Error).message) }),
  );
}

function expectOutcome(got: { output: string } | { error: string }, outcome: Situation["outcome"]) {
  if ("output" in outcome) expect(got).toEqual(outcome);
  else expect("error" in got ? got.error : `completed with ${JSON.stringify(got)}`).toMatch(outcome.error);
}

describe("both adapters, the same outcomes", () => {
  it("speaks the specification of the installed ai: V4 with ai 7 (PLANLOOP_AI_SDK_DIR in .ci/run), V3 with ai 6", () => {
    expect(new MockModel({ modelId: "m" }).specificationVersion).toBe(process.env.PLANLOOP_AI_SDK_DIR ? "v4" : "v3");
  });

  for (const situation of situations) {
    it(`${situation.name}: streamed`, async () => {
      server = await startChatServer([openAIStream(situation)]);
      const viaHttp = await outcomeOf(openAICompatible({ baseURL: server.baseURL, model: "m", maxRetries: 0 }));
      const mock = new MockModel({
        modelId: "m",
        doStream: async () => ({ stream: simulateReadableStream({ chunks: aiSdkStream(situation) as never }) }),
      });
      const viaAISDK = await outcomeOf(fromAISDK(mock, { maxRetries: 0 }));
      expectOutcome(viaHttp, situation.outcome);
      expectOutcome(viaAISDK, situation.outcome);
    });
  }

  for (const situation of situations.filter((each) => !each.openAI.cut)) {
    it(`${situation.name}: a whole response`, async () => {
      server = await startChatServer([{ json: { choices: [{ message: { content: text }, finish_reason: situation.openAI.finish }] } }]);
      const viaHttp = await runAgent({
        model: openAICompatible({ baseURL: server.baseURL, model: "m", stream: false }),
        tools: [],
        task: "t",
      }).then(
        (result) => ({ output: String(result.output) }),
        (error: unknown) => ({ error: String((error as Error).message) }),
      );
      const mock = new MockModel({
        modelId: "m",
        doGenerate: { content: [{ type: "text", text }], finishReason: situation.aiSdk.finish, usage, warnings: [] },
      });
      const viaAISDK = await runAgent({ model: fromAISDK(mock), tools: [], task: "t" }).then(
        (result) => ({ output: String(result.output) }),
        (error: unknown) => ({ error: String((error as Error).message) }),
      );
      expectOutcome(viaHttp, situation.outcome);
      expectOutcome(viaAISDK, situation.outcome);
    });
  }

  it("a stream cut short is asked again, and the whole second answer is used, by both", async () => {
    const cut = situations.find((each) => each.openAI.cut)!;
    const whole = situations[0]!;
    server = await startChatServer([openAIStream(cut), openAIStream(whole)]);
    const viaHttp = await outcomeOf(openAICompatible({ baseURL: server.baseURL, model: "m", maxRetries: 1, retryDelayMs: 1 }));
    const streams = [aiSdkStream(cut), aiSdkStream(whole)];
    const mock = new MockModel({
      modelId: "m",
      doStream: async () => ({ stream: simulateReadableStream({ chunks: streams.shift() as never }) }),
    });
    const viaAISDK = await outcomeOf(fromAISDK(mock, { maxRetries: 1 }));
    expect(viaHttp).toEqual({ output: text });
    expect(viaAISDK).toEqual({ output: text });
    expect(server.requests).toHaveLength(2);
    expect(mock.doStreamCalls).toHaveLength(2);
  });

  it("the errors are IncompleteAnswerErrors that say how the answer ended", async () => {
    const mock = new MockModel({
      modelId: "m",
      doGenerate: {
        content: [{ type: "text", text: "The total refund amount is" }],
        finishReason: reason("length", "length"),
        usage,
        warnings: [],
      },
    });
    const error = await runAgent({ model: fromAISDK(mock), tools: [], task: "t" }).catch((caught: unknown) => caught as Error);
    expect(error).toMatchObject({ name: "ModelCallError", cause: { name: "IncompleteAnswerError", end: "token-limit" } });
  });
});
