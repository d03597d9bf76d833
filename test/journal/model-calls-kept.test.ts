// A stored run keeps what each model call was sent and answered (journal `model-call`), with
// secret keys masked, as differences so a long loop's journal grows with what it says; it can
// be turned off per run, and with a stateSecret the calls are sealed like model texts.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, memoryStore, modelCallsOf, planAndExecute, runAgent, type Message, type ModelRequest } from "planloop";
import { ScriptedModel } from "planloop/testing";

const lookup = defineTool({
  name: "lookup",
  description: "Look a word up",
  input: z.object({ word: z.string(), apiKey: z.string().optional() }),
  execute: ({ word }) => `the meaning of ${word}`,
});

/** A model that calls `lookup` `turns` times, then answers; it records a copy of each request's messages. */
function lookingModel(turns: number) {
  const seen: Message[][] = [];
  const model = (request: ModelRequest) => {
    seen.push(structuredClone([...request.messages]));
    if (seen.length > turns) return { type: "final" as const, content: "done", reasoning: "I have enough" };
    return {
      type: "tool_calls" as const,
      calls: [{ id: `c${seen.length}`, name: "lookup", arguments: { word: `w${seen.length}`, apiKey: "sk-live-123" } }],
      usage: { inputTokens: 10 * seen.length, outputTokens: 3 },
    };
  };
  return { model, seen };
}

describe("model calls kept in the store", () => {
  it("a loop's calls are kept in order with the messages sent, the answer and usage; each keeps only its new messages", async () => {
    const store = memoryStore();
    const { model, seen } = lookingModel(4);
    const result = await runAgent({
      model,
      tools: [lookup],
      messages: [{ role: "user", content: "define five words" }],
      store,
      runId: "loop",
    });
    expect(result.status).toBe("completed");
    const run = await store.getRun("loop");
    const calls = modelCallsOf(run!.journal);
    expect(calls.map((call) => call.purpose)).toEqual(["act", "act", "act", "act", "act"]);
    expect(calls.map((call) => call.step)).toEqual([0, 1, 2, 3, 4]);
    // The messages rebuilt are those the model was sent, secrets masked.
    const masked = (messages: Message[]) => JSON.parse(JSON.stringify(messages).replaceAll("sk-live-123", "[masked]")) as Message[];
    expect(calls.map((call) => call.messages)).toEqual(seen.map(masked));
    expect(calls[0]!.answer!.toolCalls![0]!.arguments).toEqual({ word: "w1", apiKey: "[masked]" });
    expect(calls[1]!.usage).toEqual({ inputTokens: 20, outputTokens: 3 });
    expect(calls[4]!.answer).toEqual({ text: "done", reasoning: "I have enough" });
    expect(calls[0]!.tools).toEqual(["lookup"]);
    // Stored as differences: after the first, a call adds its two new messages (the answer before it, the tool result).
    const kept = run!.journal.flatMap((entry) => (entry.kind === "model-call" ? [entry.call] : []));
    expect(kept.slice(1).map((call) => call.added.length)).toEqual([2, 2, 2, 2]);
    expect(kept.slice(1).every((call, index) => call.base === kept[index]!.id && call.shared! > 0)).toBe(true);
    expect(JSON.stringify(run!.journal)).not.toContain("sk-live-123");
  });

  it("keepModelCalls: false keeps none", async () => {
    const store = memoryStore();
    const { model } = lookingModel(2);
    await runAgent({ model, tools: [lookup], messages: [{ role: "user", content: "go" }], store, runId: "quiet", keepModelCalls: false });
    const run = await store.getRun("quiet");
    expect(run!.journal.some((entry) => entry.kind === "model-call")).toBe(false);
    expect(run!.status).toBe("finished");
  });

  it("a failed call is kept with its error", async () => {
    const store = memoryStore();
    const model = () => {
      throw new Error("the provider is down");
    };
    await expect(runAgent({ model, tools: [lookup], messages: [{ role: "user", content: "go" }], store, runId: "down" })).rejects.toThrow(
      /provider is down/,
    );
    const calls = modelCallsOf((await store.getRun("down"))!.journal);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ purpose: "act", step: 0, error: "the provider is down" });
    expect(calls[0]!.answer).toBeUndefined();
  });

  it("a strategy keeps its plan call with the response format and the raw text, and its steps' calls in their own runs", async () => {
    const store = memoryStore();
    const plan = JSON.stringify({ steps: [{ id: "a", task: "look up x", tool: "lookup", args: { word: "x" } }] });
    const planner = new ScriptedModel([
      { purpose: "plan", reply: { type: "final", content: `Here is the plan:\n${plan}` } },
      { purpose: "solve", reply: { type: "final", content: "x means something" } },
    ]);
    const result = await planAndExecute({ task: "what is x", planner, tools: [lookup], store, runId: "pe" });
    expect(result.status).toBe("completed");
    const calls = modelCallsOf((await store.getRun("pe"))!.journal);
    expect(calls.map((call) => call.purpose)).toEqual(["plan", "solve"]);
    expect(calls[0]!.responseFormat).toBe("plan");
    expect(calls[0]!.answer!.text).toBe(`Here is the plan:\n${plan}`);
    expect(calls[0]!.messages.some((message) => message.role === "user" && message.content.includes("what is x"))).toBe(true);
  });

  it("with a stateSecret the calls are sealed in the store and open when read through the run", async () => {
    const raw = memoryStore();
    const { model } = lookingModel(1);
    const task = "a task whose words are private";
    await runAgent({
      model,
      tools: [lookup],
      messages: [{ role: "user", content: task }],
      store: raw,
      runId: "sealed",
      stateSecret: "s".repeat(32),
    });
    const stored = await raw.getRun("sealed");
    const entries = stored!.journal.filter((entry) => entry.kind === "model-call");
    expect(entries.length).toBe(2);
    expect(JSON.stringify(entries)).not.toContain("private");
  });
});
