import { describe, expect, it } from "vitest";
import { retryAfter } from "./retry-after.js";

const now = Date.UTC(2026, 11, 7, 12);
const wait = (headers: Record<string, string>) => retryAfter(new Headers(headers), now);

describe("retryAfter: the time a server asked to wait", () => {
  it("reads delay-seconds, retry-after-ms and an HTTP-date, a minute at most", () => {
    expect(wait({ "retry-after": "20" })).toBe(20_000);
    expect(wait({ "retry-after": " 7 " })).toBe(7_000); // Headers trims the value
    expect(wait({ "retry-after": "0" })).toBe(0);
    expect(wait({ "retry-after": "99999999999999999999" })).toBe(60_000);
    expect(wait({ "retry-after-ms": "1500" })).toBe(1_500);
    expect(wait({ "retry-after-ms": "12.5" })).toBe(12.5);
    expect(wait({ "retry-after-ms": "1e15" })).toBe(60_000);
    expect(wait({ "retry-after": new Date(now + 30_000).toUTCString() })).toBe(30_000);
    expect(wait({ "retry-after": "Fri, 31 Dec 9999 23:59:59 GMT" })).toBe(60_000);
  });

  it("takes a date in the past as no wait (0)", () => {
    expect(wait({ "retry-after": new Date(now - 3_600_000).toUTCString() })).toBe(0);
  });

  it.each(["", "-30", "+30", "0x3C", "1e3", "3.5", "60 s", "banana 2030", "Tomorrow 2030", "Infinity", "NaN"])(
    "Retry-After: %j is no time given",
    (value) => {
      expect(wait({ "retry-after": value })).toBeUndefined();
    },
  );

  it.each(["", "-30000", "0x3C", "soon", "Infinity", "1,000"])("retry-after-ms: %j is no time given, and Retry-After counts", (value) => {
    expect(wait({ "retry-after-ms": value })).toBeUndefined();
    expect(wait({ "retry-after-ms": value, "retry-after": "20" })).toBe(20_000);
  });
});
