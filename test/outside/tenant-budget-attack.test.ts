import { describe, expect, it } from "vitest";
import { Budget, openAICompatible, providerLimit, runAgent, tenantBudget, type Clock } from "../../src/index.js";

/** The tenant's ledger with nothing spent and nothing in flight can hold a call of the whole day's tokens. */
async function dayIsWhole(ledger: ReturnType<typeof tenantBudget>, maxTokens: number) {
  const probe = { tokens: maxTokens, costUsd: 0 };
  const refused = await ledger.hold(probe);
  if (refused === undefined) ledger.settle(probe, { inputTokens: 0, outputTokens: 0, costUsd: 0 });
  return refused;
}

describe("tenantBudget: a call given up before it was sent", () => {
  /**
   * docs/limits.md, "A tenant's budget for the day":
   *   "a call that ended charges what it really cost and gives the rest back."
   *   "A process that dies while a call is held leaves that hold on the day's ledger until the day
   *    ends [...]. So does a call cut off after it was sent — cancelled, past its deadline, timed
   *    out, a stream left early — since the provider may have spent it"
   * A call cancelled while it still waits for its provider limit's turn was never sent: the
   * provider cannot have spent anything, so its hold goes back (Reservation.cutOff's own
   * comment: "The call was sent and ended without a figure").
   */
  it("a run cancelled while its call waits out a cooldown gives the day its hold back", async () => {
    const ledger = tenantBudget({ tenant: "acme", perDay: { maxTokens: 1_000 } });
    const limit = providerLimit({ name: `cool-${Math.random()}` });
    await limit.coolDown(30_000); // the provider said to wait 30 s
    let sent = 0;
    const fetch = (async () => {
      sent += 1;
      return new Response("{}", { status: 500 });
    }) as typeof globalThis.fetch;
    const model = openAICompatible({
      baseURL: "http://provider.invalid/v1",
      model: "m",
      fetch,
      limit,
      maxOutputTokens: 900,
      stream: false,
    });
    const stop = new AbortController();
    const result = await runAgent({
      model,
      tools: [],
      task: "hi",
      tenant: "acme",
      budget: new Budget({}, { shared: ledger }),
      signal: stop.signal,
      onEvent: (event) => {
        if (event.type === "model-waiting") stop.abort();
      },
    });
    expect(result.status).toBe("cancelled");
    expect(sent, "the call was never sent").toBe(0);
    const refused = await dayIsWhole(ledger, 1_000);
    expect(refused?.message, "the unsent call's worst case is still held on the day's ledger").toBeUndefined();
  });
});

describe("tenantBudget: odd amounts", () => {
  /**
   * docs/limits.md: "A process that dies while a call is held leaves that hold on the day's
   * ledger until the day ends (the tenant may spend less that day, never more)." and
   * "A ledger's `settle` only ever charges: a negative figure credits nothing".
   * A hold is the other door into the ledger: one of a negative worst case must not make room.
   */
  it("a hold of a negative worst case does not let the day pay for more than its budget", async () => {
    const ledger = tenantBudget({ tenant: "acme", perDay: { maxTokens: 1_000, maxCostUsd: 1 } });
    await ledger.hold({ tokens: -5_000, costUsd: -5 }); // refused, or held as nothing: either way no room is made
    const big = await ledger.hold({ tokens: 3_000, costUsd: 3 });
    expect(big, "a 3,000-token call was held on a 1,000-token day").toBeDefined();
  });

  it("(guard, held) a hold of NaN is refused, and settling NaN charges the worst case", async () => {
    const ledger = tenantBudget({ tenant: "acme", perDay: { maxTokens: 1_000 } });
    expect(await ledger.hold({ tokens: Number.NaN, costUsd: 0 })).toBeDefined();
    const held = { tokens: 600, costUsd: 0 };
    expect(await ledger.hold(held)).toBeUndefined();
    ledger.settle(held, { inputTokens: Number.NaN, outputTokens: 1 });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await ledger.hold({ tokens: 500, costUsd: 0 })).toBeDefined(); // 600 charged: 500 more does not fit
    expect(await ledger.hold({ tokens: 400, costUsd: 0 })).toBeUndefined();
  });

  it("(guard, held) settling a negative figure credits nothing", async () => {
    const ledger = tenantBudget({ tenant: "acme", perDay: { maxTokens: 1_000 } });
    const held = { tokens: 500, costUsd: 0 };
    expect(await ledger.hold(held)).toBeUndefined();
    ledger.settle(held, { inputTokens: 700, outputTokens: -10_000 });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await ledger.hold({ tokens: 400, costUsd: 0 })).toBeDefined(); // 700 spent
    expect(await ledger.hold({ tokens: 300, costUsd: 0 })).toBeUndefined();
  });

  it("(guard, held) a day of zero pays for nothing", async () => {
    const ledger = tenantBudget({ tenant: "acme", perDay: { maxTokens: 0 } });
    expect(await ledger.hold({ tokens: 0, costUsd: 0 })).toBeDefined();
  });

  it("(guard, held) perDay amounts that are negative or NaN are refused", () => {
    expect(() => tenantBudget({ tenant: "acme", perDay: { maxTokens: -1 } })).toThrow();
    expect(() => tenantBudget({ tenant: "acme", perDay: { maxCostUsd: Number.NaN } })).toThrow();
  });
});

describe("tenantBudget: the day's edge and a clock set back (guards)", () => {
  it("(guard, held) a call held before midnight and settled after charges the day it was held on", async () => {
    let now = Date.UTC(2026, 11, 7, 23, 59, 59, 900);
    const clock: Clock = {
      now: () => now,
      setTimeout: (callback, ms) => setTimeout(callback, ms),
      clearTimeout: (handle) => clearTimeout(handle as never),
    };
    const ledger = tenantBudget({ tenant: "acme", perDay: { maxTokens: 1_000 }, clock });
    const held = { tokens: 800, costUsd: 0 };
    expect(await ledger.hold(held)).toBeUndefined();
    now += 200; // past midnight UTC
    ledger.settle(held, { inputTokens: 100, outputTokens: 0 });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await ledger.hold({ tokens: 1_000, costUsd: 0 })).toBeUndefined(); // the new day is whole
    now -= 200; // the clock set back into the old day: 100 spent there
    expect(await ledger.hold({ tokens: 950, costUsd: 0 })).toBeDefined();
    expect(await ledger.hold({ tokens: 900, costUsd: 0 })).toBeUndefined();
  });
});

describe("tenantBudget: the refusal (guard)", () => {
  /** docs/limits.md: "a call the day cannot pay is refused before it is made — the run stops `budget_exceeded`, its reason naming the tenant and the day" */
  it("(guard, held) a call the day cannot pay is not made; the reason names the tenant and the day", async () => {
    const now = Date.UTC(2026, 11, 7, 12);
    const clock: Clock = {
      now: () => now,
      setTimeout: (callback, ms) => setTimeout(callback, ms),
      clearTimeout: (handle) => clearTimeout(handle as never),
    };
    const ledger = tenantBudget({ tenant: "ténant \u{1F600}:x", perDay: { maxTokens: 500 }, clock });
    let sent = 0;
    const fetch = (async () => {
      sent += 1;
      return new Response("{}", { status: 500 });
    }) as typeof globalThis.fetch;
    const model = openAICompatible({ baseURL: "http://provider.invalid/v1", model: "m", fetch, maxOutputTokens: 900, stream: false });
    const result = await runAgent({ model, tools: [], task: "hi", budget: new Budget({}, { shared: ledger }) });
    expect(sent).toBe(0);
    expect(result.status).toBe("budget_exceeded");
    expect("reason" in result ? result.reason : "").toContain("ténant \u{1F600}:x");
    expect("reason" in result ? result.reason : "").toContain("2026-12-07");
  });
});

describe("tenantBudget: the same hold settled twice", () => {
  /**
   * docs/limits.md: "(the tenant may spend less that day, never more)"; `SharedBudget.settle`:
   * "The call ended: gives back its hold and charges what it really cost". A call ends once: a
   * second settle of the same hold (a retry path, a double callback) must not give it back again.
   */
  it("settling one hold twice does not make room for more than the day's budget", async () => {
    const ledger = tenantBudget({ tenant: "acme", perDay: { maxTokens: 1_000 } });
    const held = { tokens: 1_000, costUsd: 0 };
    expect(await ledger.hold(held)).toBeUndefined();
    ledger.settle(held, { inputTokens: 100, outputTokens: 0 });
    ledger.settle(held, { inputTokens: 100, outputTokens: 0 }); // the same call, told again
    await new Promise((resolve) => setTimeout(resolve, 10));
    // At least 100 spent (200 if both counted): 950 more must not fit.
    const refused = await ledger.hold({ tokens: 950, costUsd: 0 });
    expect(refused, "950 tokens held after 100 were spent on a 1,000-token day").toBeDefined();
  });
});
