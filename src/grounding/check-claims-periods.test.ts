import { describe, expect, it } from "vitest";
import { checkClaims } from "./check-claims.js";

const status = (answer: string, output: unknown) =>
  checkClaims(answer, [{ id: 1, output }])
    .claims.filter((claim) => claim.kind === "number")
    .map((claim) => claim.status);

describe("periods as tools write them", () => {
  it("a year held as a number orders a table's rows and names them", () => {
    const years = [
      { year: 2024, revenue: 1000 },
      { year: 2025, revenue: 1150 },
    ];
    expect(status("Revenue grew 15% in 2025 [s1].", years)).toEqual(["supported"]);
    expect(status("Revenue fell 15% in 2025 [s1].", years)).toEqual(["unsupported"]);
  });

  it("'2026-W47' is named by 'week 47'; 'week on week' speaks of the latest row against the one before", () => {
    const weeks = [
      { week: "2026-W46", tickets: 412 },
      { week: "2026-W47", tickets: 455 },
    ];
    // "47" is a claim too: the week's number, found in its label.
    expect(status("Tickets rose 10.4% in week 47 [s1].", weeks)).toEqual(["supported", "supported"]);
    expect(status("Tickets rose 10.4% week on week [s1].", weeks)).toEqual(["supported"]);
    expect(status("Tickets fell 10.4% week on week [s1].", weeks)).toEqual(["unsupported"]);
    const quarters = [
      { quarter: "2025-Q4", bookings: 800 },
      { quarter: "2026-Q1", bookings: 880 },
    ];
    expect(status("Bookings grew 10% quarter on quarter [s1].", quarters)).toEqual(["supported"]);
  });

  it("`fy2025`, `revenue_w47` and `{ jan, feb }` are periods of one measure; FY2025 is no identifier", () => {
    expect(status("Revenue grew 15% in FY2025 [s1].", { fy2024: { revenue: 1000 }, fy2025: { revenue: 1150 } })).toEqual(["supported"]);
    expect(status("Revenue fell 10% in week 47 [s1].", { revenue_w46: 900, revenue_w47: 990 })).toEqual(["unsupported", "supported"]);
    expect(status("Sales rose 15% from January to February [s1].", { jan: 200, feb: 230 })).toEqual(["supported"]);
  });

  it("a figure after 'vs' may be the difference; after a named period, 'then' reaches the next", () => {
    expect(status("Revenue 900 vs 1,000 last week, -100 [s1].", { revenue_this_week: 900, revenue_last_week: 1000 })).toEqual([
      "supported",
      "supported",
      "supported",
    ]);
    const weekly = [
      { week: "2026-W44", signups: 310 },
      { week: "2026-W45", signups: 355 },
      { week: "2026-W46", signups: 298 },
    ];
    expect(status("Signups peaked at 355 in week 45, then fell 16% [s1].", weekly)).toEqual(["supported", "supported", "supported"]);
  });
});
