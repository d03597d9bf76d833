// Outside review (flow control): a tenant's day keeps the hold of "a call cut off after it was
// sent" (docs/limits.md), since the provider may have spent it. Every model path cut off any call
// given up, also one still waiting out a cooldown or its rate turn, so a cancelled run that sent
// nothing held its call's worst case on the day's ledger until midnight. The adapter now says when
// its request goes out (`ModelRequest.onSendState`), and a call given up before that gives its
// hold back: the ReAct loop's call, a strategy's text call, and a streamed one.
import { describe, expect, it } from "vitest";
import { Budget, openAICompatible, providerLimit, runAgent, tenantBudget, type PlanloopEvent } from "../../src/index.js";
import { EventHub } from "../../src/core/events.js";
import { systemClock } from "../../src/core/clock.js";
import { requestText, streamText, type TextCallContext } from "../../src/strategies/text-call.js";

/** Whether the day can still hold a call of its whole budget (nothing spent, nothing in flight). */
async function dayIsWhole(ledger: ReturnType<typeof tenantBudget>, maxTokens: number) {
  const probe = { tokens: maxTokens, costUsd: 0 };
  const refused = await ledger.hold(probe);
  if (refused === undefined) ledger.settle(probe, {});
  return refused === undefined;
}

/** A model behind a limit closed for 30 s, and a run stopped when its call starts to wait. */
async function closedProvider(answer: (signal: AbortSignal | null | undefined) => Promise<Response>, coolDownMs = 30_000) {
  const limit = providerLimit({ name: `unsent-${Math.random()}` });
  if (coolDownMs > 0) await limit.coolDown(coolDownMs);
  const seen = { sent: 0 };
  const fetch = (async (_url: unknown, init?: RequestInit) => {
    seen.sent += 1;
    return answer(init?.signal);
  }) as typeof globalThis.fetch;
  const model = openAICompatible({ baseURL: "http://provider.invalid/v1", model: "m", fetch, limit, maxOutputTokens: 900 });
  const stop = new AbortController();
  const onEvent = (event: PlanloopEvent) => {
    if (event.type === "model-waiting") stop.abort(new Error("the person cancelled the run"));
  };
  return { model, seen, stop, onEvent };
}

const never = () => new Promise<Response>(() => {});

function textContext(provider: Awaited<ReturnType<typeof closedProvider>>, ledger: ReturnType<typeof tenantBudget>): TextCallContext {
  return {
    model: provider.model,
    signal: provider.stop.signal,
    budget: new Budget({}, { shared: ledger }),
    events: new EventHub({ listener: provider.onEvent }),
    clock: systemClock,
    tenant: "acme",
  };
}

describe("a call given up before it was sent gives the tenant's day its hold back", () => {
  it("a strategy's text call (a planner's) cancelled while it waits out a cooldown", async () => {
    const ledger = tenantBudget({ tenant: "acme", perDay: { maxTokens: 1_000 } });
    const provider = await closedProvider(never);
    await expect(requestText(textContext(provider, ledger), "plan", [{ role: "user", content: "plan" }])).rejects.toThrow();
    expect(provider.seen.sent).toBe(0);
    expect(await dayIsWhole(ledger, 1_000)).toBe(true);
  });

  it("a streamed text call (LLMCompiler's planner) cancelled while it waits out a cooldown", async () => {
    const ledger = tenantBudget({ tenant: "acme", perDay: { maxTokens: 1_000 } });
    const provider = await closedProvider(never);
    const reading = (async () => {
      for await (const _text of streamText(textContext(provider, ledger), "plan", [{ role: "user", content: "plan" }]));
    })();
    await expect(reading).rejects.toThrow();
    expect(provider.seen.sent).toBe(0);
    expect(await dayIsWhole(ledger, 1_000)).toBe(true);
  });

  it("(guard) a call cancelled after it was sent keeps its hold: the provider may have spent it", async () => {
    const ledger = tenantBudget({ tenant: "acme", perDay: { maxTokens: 1_000 } });
    const stop = new AbortController();
    const provider = await closedProvider(async () => {
      setTimeout(() => stop.abort(new Error("the person cancelled the run")), 10);
      return never();
    }, 0);
    const budget = new Budget({}, { shared: ledger });
    const result = await runAgent({ model: provider.model, tools: [], task: "hi", tenant: "acme", budget, signal: stop.signal });
    expect(result.status).toBe("cancelled");
    expect(provider.seen.sent).toBe(1);
    expect(await dayIsWhole(ledger, 1_000)).toBe(false);
  });

  it("(guard) a model that says nothing of its sending keeps the hold of a call given up", async () => {
    const ledger = tenantBudget({ tenant: "acme", perDay: { maxTokens: 1_000 } });
    const stop = new AbortController();
    const model = Object.assign(
      () => {
        setTimeout(() => stop.abort(new Error("cancelled")), 10);
        return new Promise<never>(() => {});
      },
      { maxCallCost: () => ({ tokens: 600, costUsd: 0 }) },
    );
    const budget = new Budget({}, { shared: ledger });
    const result = await runAgent({ model, tools: [], task: "hi", tenant: "acme", budget, signal: stop.signal });
    expect(result.status).toBe("cancelled");
    expect(await dayIsWhole(ledger, 1_000)).toBe(false);
  });
});
