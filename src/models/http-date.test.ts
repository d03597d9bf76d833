import { describe, expect, it } from "vitest";
import { parseHttpDate } from "./http-date.js";

const now = Date.UTC(2026, 11, 7, 12);
const nov6 = Date.UTC(1994, 10, 6, 8, 49, 37);

describe("parseHttpDate (RFC 9110 §5.6.7)", () => {
  it("reads the IMF-fixdate and the two obsolete forms", () => {
    expect(parseHttpDate("Sun, 06 Nov 1994 08:49:37 GMT", now)).toBe(nov6);
    expect(parseHttpDate("Sunday, 06-Nov-94 08:49:37 GMT", now)).toBe(nov6);
    expect(parseHttpDate("Sun Nov  6 08:49:37 1994", now)).toBe(nov6);
    expect(parseHttpDate("Sun Nov 16 08:49:37 1994", now)).toBe(Date.UTC(1994, 10, 16, 8, 49, 37));
    expect(parseHttpDate(new Date(now + 30_000).toUTCString(), now)).toBe(now + 30_000);
  });

  it("places rfc850's two-digit year no more than 50 years ahead", () => {
    expect(parseHttpDate("Monday, 01-Jan-76 00:00:00 GMT", now)).toBe(Date.UTC(2076, 0, 1));
    expect(parseHttpDate("Monday, 01-Jan-77 00:00:00 GMT", now)).toBe(Date.UTC(1977, 0, 1));
    expect(parseHttpDate("Monday, 01-Jan-26 00:00:00 GMT", Date.UTC(2090, 0, 1))).toBe(Date.UTC(2126, 0, 1));
  });

  it("reads years below 100 as themselves, and a leap second", () => {
    expect(new Date(parseHttpDate("Sat, 01 Jan 0099 00:00:00 GMT", now)!).getUTCFullYear()).toBe(99);
    expect(parseHttpDate("Sat, 31 Dec 2016 23:59:60 GMT", now)).toBe(Date.UTC(2017, 0, 1));
  });

  it.each([
    "banana 2030",
    "Tomorrow 2030",
    "12/31/2099 please",
    "2030-01-01T00:00:00Z",
    "Sun, 06 Nov 1994 08:49:37 UTC",
    "Sun, 06 Nov 1994 08:49:37 +0000",
    "sun, 06 nov 1994 08:49:37 GMT",
    "Sun, 6 Nov 1994 08:49:37 GMT",
    "Sun,  06 Nov 1994 08:49:37 GMT",
    "Sun, 06 Nov 1994 08:49:37 GMT extra",
    "Sun, 31 Feb 1994 08:49:37 GMT",
    "Sun, 00 Nov 1994 08:49:37 GMT",
    "Sun, 06 Nov 1994 24:00:00 GMT",
    "Sun, 06 Nov 1994 08:60:00 GMT",
    "Sun, 06 Nov 1994 08:49:61 GMT",
    "Sun, 06 Foo 1994 08:49:37 GMT",
    "Sun, 06-Nov-94 08:49:37 GMT",
    "Sunday, 06 Nov 1994 08:49:37 GMT",
    "Sun Nov 6 08:49:37 1994",
    "",
  ])("refuses %j", (value) => {
    expect(parseHttpDate(value, now)).toBeUndefined();
  });
});
