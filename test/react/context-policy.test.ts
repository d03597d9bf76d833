// A context policy keeps every request of a long ReAct run under a token cap: the system
// prompt, the task and the newest turn always stay; older turns are left out, folded into a
// summary, or trimmed by the user's function; long old outputs become previews with a handle.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { approximateTokens, defineTool, executePlan, runAgent, type Message, type ModelDecision, type ModelRequest } from "planloop";

const page = (n: number) => `page ${n}: ${"lorem ipsum dolor sit amet ".repeat(60)}`;
const fetchPage = defineTool({
  name: "fetch_page",
  description: "Fetch a page",
  input: z.object({ n: z.number() }),
  execute: ({ n }) => page(n),
});

/** A model that reads pages 1..`pages` one per step, then answers; it records what each request carried. */
function pageReader(pages: number, extra?: (request: ModelRequest) => ModelDecision | undefined) {
  const requests: ModelRequest[] = [];
  const model = (request: ModelRequest): ModelDecision => {
    if (request.purpose === "summarize")
      return {
        type: "final",
        content: `summary #${requests.filter((r) => r.purpose === "summarize").length}`,
        usage: { inputTokens: 100, outputTokens: 10 },
      };
    // The loop hands over its own history array when nothing is trimmed: keep the request as it was.
    requests.push({ ...request, messages: [...request.messages] });
    const taken = extra?.(request);
    if (taken) return taken;
    const step = requests.filter((r) => r.purpose === "act").length;
    if (step > pages) return { type: "final", content: "read them all" };
    return { type: "tool_calls", calls: [{ id: `c${step}`, name: "fetch_page", arguments: { n: step } }] };
  };
  return { model, requests, acts: () => requests.filter((request) => request.purpose === "act") };
}

const system: Message = { role: "system", content: "You read pages." };

/** Every tool message follows the assistant turn that called it, and every call has its result. */
function pairsWhole(messages: readonly Message[]): boolean {
  for (const [index, message] of messages.entries()) {
    if (message.role === "assistant" && message.toolCalls) {
      const results = new Set(
        messages
          .slice(index + 1)
          .filter((m) => m.role === "tool")
          .map((m) => (m as { toolCallId: unknown }).toolCallId),
      );
      if (!message.toolCalls.every((call) => results.has(call.id))) return false;
    }
    if (message.role === "tool") {
      const before = messages
        .slice(0, index)
        .reverse()
        .find((m) => m.role !== "tool");
      if (before?.role !== "assistant" || !before.toolCalls?.some((call) => call.id === message.toolCallId)) return false;
    }
  }
  return true;
}

describe("context: recent", () => {
  it("keeps every request under the cap over 60 steps, with the system prompt, the task and the newest turn", async () => {
    const reader = pageReader(60);
    const cuts: number[] = [];
    const result = await runAgent({
      model: reader.model,
      tools: [fetchPage],
      messages: [system],
      task: "Read pages 1 to 60",
      maxSteps: 61,
      context: { maxTokens: 3_000 },
      onEvent: (event) => event.type === "context-cut" && cuts.push(event.leftOut),
    });
    expect(result.status).toBe("completed");
    expect(result.messages).toHaveLength(2 + 60 * 2 + 1);
    for (const request of reader.acts()) {
      expect(approximateTokens(request.messages)).toBeLessThanOrEqual(3_000);
      expect(request.messages.slice(0, 2)).toEqual([system, { role: "user", content: "Read pages 1 to 60" }]);
      expect(pairsWhole(request.messages)).toBe(true);
    }
    const last = reader.acts().at(-1)!.messages;
    expect(last.at(-1)).toMatchObject({ role: "tool", content: page(60) });
    expect(last[2]).toMatchObject({ role: "user", content: expect.stringMatching(/earlier messages were left out/) });
    // The cut moves now and then, not at every step.
    expect(cuts.length).toBeGreaterThan(1);
    expect(cuts.length).toBeLessThan(20);
    expect(cuts).toEqual([...cuts].sort((a, b) => a - b));
  });

  it("shows long outputs of older turns as a preview with a handle, and read_observation reads them back", async () => {
    let read: unknown;
    const reader = pageReader(3, (request) => {
      const acts = request.messages.filter((m) => m.role === "assistant").length;
      const tool = request.messages.at(-1);
      if (tool?.role === "tool" && tool.name === "read_observation") read = tool.content;
      if (acts === 2 && read === undefined) {
        const shortened = request.messages.find((m) => m.role === "tool" && typeof m.content === "string" && m.content.includes("obs:"));
        const handle = /"handle":"(obs:\d+)"/.exec(String(shortened?.content))?.[1];
        return { type: "tool_calls", calls: [{ id: "r1", name: "read_observation", arguments: { handle, offset: 5 } }] };
      }
      return undefined;
    });
    const result = await runAgent({
      model: reader.model,
      tools: [fetchPage],
      task: "Read",
      maxSteps: 8,
      context: { maxTokens: 4_000, maxObservationTokens: 100 },
    });
    expect(result.status).toBe("completed");
    expect(reader.acts()[1]!.tools.map((tool) => tool.name)).toEqual(["fetch_page", "read_observation"]);
    expect(read).toMatchObject({ handle: "obs:2", offset: 5, total: page(1).length, text: page(1).slice(5, 4_005) });
    // The newest turn is never shortened.
    expect(reader.acts()[1]!.messages.at(-1)).toMatchObject({ content: page(1) });
    const reading = result.messages.find((m) => m.role === "tool" && m.name === "read_observation");
    expect(reading).toMatchObject({ role: "tool" });
    expect(reading && "error" in reading ? reading.error : undefined).toBeUndefined();
  });
});

describe("context: summarize", () => {
  it("folds older turns into a summary written by a summarize call, counted in usage, and keeps it across a pause", async () => {
    const summarized: ModelRequest[] = [];
    const summarizer = (request: ModelRequest): ModelDecision => {
      summarized.push(request);
      return { type: "final", content: `summary ${summarized.length}`, usage: { inputTokens: 500, outputTokens: 20, costUsd: 0.01 } };
    };
    const reader = pageReader(30);
    const options = {
      model: reader.model,
      tools: [fetchPage],
      messages: [system],
      task: "Read pages 1 to 30",
      context: { maxTokens: 1_500, keep: "summarize" as const, summarizer },
    };
    const first = await runAgent({ ...options, maxSteps: 15 });
    expect(first.status).toBe("max_steps_exceeded");
    expect(summarized.length).toBeGreaterThan(0);
    expect(summarized[0]!.purpose).toBe("summarize");
    expect(JSON.stringify(summarized[0]!.messages)).toContain("page 1:");
    expect(first.usage.modelCalls).toBe(15 + summarized.length);
    expect(first.usage.costUsd).toBeCloseTo(0.01 * summarized.length);
    expect(first.state?.context?.summary).toBe(`summary ${summarized.length}`);
    const before = summarized.length;
    const resumed = await runAgent({ ...options, maxSteps: 40, resume: first.state! });
    expect(resumed.status).toBe("completed");
    // The resumed run starts from the kept cut and summary: its first request is already folded,
    // and the next summary builds on the kept one.
    expect(reader.acts()[15]!.messages[2]).toMatchObject({ role: "user", content: expect.stringContaining("Summary of the work so far") });
    expect(summarized.length).toBeGreaterThan(before);
    expect(JSON.stringify(summarized[before]!.messages)).toContain(`The summary so far:\\nsummary ${before}`);
    for (const request of reader.acts()) expect(approximateTokens(request.messages)).toBeLessThanOrEqual(1_500);
    // A later summary starts from the one before.
    expect(JSON.stringify(summarized.at(-1)!.messages)).toContain(`summary ${summarized.length - 1}`);
  });
});

describe("context: a summary too long", () => {
  it("is cut to its share of the cap, with a marker: a summarizer that writes 1 MB keeps no request over maxTokens", async () => {
    const huge = "fact ".repeat(200_000);
    const summarizer = (): ModelDecision => ({ type: "final", content: huge });
    const reader = pageReader(30);
    const result = await runAgent({
      model: reader.model,
      tools: [fetchPage],
      messages: [system],
      task: "Read pages 1 to 30",
      context: { maxTokens: 1_500, maxObservationTokens: 200, keep: "summarize", summarizer },
      maxSteps: 40,
    });
    expect(result.status).toBe("completed");
    const summaries = reader
      .acts()
      .flatMap((request) =>
        request.messages.filter(
          (message) => typeof message.content === "string" && message.content.startsWith("Summary of the work so far"),
        ),
      );
    expect(summaries.length).toBeGreaterThan(0);
    expect(String(summaries[0]!.content)).toContain("[the summary was cut to its share of the context, 200 tokens]");
    for (const request of reader.acts()) expect(approximateTokens(request.messages)).toBeLessThanOrEqual(1_500);
  });
});

describe("context: options", () => {
  it("takes a function that trims the history its own way", async () => {
    const reader = pageReader(3);
    const result = await runAgent({
      model: reader.model,
      tools: [fetchPage],
      task: "Read",
      context: { maxTokens: 1_000, keep: (messages) => (messages.length <= 3 ? messages : [messages[0]!, ...messages.slice(-2)]) },
    });
    expect(result.status).toBe("completed");
    expect(reader.acts().map((request) => request.messages.length)).toEqual([1, 3, 3, 3]);
  });

  it("refuses a cap too small, an unknown keep, and a tool that clashes with read_observation", async () => {
    const model = () => ({ type: "final" as const, content: "x" });
    await expect(runAgent({ model, tools: [], task: "t", context: { maxTokens: 10 } })).rejects.toThrow(
      "context.maxTokens must be an integer >= 64",
    );
    await expect(runAgent({ model, tools: [], task: "t", context: { maxTokens: 1_000, keep: "oldest" as never } })).rejects.toThrow(
      'context.keep must be "recent", "summarize" or a function',
    );
    const clash = defineTool({ name: "read_observation", description: "mine", input: z.object({}), execute: () => 1 });
    await expect(runAgent({ model, tools: [clash], task: "t", context: { maxTokens: 1_000 } })).rejects.toThrow(
      "clashes with the built-in one",
    );
  });

  it("applies to agent steps of a plan (agentContext)", async () => {
    const reader = pageReader(20);
    const result = await executePlan({
      plan: { steps: [{ id: 1, task: "read pages 1 to 20" }] },
      tools: [fetchPage],
      model: reader.model,
      agentMaxSteps: 21,
      agentContext: { maxTokens: 2_000 },
    });
    expect(result.status).toBe("completed");
    expect(reader.acts()).toHaveLength(21);
    for (const request of reader.acts()) expect(approximateTokens(request.messages)).toBeLessThanOrEqual(2_000);
  });
});
