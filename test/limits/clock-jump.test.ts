// Outside review (flow control): a limit's line keeps wall-clock times (the next turn, the
// cooldown, tenants' claims) in its store. A clock set back (an NTP step, a person fixing the
// time) leaves the line an hour "ahead": every call in every process sharing it waits that hour.
import { afterEach, describe, expect, it, vi } from "vitest";
import { providerLimit, type ProviderLimit, type ProviderLimitOptions } from "../../src/limits/provider-limit.js";

afterEach(() => {
  vi.restoreAllMocks();
});

/** When the call after the clock was set back `backMs` would get its turn, measured on the new clock. */
async function waitAfterSettingBack(
  tenant: string | undefined,
  backMs: number,
  {
    before = async (limit) => (await limit.turn(undefined, undefined, { tenant }))(),
    options = { requestsPerMinute: 60 },
    tokens,
  }: { before?: (limit: ProviderLimit) => Promise<void>; options?: Partial<ProviderLimitOptions>; tokens?: number } = {},
): Promise<number> {
  const limit = providerLimit({ name: "clock", ...options });
  await before(limit);
  const real = Date.now;
  vi.spyOn(Date, "now").mockImplementation(() => real() - backMs);
  let until = Date.now();
  const stop = new AbortController();
  const turn = limit.turn(stop.signal, (at) => (until = at), { tenant, tokens }).then((release) => release());
  // The call has booked (and said until when it waits), or gone.
  await new Promise((resolve) => setTimeout(resolve, 50));
  stop.abort();
  await turn.catch(() => undefined);
  const waited = until - Date.now();
  // The clock as it was, so the next measure sets back the real one (not its own mock).
  vi.restoreAllMocks();
  return waited;
}

describe("a clock set back an hour", () => {
  // The stored line is an hour ahead of the new clock: further than one booking can put it, so
  // the store starts it again from the caller's now (src/core/next-turn.ts).
  it("does not hold the next call back for the hour (plain booking and a tenant's)", async () => {
    expect(await waitAfterSettingBack(undefined, 3_600_000)).toBeLessThan(5_000);
    expect(await waitAfterSettingBack("acme", 3_600_000)).toBeLessThan(5_000);
  });

  // A cooldown is a minute at most (the longest Retry-After honoured): one that ends further ahead
  // was set on the clock before it went back, and is over.
  it("does not hold the next call back for the hour after a cooldown set just before", async () => {
    const coolDown = async (limit: ProviderLimit) => limit.coolDown(30_000);
    expect(await waitAfterSettingBack(undefined, 3_600_000, { before: coolDown })).toBeLessThan(5_000);
    expect(await waitAfterSettingBack("acme", 3_600_000, { before: coolDown })).toBeLessThan(5_000);
    expect(await waitAfterSettingBack(undefined, 3_600_000, { before: coolDown, options: {} })).toBeLessThan(5_000);
    // Set back less than the bound: the cooldown is waited out.
    expect(await waitAfterSettingBack(undefined, 1_000, { before: coolDown })).toBeGreaterThan(25_000);
  });

  // The tokens' line may be far ahead by right (the worst cases of many calls): it is moved back by
  // as much as the clock went back, so what was booked before still counts.
  it("moves the tokens' line back by the setback: the next call waits for the tokens booked, not the hour", async () => {
    const options = { tokenRate: { tokens: 1000, perMs: 1000 } };
    const holdAMinute = async (limit: ProviderLimit) => (await limit.turn(undefined, undefined, { tokens: 60_000 }))();
    const waited = await waitAfterSettingBack(undefined, 3_600_000, { before: holdAMinute, options, tokens: 10 });
    expect(waited).toBeGreaterThan(55_000);
    expect(waited).toBeLessThan(65_000);
    // A plain booking's give-back after the setback gives back on the moved line.
    const settled = async (limit: ProviderLimit) => {
      await holdAMinute(limit);
      await limit.settleTokens(60_000, 0);
    };
    expect(await waitAfterSettingBack(undefined, 3_600_000, { before: settled, options, tokens: 10 })).toBeLessThan(5_000);
  });
});
