import { describe, expect, it } from "vitest";
import { InvalidOptionsError, providerLimit } from "../../src/index.js";

/**
 * docs/limits.md, "Rate":
 *   "turns spaced evenly, one every `perMs / requests` ms, so no window of `perMs` holds more
 *    than `requests` of them wherever it starts"
 * and "One cooldown": the limit is closed "until then", "a minute at most".
 *
 * `ProviderLimit.coolDown(ms)` is public (a model adapter of one's own closes the limit with the
 * time its provider named). A time it could not read — NaN from `Number(header)` — closes
 * nothing at worst; it must not switch the rate off.
 */
describe("providerLimit.coolDown with a time that is not a number", () => {
  it("coolDown(NaN) leaves the rate in force (the default, in-process store)", async () => {
    const limit = providerLimit({ name: `nan-${Math.random()}`, rate: { requests: 1, perMs: 10_000 } });
    // docs/limits.md: "`coolDown(ms)` takes a finite number >= 0: NaN, a negative or Infinity [...] is
    // refused with an `InvalidOptionsError` and closes nothing".
    await expect(limit.coolDown(Number.NaN)).rejects.toBeInstanceOf(InvalidOptionsError);
    (await limit.turn())();
    // The next turn is 10 s away: within 1 s there is no second one.
    const second = await limit.turn(AbortSignal.timeout(1_000)).then(
      (release) => {
        release();
        return "went at once";
      },
      () => "waited",
    );
    expect(second).toBe("waited");
  });

  it("(guard, held) without coolDown(NaN) the same rate waits", async () => {
    const limit = providerLimit({ name: `plain-${Math.random()}`, rate: { requests: 1, perMs: 10_000 } });
    (await limit.turn())();
    const second = await limit.turn(AbortSignal.timeout(1_000)).then(
      (release) => {
        release();
        return "went at once";
      },
      () => "waited",
    );
    expect(second).toBe("waited");
  });
});
