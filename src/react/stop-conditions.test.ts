import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Budget, defineTool, runAgent } from "planloop";
import { FakeClock, ScriptedModel, flush } from "planloop/testing";

const call = (id: string | number, name: string, args: unknown = {}) => ({ id, name, arguments: args });
const lookup = defineTool({
  name: "lookup",
  description: "Look something up",
  input: z.object({ q: z.string(), page: z.number().optional() }),
  execute: ({ q }) => `result for ${q}`,
});
const looping =
  (args: (step: number) => unknown = (step) => ({ q: `q${step}` })) =>
  async ({ step }: { step: number }) => ({
    type: "tool_calls" as const,
    calls: [call(`c${step}`, "lookup", args(step))],
    usage: { inputTokens: 100 + step * 50, outputTokens: 10, costUsd: 0.01 },
  });

/** A model function that counts its calls. */
function counted(model: ReturnType<typeof looping>) {
  const wrapped = Object.assign(
    (request: { step: number }) => {
      wrapped.calls += 1;
      return model(request);
    },
    { calls: 0 },
  );
  return wrapped;
}

describe("stop conditions", () => {
  it("max_steps_exceeded after exactly maxSteps model calls", async () => {
    const model = counted(looping());
    const result = await runAgent({ model, tools: [lookup], maxSteps: 3 });
    const calls = model.calls;
    expect(result).toMatchObject({ status: "max_steps_exceeded", steps: 3 });
    expect(calls).toBe(3);
    expect(result.reason).toContain("3 steps");
    expect(result.state?.steps).toBe(3);
  });

  it("cancelled: an abort during a slow tool returns without waiting for the tool", async () => {
    const clock = new FakeClock();
    const controller = new AbortController();
    let toolSignal: AbortSignal | undefined;
    const slow = defineTool({
      name: "slow",
      description: "Takes a minute",
      input: z.object({}),
      execute: (_args, { signal }) => {
        toolSignal = signal;
        return clock.sleep(60_000);
      },
    });
    const model = new ScriptedModel([{ type: "tool_calls", calls: [call(1, "slow")] }]);
    const pending = runAgent({ model, tools: [slow], signal: controller.signal, clock });
    await flush();
    controller.abort(new Error("user pressed stop"));
    const result = await pending;
    expect(clock.now()).toBe(0);
    expect(result.status).toBe("cancelled");
    expect(result.reason).toBe("user pressed stop");
    expect(toolSignal?.aborted).toBe(true);
    expect(result.messages.at(-1)).toMatchObject({ role: "tool", toolCallId: 1, error: { kind: "cancelled" } });
  });

  it("cancelled before the first call, and the model receives the signal", async () => {
    const controller = new AbortController();
    let modelSignal: AbortSignal | undefined;
    const pending = runAgent({
      model: ({ signal }) => {
        modelSignal = signal;
        return new Promise(() => {});
      },
      tools: [],
      signal: controller.signal,
    });
    await flush();
    controller.abort();
    expect((await pending).status).toBe("cancelled");
    expect(modelSignal?.aborted).toBe(true);
    const early = await runAgent({ model: () => ({ type: "final", content: "x" }), tools: [], signal: AbortSignal.abort() });
    expect(early).toMatchObject({ status: "cancelled", steps: 0 });
  });

  it("deadline_exceeded: the deadline aborts the call in flight", async () => {
    const clock = new FakeClock();
    let modelSignal: AbortSignal | undefined;
    const model = new ScriptedModel([
      { type: "tool_calls", calls: [call(1, "lookup", { q: "a" })] },
      ({ signal }) => {
        modelSignal = signal;
        return clock.sleep(10_000, signal).then(() => ({ type: "final", content: "late" }) as const);
      },
    ]);
    const pending = runAgent({ model, tools: [lookup], clock, budget: { deadlineMs: 5_000 } });
    await clock.advance(5_000);
    const result = await pending;
    expect(result).toMatchObject({ status: "deadline_exceeded", limit: "deadlineMs", steps: 2 });
    expect(modelSignal?.aborted).toBe(true);
    expect(clock.pendingTimers).toBe(0);
  });

  it("budget_exceeded on tokens before a call the budget cannot pay for", async () => {
    const model = counted(looping());
    const result = await runAgent({ model, tools: [lookup], maxSteps: 50, budget: { maxTokens: 400 } });
    const calls = model.calls;
    // Call 1 uses 110 tokens, call 2 uses 160: 270 spent. The next prompt holds the last one
    // (160), so 270 + 160 > 400 and the third call is never started.
    expect(calls).toBe(2);
    expect(result).toMatchObject({ status: "budget_exceeded", limit: "maxTokens" });
    expect(result.usage.inputTokens + result.usage.outputTokens).toBe(270);
  });

  it("budget_exceeded on cost and on tool calls, naming the limit", async () => {
    const byCost = await runAgent({ model: looping(), tools: [lookup], maxSteps: 50, budget: { maxCostUsd: 0.035 } });
    expect(byCost).toMatchObject({ status: "budget_exceeded", limit: "maxCostUsd", usage: { modelCalls: 3 } });
    const byCalls = await runAgent({ model: looping(), tools: [lookup], maxSteps: 50, budget: { maxToolCalls: 2 } });
    expect(byCalls).toMatchObject({ status: "budget_exceeded", limit: "maxToolCalls", usage: { toolCalls: 2 } });
  });

  it("a round asking for more calls than the budget allows runs only what it can pay for", async () => {
    const model = new ScriptedModel([
      { type: "tool_calls", calls: [call(1, "lookup", { q: "a" }), call(2, "lookup", { q: "b" }), call(3, "lookup", { q: "c" })] },
    ]);
    const result = await runAgent({ model, tools: [lookup], budget: { maxToolCalls: 2 } });
    expect(result).toMatchObject({ status: "budget_exceeded", limit: "maxToolCalls", usage: { toolCalls: 2 } });
    expect(result.messages.at(-1)).toMatchObject({ toolCallId: 3, error: { kind: "budget_exhausted" } });
  });

  it("a shared budget stops the inner loop when the enclosing run's limit is reached", async () => {
    const shared = new Budget({ maxToolCalls: 3 });
    const first = await runAgent({ model: looping(), tools: [lookup], budget: shared, maxSteps: 2 });
    expect(first.status).toBe("max_steps_exceeded");
    const second = await runAgent({ model: looping(), tools: [lookup], budget: shared.child(), maxSteps: 10 });
    expect(second).toMatchObject({ status: "budget_exceeded", limit: "maxToolCalls", usage: { toolCalls: 1 } });
    expect(shared.spent.toolCalls).toBe(3);
  });

  it("no_progress: the same call with its arguments in any key order", async () => {
    const orders = [
      { q: "x", page: 1 },
      { page: 1, q: "x" },
      { q: "x", page: 1 },
    ];
    const result = await runAgent({ model: looping((step) => orders[step]), tools: [lookup], maxSteps: 10 });
    expect(result).toMatchObject({ status: "no_progress", steps: 3 });
    expect(result.reason).toContain('"lookup" was called 3 times');
    const relaxed = await runAgent({
      model: looping((step) => orders[step % 3]),
      tools: [lookup],
      maxSteps: 4,
      noProgress: { maxRepeats: 5 },
    });
    expect(relaxed.status).toBe("max_steps_exceeded");
    const off = await runAgent({ model: looping(() => ({ q: "x" })), tools: [lookup], maxSteps: 4, noProgress: false });
    expect(off.status).toBe("max_steps_exceeded");
  });

  it("no_progress: the same error in a row, reset by a successful observation", async () => {
    const flaky = defineTool({
      name: "flaky",
      description: "Fails unless ok",
      input: z.object({ n: z.number(), ok: z.boolean() }),
      execute: ({ ok }) => {
        if (!ok) throw new Error("service unavailable");
        return "fine";
      },
    });
    const script = [false, false, true, false, false, false];
    const result = await runAgent({
      model: ({ step }) => ({ type: "tool_calls", calls: [call(step, "flaky", { n: step, ok: script[step] })] }),
      tools: [flaky],
      maxSteps: 10,
    });
    expect(result).toMatchObject({ status: "no_progress", steps: 6, lastError: { kind: "execution_failed" } });
    expect(result.reason).toContain("the same error 3 times in a row");
  });

  it("no_progress counts repeats across decisions: alike calls in one decision are one attempt", async () => {
    const down = defineTool({
      name: "down",
      description: "Always fails",
      input: z.object({ region: z.string() }),
      execute: () => {
        throw new Error("service unavailable");
      },
    });
    // Three calls in one decision: three that fail alike, then three identical successful ones.
    const model = new ScriptedModel([
      { type: "tool_calls", calls: [1, 2, 3].map((n) => call(`d${n}`, "down", { region: `r${n}` })) },
      { type: "tool_calls", calls: [1, 2, 3].map((n) => call(`l${n}`, "lookup", { q: "same" })) },
      { type: "final", content: "done after seeing the results" },
    ]);
    const result = await runAgent({ model, tools: [down, lookup], maxSteps: 5 });
    expect(result).toMatchObject({ status: "completed", steps: 3, output: "done after seeing the results" });
    expect(model.requests).toHaveLength(3);
  });

  it("verify feedback goes back to the model and the loop continues", async () => {
    const model = new ScriptedModel([
      { type: "final", content: "draft" },
      { type: "final", content: "fixed" },
    ]);
    const result = await runAgent({
      model,
      tools: [],
      verify: ({ output }) => (output === "fixed" ? { passed: true } : { passed: false, feedback: "missing the total" }),
    });
    expect(result).toMatchObject({ status: "completed", output: "fixed", steps: 2 });
    expect(model.requests[1]?.messages.at(-1)).toMatchObject({ role: "user", content: expect.stringContaining("missing the total") });
  });

  it("incomplete: the answer is rejected and no step is left to fix it", async () => {
    const model = new ScriptedModel([
      { type: "final", content: "draft" },
      { type: "final", content: "draft 2" },
    ]);
    const result = await runAgent({ model, tools: [], maxSteps: 2, verify: () => ({ passed: false, feedback: "tests fail" }) });
    expect(result).toMatchObject({ status: "incomplete", output: "draft 2", steps: 2 });
    expect(result.reason).toContain("tests fail");
  });

  it("incomplete when the token budget cannot pay for a fix", async () => {
    const model = new ScriptedModel([{ type: "final", content: "draft", usage: { inputTokens: 90, outputTokens: 10 } }]);
    const result = await runAgent({ model, tools: [], budget: { maxTokens: 150 }, verify: () => ({ passed: false, feedback: "no" }) });
    expect(result).toMatchObject({ status: "incomplete", output: "draft", limit: "maxTokens" });
  });

  it("unverified: the verifier threw; the output and the error are kept", async () => {
    const model = new ScriptedModel([{ type: "final", content: "answer" }]);
    const result = await runAgent({
      model,
      tools: [],
      verify: () => {
        throw new Error("test runner crashed");
      },
    });
    expect(result).toMatchObject({
      status: "unverified",
      output: "answer",
      lastError: { source: "verifier", message: "test runner crashed" },
    });
  });
});
