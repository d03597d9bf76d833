import { describe, expect, it } from "vitest";
import { checkClaims } from "./check-claims.js";

// Issue 55's tenth and eleventh batches of report shapes (bench/grounding/report-shapes-tenth*.ts,
// report-shapes-eleventh-cases.ts): each of these failed on the checker before their fixes.

const checked = (answer: string, output: unknown) => checkClaims(answer, [{ id: 1, output }]).claims;
const status = (answer: string, output: unknown) =>
  checked(answer, output)
    .filter((claim) => claim.kind === "number")
    .map((claim) => claim.status);

const regions = [
  { region: "North", revenue: 124500, orders: 1310, refunds: 3200 },
  { region: "South", revenue: 98000, orders: 1105, refunds: 4150 },
  { region: "East", revenue: 143200, orders: 1480, refunds: 2750 },
  { region: "West", revenue: 87650, orders: 960, refunds: 1980 },
];
const weeks = [
  { week: "2026-W44", orders: 1180, revenue_usd: 61250 },
  { week: "2026-W45", orders: 1242, revenue_usd: 64100 },
  { week: "2026-W46", orders: 1198, revenue_usd: 59980 },
  { week: "2026-W47", orders: 1305, revenue_usd: 68420 },
];

describe("ranges", () => {
  it("'ranged from X to Y' is a spread of a column: both ends are its ends", () => {
    expect(status("Revenue ranged from $87,650 to $143,200 across the regions [s1].", regions)).toEqual(["supported", "supported"]);
    expect(status("Revenue ranged from $87,650 to $124,500 across the regions [s1].", regions)).toEqual(["supported", "unsupported"]);
    // A change's two ends are no range.
    expect(status("Orders rose from 1,198 to 1,305 in week 47 [s1].", weeks)).toEqual(["supported", "supported", "supported"]);
  });

  it("a range said of every row ('each', 'every', 'stayed between') is flagged where a row lies outside it", () => {
    expect(status("Weeks had between 1,180 and 1,250 orders each [s1].", weeks)).toEqual(["supported", "unsupported"]);
    expect(status("Weekly revenue stayed between $59,980 and $64,100 [s1].", weeks)).toEqual(["supported", "unsupported"]);
  });

  it("a range of a named column with one end right speaks of that column", () => {
    const teams = [
      { team: "Platform", incidents: 6 },
      { team: "Payments", incidents: 14 },
      { team: "Search", incidents: 3 },
    ];
    expect(status("Teams had between 3 and 12 incidents [s1].", teams)).toEqual(["supported", "unsupported"]);
    expect(status("Teams had between 3 and 14 incidents [s1].", teams)).toEqual(["supported", "supported"]);
  });

  it("a round bound holds the column's end rounded at its last non-zero digit", () => {
    const days = [6812.13, 6748.32, 8386.47, 9092.57, 6544.15, 9952.27, 8303.25].map((revenue_cny, day) => ({
      day: `2026-11-${16 + day}`,
      revenue_cny,
    }));
    expect(status("Daily revenue stayed between ¥6,500 and ¥10,000 [s1].", days)).toEqual(["supported", "supported"]);
    expect(status("Daily revenue stayed between ¥6,500 and ¥9,000 [s1].", days)).toEqual(["supported", "unsupported"]);
  });
});

describe("weeks listed", () => {
  it("'weeks 46 and 47', 'weeks 44–47' name those rows, and their numbers are no figures", () => {
    expect(status("Revenue averaged $64,200 over weeks 46 and 47 [s1].", weeks)).toEqual(["supported", "supported", "supported"]);
    expect(status("Revenue for weeks 44–47 totalled $253,750 [s1].", weeks)).toEqual(["supported", "supported", "supported"]);
  });
});

describe("superlatives and ranks", () => {
  it("a superlative speaks of the figure, not of a week's number; with one figure, of the column it names", () => {
    expect(status("The weakest week was week 44, with $61,250 in revenue [s1].", weeks)).toEqual(["supported", "unsupported"]);
    expect(status("The weakest week was week 46, with $59,980 in revenue [s1].", weeks)).toEqual(["supported", "supported"]);
  });

  it("'the second-highest' is checked as the column's second", () => {
    expect(status("The second-highest revenue was $143,200 [s1].", regions)).toEqual(["unsupported"]);
    expect(status("The second-highest revenue was $124,500 [s1].", regions)).toEqual(["supported"]);
    expect(status("South had the second-highest revenue, $98,000 [s1].", regions)).toEqual(["unsupported"]);
  });

  it("'most X came from', 'best-selling', 'top seller' are superlatives", () => {
    expect(status("Most orders came from North, 1,310 [s1].", regions)).toEqual(["unsupported"]);
    expect(status("Most orders came from East, 1,480 [s1].", regions)).toEqual(["supported"]);
    const products = [
      { product: "Desk Lamp", units: 420, revenue_usd: 12600 },
      { product: "Office Chair", units: 95, revenue_usd: 23750 },
      { product: "Monitor Arm", units: 260, revenue_usd: 15340 },
    ];
    expect(status("Our best-selling product, the Desk Lamp, sold 420 units [s1].", products)).toEqual(["supported"]);
    expect(status("Our best-selling product, the Monitor Arm, sold 260 units [s1].", products)).toEqual(["unsupported"]);
  });

  it("'the gap between the highest and the lowest' is a column's largest less its smallest", () => {
    expect(status("The gap between the highest and lowest revenue was $55,550 [s1].", regions)).toEqual(["supported"]);
    expect(status("The gap between the highest and lowest revenue was $45,550 [s1].", regions)).toEqual(["unsupported"]);
  });
});

describe("a figure said to be one entity's", () => {
  it("of two entities named, a value is of the one named just before it", () => {
    expect(status("North brought in $124,500 and South $98,000 [s1].", regions)).toEqual(["supported", "supported"]);
    expect(status("North brought in $98,000 and South $124,500 [s1].", regions)).toEqual(["unsupported", "unsupported"]);
    expect(status("South ($98,000) trailed North ($124,500) [s1].", regions)).toEqual(["supported", "supported"]);
    // A name after the figure before, by a preposition, is that figure's: "329 in October from 372".
    const months = [
      { month: "2026-09", churned: 372 },
      { month: "2026-10", churned: 329 },
    ];
    expect(status("Churn dropped to 329 in October from 372 in September [s1].", months)).toEqual(["supported", "supported"]);
  });

  it("an object named by its own `name`, and a row by the name of an object in it", () => {
    const accounts = { accounts: { acc_1: { name: "Northwind", arr_usd: 120000 }, acc_2: { name: "Contoso", arr_usd: 98000 } } };
    expect(status("Contoso's ARR was $120,000 [s1].", accounts)).toEqual(["unsupported"]);
    expect(status("Northwind's ARR was $120,000 [s1].", accounts)).toEqual(["supported"]);
    const orders = [
      { customer: { name: "Northwind" }, total_usd: 1200 },
      { customer: { name: "Contoso" }, total_usd: 950 },
    ];
    expect(status("Contoso's order came to $1,200 [s1].", orders)).toEqual(["unsupported"]);
    expect(status("Contoso's order came to $950 [s1].", orders)).toEqual(["supported"]);
  });
});
