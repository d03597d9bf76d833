import { describe, expect, it } from "vitest";
import { checkClaims } from "./check-claims.js";

// Issue 55's tenth and eleventh batches of report shapes (bench/grounding/report-shapes-tenth*.ts,
// report-shapes-eleventh-cases.ts): each of these failed on the checker before their fixes.

const status = (answer: string, ...outputs: unknown[]) =>
  checkClaims(
    answer,
    outputs.map((output, index) => ({ id: index + 1, output })),
  )
    .claims.filter((claim) => claim.kind === "number")
    .map((claim) => claim.status);

const finance = { revenue_usd: 2450000, operating_expenses_usd: 2710000, operating_income_usd: -260000, net_income_usd: -312500 };

describe("a sign the words carry, in the figure's own clause", () => {
  it("a word of loss or a fall in another clause does not drop a figure's sign", () => {
    expect(status("Net income was $312,500 on operating expenses of $2.71m [s1].", finance)).toEqual(["unsupported", "supported"]);
    expect(status("Revenue was down, but net income was $312,500 [s1].", finance)).toEqual(["unsupported"]);
    expect(status("Revenue was $2.45m and net income $312,500 [s1].", finance)).toEqual(["supported", "unsupported"]);
    // Within the clause, before the figure or right after it, the word still carries the sign.
    expect(status("The company posted a net loss of $312,500 [s1].", finance)).toEqual(["supported"]);
    expect(status("Losses narrowed to $260,000 at the operating line [s1].", finance)).toEqual(["supported"]);
  });

  it("a fraction shown as a percentage keeps its sign", () => {
    const changes = { revenue_change: -0.074, margin_change: -0.015 };
    expect(status("Revenue change: 7.4% [s1].", changes)).toEqual(["unsupported"]);
    expect(status("Revenue change: −7.4% [s1].", changes)).toEqual(["supported"]);
    expect(status("Margin change: 1.5 pp [s1].", changes)).toEqual(["unsupported"]);
    expect(status("EBITDA margin was 7.2% [s1].", { ebitda_margin: -0.072 })).toEqual(["unsupported"]);
  });
});

describe("words of change", () => {
  it("'a net gain', 'outnumbered … by', 'leaving', 'improved by' ask for a difference", () => {
    expect(status("We added 620 customers and lost 85, a net gain of 535 [s1].", { new_customers: 620, churned_customers: 85 })).toEqual([
      "supported",
      "supported",
      "supported",
    ]);
    expect(
      status("Mobile sessions outnumbered desktop sessions by 16,100; mobile made up 58.7% of sessions [s1].", {
        sessions_mobile: 54200,
        sessions_desktop: 38100,
      }),
    ).toEqual(["supported", "supported"]);
    expect(status("430 of 500 seats were booked, leaving 70 free [s1].", { capacity: 500, booked: 430 })).toEqual([
      "supported",
      "supported",
      "supported",
    ]);
  });

  it("'improved' and 'worsened' give no direction: a time improves as it falls", () => {
    const resolution = { avg_resolution_hours: 5.2, avg_resolution_hours_last_week: 6.5, churn_rate: 0.031, churn_rate_prev: 0.036 };
    expect(status("Average resolution time improved by 1.3 hours to 5.2 [s1].", resolution)).toEqual(["supported", "supported"]);
    expect(status("Churn improved by 0.5 points to 3.1% [s1].", resolution)).toEqual(["supported", "supported"]);
    expect(status("Average resolution time rose by 1.3 hours [s1].", resolution)).toEqual(["unsupported"]);
  });
});

describe("which two values pair", () => {
  it("where the sentence names two fields, another measure's two periods are not what it compares", () => {
    const support = { tickets_opened: 640, tickets_closed: 612, backlog_start: 180, backlog_end: 208 };
    expect(status("We opened 28 more tickets than we closed [s1].", support)).toEqual(["supported"]);
    expect(status("We closed 28 more tickets than we opened [s1].", support)).toEqual(["unsupported"]);
    const headcount = { headcount_opening: 212, headcount_closing: 224, hires: 19, leavers: 7 };
    expect(status("Hires exceeded leavers by 12 [s1].", headcount)).toEqual(["supported"]);
    expect(status("Leavers exceeded hires by 12 [s1].", headcount)).toEqual(["unsupported"]);
  });

  it("a measure named without its period is its latest; named with one of its periods, it is not", () => {
    const week = { revenue_this_week: 48250.5, revenue_last_week: 52100, refunds: 1930.25 };
    expect(status("Net revenue after refunds was $46,320.25 [s1].", week)).toEqual(["supported"]);
    const quarters = { q1_revenue: 2.31, q2_revenue: 2.58, q3_revenue: 2.74 };
    expect(status("Q1 and Q2 revenue came to $4.89m together [s1].", quarters)).toEqual(["supported"]);
    expect(status("Q1 and Q2 revenue came to $5.32m together [s1].", quarters)).toEqual(["unsupported"]);
  });

  it("a share of a total of named fields is of the part the sentence names", () => {
    const channels = { web_orders: 812, app_orders: 466, phone_orders: 57 };
    expect(status("App orders were 34.9% of all orders [s1].", channels)).toEqual(["supported"]);
    expect(status("App orders were 60.8% of all orders [s1].", channels)).toEqual(["unsupported"]);
  });

  it("'over budget', 'under plan': from what was planned to what happened", () => {
    const budget = { budget_eur: 120000, actual_eur: 131400 };
    expect(status("Spending ran €11,400 over budget, 9.5% above plan [s1].", budget)).toEqual(["supported", "supported"]);
    expect(status("Spending came in €11,400 under budget [s1].", budget)).toEqual(["unsupported"]);
    expect(status("We came in $7,850 under plan [s1].", { plan_usd: 50000, actual_usd: 42150 })).toEqual(["supported"]);
  });

  it("two objects of two steps that name their weeks are two periods: a change runs from the earlier", () => {
    const [w46, w47] = [
      { week: "2026-W46", tickets: 412 },
      { week: "2026-W47", tickets: 455 },
    ];
    expect(status("Tickets rose by 43 in week 47 [s1, s2].", w46, w47)).toEqual(["supported", "supported"]);
    expect(status("Tickets fell by 43 in week 47 [s1, s2].", w46, w47)).toEqual(["unsupported", "supported"]);
    // The year of "2026-W46" is no quantity: it is not added to the tickets.
    expect(status("Tickets averaged 433.5 a week over the two weeks [s1, s2].", w46, w47)).toEqual(["supported", "supported"]);
  });

  it("weekdays in field names are periods", () => {
    expect(status("Open tickets fell by 24 from Monday to Friday [s1].", { open_tickets_monday: 120, open_tickets_friday: 96 })).toEqual([
      "supported",
    ]);
  });
});

describe("sums and averages of what the sentence names", () => {
  it("the mean of two like values, as their sum", () => {
    const [north, south] = [
      { region: "North", revenue: 980 },
      { region: "South", revenue: 1120 },
    ];
    expect(status("North and South made 2,100 together [s1, s2], an average of 1,050 per region [s1, s2].", north, south)).toEqual([
      "supported",
      "supported",
    ]);
  });

  it("'X and Y came to', a label named in the plural, a gross figure named by its measure", () => {
    expect(status("New and reopened tickets came to 138 [s1].", { tickets_new: 120, tickets_reopened: 18 })).toEqual(["supported"]);
    const charges = [
      { id: "txn_1", type: "charge", amount: 12900 },
      { id: "txn_2", type: "refund", amount: -2500 },
      { id: "txn_3", type: "charge", amount: 8400 },
    ];
    expect(status("Charges totalled 21,300 cents [s1].", charges)).toEqual(["supported"]);
    expect(status("Revenue net of discounts was $54,050 [s1].", { revenue_gross_usd: 58200, discounts_usd: 4150 })).toEqual(["supported"]);
  });
});

describe("numbers as people write them", () => {
  it("the plural and other languages' scale words, and 'cr' for crore", () => {
    expect(status("Le chiffre d’affaires atteint 2,5 millions d’euros [s1].", { revenue_eur: 2500000 })).toEqual(["supported"]);
    expect(status("Revenue was ₹12.3 cr [s1].", { revenue_inr: 123000000 })).toEqual(["supported"]);
  });

  it("'98.765' is read as German writes it where nothing says the locale and no step shows 98.765", () => {
    expect(status("Der Shop hatte 98.765 Besucher [s1].", { besucher: 98765 })).toEqual(["supported"]);
    expect(status("Der Shop hatte 98.765 Besucher [s1].", { besucher: 98.765 })).toEqual(["supported"]);
    expect(status("Der Shop hatte 98.756 Besucher [s1].", { besucher: 98765 })).toEqual(["unsupported"]);
  });
});
