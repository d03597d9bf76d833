// Outside review (flow control): a limit's line keeps wall-clock times (the next turn, the
// cooldown, tenants' claims) in its store. A clock set back (an NTP step, a person fixing the
// time) leaves the line an hour "ahead": every call in every process sharing it waits that hour.
import { afterEach, describe, expect, it, vi } from "vitest";
import { providerLimit } from "../../src/limits/provider-limit.js";

afterEach(() => {
  vi.restoreAllMocks();
});

/** When the call after the clock was set back `backMs` would get its turn, measured on the new clock. */
async function waitAfterSettingBack(tenant: string | undefined, backMs: number): Promise<number> {
  const limit = providerLimit({ name: "clock", requestsPerMinute: 60 });
  (await limit.turn(undefined, undefined, { tenant }))();
  const real = Date.now;
  vi.spyOn(Date, "now").mockImplementation(() => real() - backMs);
  let until = Date.now();
  const stop = new AbortController();
  const turn = limit.turn(stop.signal, (at) => (until = at), { tenant }).then((release) => release());
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
});
