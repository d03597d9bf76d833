import { describe, expect, it } from "vitest";
import { checkClaims } from "./check-claims.js";

// Issue 55's twelfth batch of report shapes (bench/grounding/report-shapes-twelfth-cases.ts): each
// of these failed on the checker before its fixes.

const status = (answer: string, output: unknown) =>
  checkClaims(answer, [{ id: 1, output }])
    .claims.filter((claim) => claim.kind === "number")
    .map((claim) => claim.status);

const weeks = [
  { week: "2026-W44", orders: 1180, revenue_usd: 61250 },
  { week: "2026-W45", orders: 1242, revenue_usd: 64100 },
  { week: "2026-W46", orders: 1198, revenue_usd: 59980 },
  { week: "2026-W47", orders: 1305, revenue_usd: 68420 },
];

describe("periods as objects' keys", () => {
  it("`week_47` and `2025-Q4` are periods, not entities: a change runs from the earlier", () => {
    const byWeek = { week_46: { orders: 1198 }, week_47: { orders: 1305 } };
    expect(status("Orders rose 8.9% in week 47 [s1].", byWeek)).toEqual(["supported", "supported"]);
    expect(status("Orders fell 8.9% in week 47 [s1].", byWeek)).toEqual(["unsupported", "supported"]);
    const byQuarter = { revenue: { "2025-Q3": 4.1, "2025-Q4": 4.4 } };
    expect(status("Revenue rose 7.3% in Q4 [s1].", byQuarter)).toEqual(["supported"]);
    expect(status("Revenue fell 7.3% in Q4 [s1].", byQuarter)).toEqual(["unsupported"]);
  });

  it("'on the previous week', 'compared with the prior week': the latest row against the one before", () => {
    expect(status("Orders were up 8.9% on the previous week [s1].", weeks)).toEqual(["supported"]);
    expect(status("Revenue rose 14.1% compared with the prior week [s1].", weeks)).toEqual(["supported"]);
    expect(status("Orders fell 8.9% on the previous week [s1].", weeks)).toEqual(["unsupported"]);
  });
});

describe("periods named by a date in a key, a field's value, a step's id", () => {
  const status2 = (answer: string, steps: Array<{ id: string | number; output: unknown }>) =>
    checkClaims(answer, steps)
      .claims.filter((claim) => claim.kind === "number")
      .map((claim) => claim.status);

  it('`week_ending_2026_11_22`, `"2026-11-15"`: a day, and the date a sentence may name', () => {
    const byDate = { week_ending_2026_11_15: { orders: 120 }, week_ending_2026_11_22: { orders: 137 } };
    expect(
      checkClaims("Orders rose 14.2% in the week ending Nov 22 [s1].", [{ id: 1, output: byDate }]).claims.map((claim) => claim.status),
    ).toEqual(["supported", "supported"]);
    expect(status("Orders fell 14.2% in the week ending Nov 22 [s1].", byDate)).toEqual(["unsupported"]);
    const byDay = { "2026-11-15": { revenue: 61620.93 }, "2026-11-22": { revenue: 69136.98 } };
    expect(status("Revenue shrank 12.2% week on week [s1].", byDay)).toEqual(["unsupported"]);
  });

  it('`period: "last_week"` names its row, the base of a change to this week', () => {
    const rows = [
      { period: "this_week", orders: 137 },
      { period: "last_week", orders: 120 },
    ];
    expect(status("Orders were up 17 on last week [s1].", rows)).toEqual(["supported"]);
    expect(status("Orders were down 17 on last week [s1].", rows)).toEqual(["unsupported"]);
  });

  it("a step whose id names a period shows that period's values", () => {
    const steps = [
      { id: "this_week", output: { orders: 137 } },
      { id: "last_week", output: { orders: 120 } },
    ];
    expect(status2("Orders rose by 17 [s:this_week, s:last_week].", steps)).toEqual(["supported"]);
    expect(status2("Orders fell by 17 [s:this_week, s:last_week].", steps)).toEqual(["unsupported"]);
  });
});

describe("differences the words ask for", () => {
  it("a swing, a profit, what is kept net of refunds", () => {
    expect(status("Highs of 14.8°C and lows of 4.1°C made a 10.7°C swing [s1].", { temp_max_c: 14.8, temp_min_c: 4.1 })).toEqual([
      "supported",
      "supported",
      "supported",
    ]);
    expect(status("Gross profit was $450 on revenue of $1,250 and costs of $800 [s1].", { revenue: 1250, cost: 800 })).toEqual([
      "supported",
      "supported",
      "supported",
    ]);
    const charge = { id: "ch_1", amount: 12900, amount_refunded: 2500 };
    expect(status("Net of refunds, 10,400 cents were kept [s1].", charge)).toEqual(["supported"]);
    expect(status("Net of refunds, 10,900 cents were kept [s1].", charge)).toEqual(["unsupported"]);
  });

  it("a loss narrows as its value rises toward zero", () => {
    const loss = { operating_income_q3_usd_m: -0.4, operating_income_q4_usd_m: -0.3 };
    expect(status("The operating loss narrowed 25% to $0.3m in Q4 [s1].", loss)).toEqual(["supported", "supported"]);
    expect(status("The operating loss widened 25% in Q4 [s1].", loss)).toEqual(["unsupported"]);
  });
});

describe("sums and averages of what the sentence names", () => {
  it("three of four sibling objects", () => {
    const regions = { regions: { north: { revenue: 980 }, south: { revenue: 1120 }, west: { revenue: 760 }, east: { revenue: 1340 } } };
    expect(status("North, South and West made 2,860 together [s1].", regions)).toEqual(["supported"]);
    expect(status("North, South and East made 2,860 together [s1].", regions)).toEqual(["unsupported"]);
    expect(status("North, South and West averaged 953.3 in revenue [s1].", regions)).toEqual(["supported"]);
  });

  it("two fields that differ in one word, each named", () => {
    expect(status("Average handle time across chat and email was 6.2 min [s1].", { chat_aht_min: 5.8, email_aht_min: 6.6 })).toEqual([
      "supported",
    ]);
  });
});

describe("ranges as estimates", () => {
  it("of the measure the sentence names, and for percentages, of percentages", () => {
    const revenue = { revenue_cny: 72400, revenue_prev_cny: 64577 };
    expect(status("This week's revenue was between ¥60k and ¥70k [s1].", revenue)).toEqual(["unsupported", "unsupported"]);
    expect(status("This week's revenue was between ¥70k and ¥75k [s1].", revenue)).toEqual(["supported", "supported"]);
    const conversion = { conversion_rate: 0.18, signups: 13 };
    expect(status("Conversion was 12–15% [s1].", conversion)).toEqual(["unsupported", "unsupported"]);
    expect(status("Conversion was 17–19% [s1].", conversion)).toEqual(["supported", "supported"]);
  });

  it("a range per day speaks of every day", () => {
    const days = [15, 17, 17, 18, 14, 17, 17].map((orders, day) => ({ day: `2026-11-${16 + day}`, orders }));
    expect(status("The shop took 15–17 orders a day [s1].", days)).toEqual(["unsupported", "unsupported"]);
    expect(status("The shop took 14–18 orders a day [s1].", days)).toEqual(["supported", "supported"]);
  });
});

describe("entities and superlatives by other names", () => {
  it("a country by its code, a company without its legal form", () => {
    const countries = [
      { country: "DE", revenue_eur: 410000 },
      { country: "FR", revenue_eur: 365000 },
    ];
    expect(status("France brought in €410,000 [s1].", countries)).toEqual(["unsupported"]);
    expect(status("Germany brought in €410,000 [s1].", countries)).toEqual(["supported"]);
    const accounts = [
      { account: "Acme Corp", arr_usd: 120000 },
      { account: "Globex Ltd", arr_usd: 98000 },
    ];
    expect(status("Acme's ARR is $98,000 [s1].", accounts)).toEqual(["unsupported"]);
    expect(status("Acme's ARR is $120,000 [s1].", accounts)).toEqual(["supported"]);
  });

  it("'our top customer', 'logged most', 'the fastest-growing'", () => {
    const customers = [
      { customer: "Acme Corp", spend_usd: 48200 },
      { customer: "Globex Ltd", spend_usd: 61900 },
      { customer: "Initech", spend_usd: 23100 },
    ];
    expect(status("Our top customer, Globex, spent $61,900 [s1].", customers)).toEqual(["supported"]);
    expect(status("Our top customer, Acme, spent $48,200 [s1].", customers)).toEqual(["unsupported"]);
    const teams = [
      { team: "Platform", incidents: 6 },
      { team: "Payments", incidents: 14 },
    ];
    expect(status("Platform logged most incidents, 6 [s1].", teams)).toEqual(["unsupported"]);
    const growth = [
      { region: "North", growth_pct: 12.1 },
      { region: "West", growth_pct: 15.3 },
    ];
    expect(status("The fastest-growing region was North, up 12.1% [s1].", growth)).toEqual(["unsupported"]);
    expect(status("The fastest-growing region was West, up 15.3% [s1].", growth)).toEqual(["supported"]);
  });
});
