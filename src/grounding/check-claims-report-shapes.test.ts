import { describe, expect, it } from "vitest";
import { checkClaims, type ClaimEvidence } from "./check-claims.js";
import { readFigures } from "./read-figures.js";

// The shapes weekly reports and research summaries take (bench/grounding/report-shapes-cases.ts).
const verdicts = (answer: string, steps: ClaimEvidence) => checkClaims(answer, steps).claims.map((claim) => [claim.text, claim.status]);
const one = (output: unknown) => [{ id: 1, output }];

const sales = one({ revenue_eur: 1234567, revenue_prev_eur: 1102000, orders: 4100, orders_prev: 3900 });
const team = one([
  { team: "Platform", incidents: 6, hours_down: 3.5 },
  { team: "Payments", incidents: 12, hours_down: 1.25 },
  { team: "Search", incidents: 3, hours_down: 0.5 },
]);
const quarters = one([
  { quarter: "Q1", revenue: 1040, gross_margin_pct: 41.2 },
  { quarter: "Q2", revenue: 1100, gross_margin_pct: 42.0 },
  { quarter: "Q3", revenue: 1250, gross_margin_pct: 44.5 },
]);

describe("checkClaims on report shapes", () => {
  it("reads a lower-case m as millions, and points as percentage points", () => {
    expect(readFigures("€1.3m, 3 points, 0.5 pts, 25 bps, 2.5 pp")).toMatchObject([
      { value: 1_300_000, unit: "currency" },
      { value: 3, unit: "pp" },
      { value: 0.5, unit: "pp" },
      { value: 0.25, unit: "pp" },
      { value: 2.5, unit: "pp", text: "2.5 pp" },
    ]);
  });

  it("pairs a measure with its earlier period when only the earlier one is named so", () => {
    expect(verdicts("Revenue rose 12% to €1.2m [s1].", sales)).toEqual([
      ["12%", "supported"],
      ["€1.2m", "supported"],
    ]);
    expect(verdicts("Revenue fell 12% [s1].", sales)).toEqual([["12%", "unsupported"]]);
    expect(verdicts("We took 200 more orders than the week before [s1].", sales)).toEqual([["200", "supported"]]);
  });

  it("names a quarter's row by its short label", () => {
    expect(verdicts("Q3 revenue of 1,250 was 13.6% above Q2 [s1].", quarters)).toEqual([
      ["1,250", "supported"],
      ["13.6%", "supported"],
    ]);
    expect(verdicts("Q3 revenue was 13.6% below Q2 [s1].", quarters)).toEqual([["13.6%", "unsupported"]]);
    expect(verdicts("Gross margin rose 2.5 pp in Q3, to 44.5% [s1].", quarters)).toEqual([
      ["2.5 pp", "supported"],
      ["44.5%", "supported"],
    ]);
  });

  it("reads a direction after a figure only when it stands right after it", () => {
    const csat = one({ csat: 0.91, csat_prev: 0.88 });
    expect(verdicts("CSAT was 91%, up 3 points on last week [s1].", csat)).toEqual([
      ["91%", "supported"],
      ["3 points", "supported"],
    ]);
    expect(verdicts("CSAT was 91%, down 3 points on last week [s1].", csat)).toEqual([
      ["91%", "supported"],
      ["3 points", "unsupported"],
    ]);
  });

  it("reads a share where the figure is a share of something, whatever verbs stand near it", () => {
    const customers = one({ new_customers: 620, returning_customers: 380 });
    expect(verdicts("New customers made up 62% of the 1,000 customers [s1].", customers)).toEqual([
      ["62%", "supported"],
      ["1,000", "supported"],
    ]);
    const study = one({ participants: 240, dropouts: 18 });
    expect(verdicts("Eighteen participants dropped out, 7.5% of the total [s1].", study)).toEqual([
      ["Eighteen", "supported"],
      ["7.5%", "supported"],
    ]);
  });

  it("derives a rate per unit", () => {
    const shipping = one({ shipments: 85, cost_usd: 21250 });
    expect(verdicts("Shipping cost $250 per shipment [s1].", shipping)).toEqual([["$250", "supported"]]);
    expect(verdicts("Shipping cost $215 per shipment [s1].", shipping)).toEqual([["$215", "unsupported"]]);
  });

  it("reads a change's direction in narrowed and widened", () => {
    const margin = one({ margin_change_pp: -1.5 });
    expect(verdicts("The margin narrowed by 1.5 points [s1].", margin)).toEqual([["1.5 points", "supported"]]);
    expect(verdicts("The margin widened by 1.5 points [s1].", margin)).toEqual([["1.5 points", "unsupported"]]);
  });

  it("checks a superlative's own figure, not the figures beside it", () => {
    expect(verdicts("Payments had the most incidents, 12, twice Platform's 6 [s1].", team)).toEqual([
      ["12", "supported"],
      ["6", "supported"],
    ]);
    expect(verdicts("The fewest incidents were 6 [s1].", team)).toEqual([["6", "unsupported"]]);
  });

  it("holds a range over a column to the column's smallest and largest", () => {
    expect(verdicts("Teams had between 3 and 12 incidents each [s1].", team)).toEqual([
      ["3", "supported"],
      ["12", "supported"],
    ]);
    expect(verdicts("Teams had between 2 and 15 incidents each [s1].", team)).toEqual([
      ["2", "unsupported"],
      ["15", "unsupported"],
    ]);
    expect(verdicts("Gross margin ran 38–45% over the quarters [s1].", quarters)).toEqual([
      ["38", "unsupported"],
      ["45%", "supported"],
    ]);
  });

  it("does not support a change from a figure of the sentence that no step shows", () => {
    const headcount = one({ headcount: { start: 40, end: 52 } });
    expect(verdicts("Headcount grew from 40 to 55, up 37.5% [s1].", headcount)).toEqual([
      ["40", "supported"],
      ["55", "unsupported"],
      ["37.5%", "unsupported"],
    ]);
    expect(verdicts("Payments had 12 incidents, 75% of the total [s1].", team)).toEqual([
      ["12", "supported"],
      ["75%", "unsupported"],
    ]);
  });

  it("does not read a multiple as a count of rows", () => {
    expect(verdicts("Payments had 3x the incidents of Platform [s1].", team)).toEqual([["3x", "unsupported"]]);
    expect(verdicts("Payments had 2x the incidents of Platform [s1].", team)).toEqual([["2x", "supported"]]);
  });

  it("takes a year as the report's setting when no step speaks of years, and phone numbers as identifiers", () => {
    const support = one({ tickets_closed: 398, backlog: 57 });
    expect(verdicts("Since 2019 the backlog has never been this low: 57 tickets [s1].", support)).toEqual([["57", "supported"]]);
    const apple = one({ fiscal_years: [{ year: "2023", revenue_usd_m: 383285 }] });
    expect(verdicts("Revenue was $383,285 million in 2024 [s1].", apple)).toEqual([
      ["$383,285 million", "supported"],
      ["2024", "unsupported"],
    ]);
    const contact = one({ name: "Acme Ltd", phone: "+1 415-555-0132", orders: 14 });
    expect(verdicts("Acme Ltd (+1 415-555-0132) placed 14 orders [s1].", contact)).toEqual([
      ["Acme Ltd", "supported"],
      ["+1 415-555-0132", "supported"],
      ["14", "supported"],
    ]);
  });

  it("does not read a strong word of loss as the sign of a positive value", () => {
    const cash = one({ operating_cash_flow_usd: 3400, net_loss_usd: 1200 });
    expect(verdicts("Operating cash flow was a $3,400 outflow [s1].", cash)).toEqual([["$3,400", "unsupported"]]);
    expect(verdicts("The net loss was $1,200 [s1].", cash)).toEqual([["$1,200", "supported"]]);
  });

  it("totals and counts sibling objects of entities as it does a table's rows", () => {
    const regions = one({ regions: { emea: { revenue_eur_k: 840 }, apac: { revenue_eur_k: 610 }, americas: { revenue_eur_k: 1290 } } });
    expect(verdicts("Revenue across the three regions came to €2.74m [s1].", regions)).toEqual([
      ["three", "supported"],
      ["€2.74m", "supported"],
    ]);
    expect(verdicts("Revenue across the three regions came to €2.47m [s1].", regions)).toEqual([
      ["three", "supported"],
      ["€2.47m", "unsupported"],
    ]);
  });

  it("reads fractions in words as coarse shares, and 'N to one' as a ratio", () => {
    const survey = one({ respondents: 1200, satisfied: 816, dissatisfied: 144 });
    expect(verdicts("Roughly two thirds were satisfied [s1].", survey)).toEqual([["two thirds", "supported"]]);
    expect(verdicts("Roughly three quarters were satisfied [s1].", survey)).toEqual([["three quarters", "unsupported"]]);
    expect(verdicts("Satisfied respondents outnumbered dissatisfied ones more than 5 to one [s1].", survey)).toEqual([["5", "supported"]]);
  });

  it("relates a share or a rate within one period", () => {
    const marketing = one({ spend_usd: 18500, spend_prev_usd: 20000, leads: 1850, leads_prev: 1600 });
    expect(verdicts("Cost per lead was $10 [s1].", marketing)).toEqual([["$10", "supported"]]);
    expect(verdicts("Cost per lead was $11.56 [s1].", marketing)).toEqual([["$11.56", "unsupported"]]);
  });

  it("converts a field's stated unit to the one next to it", () => {
    const shipping = one({ weight_kg: 3400, handling_min: 90 });
    expect(verdicts("We shipped 3.4 tonnes, handled in 1.5 hours [s1].", shipping)).toEqual([
      ["3.4", "supported"],
      ["1.5", "supported"],
    ]);
    expect(verdicts("We shipped 4.3 tonnes [s1].", shipping)).toEqual([["4.3", "unsupported"]]);
  });

  it("reads money with three digits after one point as grouped, as German writes it", () => {
    expect(readFigures("182.400 €, €1.234, KWD 1.250")).toMatchObject([{ value: 182400 }, { value: 1234 }, { value: 1.25 }]);
  });

  it("lets a hedge reach a tenth of the value at most", () => {
    const shop = one({ orders: 1205, visitors: 40100 });
    expect(verdicts("Nearly 1,200 orders came from just over 40,000 visitors [s1].", shop)).toEqual([
      ["1,200", "supported"],
      ["40,000", "supported"],
    ]);
    expect(verdicts("Nearly 1,000 orders came in [s1].", shop)).toEqual([["1,000", "unsupported"]]);
  });

  it("pairs the one field that goes by a word the sentence names, for a difference after a deduction", () => {
    const shop = one({ gross_revenue_eur: 48200, refunds_eur: 1930, orders: 1205 });
    expect(verdicts("Net revenue after refunds was €46,270 [s1].", shop)).toEqual([["€46,270", "supported"]]);
    expect(verdicts("Net revenue after refunds was €46,720 [s1].", shop)).toEqual([["€46,720", "unsupported"]]);
  });

  it("checks the figure of a superlative of a rate, which no column holds", () => {
    const stores = one([
      { store: "Berlin", sales_eur: 182400, staff: 12 },
      { store: "Hamburg", sales_eur: 143900, staff: 9 },
      { store: "Munich", sales_eur: 201750, staff: 14 },
    ]);
    expect(verdicts("Sales per employee were highest in Hamburg at €15,989 [s1].", stores)).toEqual([["€15,989", "supported"]]);
    expect(verdicts("Sales per employee were highest in Hamburg at €16,989 [s1].", stores)).toEqual([["€16,989", "unsupported"]]);
  });

  it("matches '$12.4m' with a step that counts in millions, and derives from it at that scale", () => {
    const pnl = one({ revenue_2025: 12.4, revenue_2024: 13.1, ebitda_2025: -0.8, ebitda_2024: 0.6 });
    expect(verdicts("Revenue declined 5.3% to $12.4m in 2025 [s1].", pnl)).toEqual([
      ["5.3%", "supported"],
      ["$12.4m", "supported"],
      ["2025", "supported"],
    ]);
    expect(verdicts("EBITDA swung to a loss of $0.8m from a profit of $0.6m [s1].", pnl)).toEqual([
      ["$0.8m", "supported"],
      ["$0.6m", "supported"],
    ]);
    expect(verdicts("Revenue was $13.4m in 2025 [s1].", pnl)).toEqual([
      ["$13.4m", "unsupported"],
      ["2025", "supported"],
    ]);
  });

  it("reads 'added' as a rise, and totals a noun's fields only where the sentence speaks of a whole", () => {
    const saas = one({ new_mrr_usd: 6900, churned_mrr_usd: 2500, customers: 412, customers_last_month: 398 });
    expect(verdicts("We added 14 customers, ending at 412 [s1].", saas)).toEqual([
      ["14", "supported"],
      ["412", "supported"],
    ]);
    expect(verdicts("Net new MRR was $9,400 [s1].", saas)).toEqual([["$9,400", "unsupported"]]);
  });

  it("finds a week's number in its label, and takes 'peaked' as a superlative of rows that differ", () => {
    const weekly = one([
      { week: "2026-W44", signups: 310 },
      { week: "2026-W45", signups: 355 },
      { week: "2026-W46", signups: 298 },
    ]);
    expect(verdicts("Signups peaked at 355 in week 45 [s1].", weekly)).toEqual([
      ["355", "supported"],
      ["45", "supported"],
    ]);
    expect(verdicts("Signups peaked at 310 in week 44 [s1].", weekly)).toEqual([
      ["310", "unsupported"],
      ["44", "supported"],
    ]);
  });

  it("reads 'a third of', 'one fifth', and holds 'N% of all X' to a share of what it names", () => {
    const ops = one({ tickets_resolved: 540, tickets_escalated: 60, sla_breaches: 12, avg_handle_time_min: 7.5 });
    expect(verdicts("Escalations were 10% of all tickets handled [s1].", ops)).toEqual([["10%", "supported"]]);
    expect(verdicts("Escalations were 12% of all tickets handled [s1].", ops)).toEqual([["12%", "unsupported"]]);
    const study = one({ treatment: 120, responders_treatment: 40 });
    expect(verdicts("A third of the treatment arm responded [s1].", study)).toEqual([["A third", "supported"]]);
    expect(verdicts("Half of the treatment arm responded [s1].", study)).toEqual([["Half", "unsupported"]]);
    expect(verdicts("The margin was one fifth of revenue [s1].", one({ margin: 0.2 }))).toEqual([["one fifth", "supported"]]);
  });

  it("reads a German report: an article before a noun is no name, and Verlust carries a sign", () => {
    const de = one({ umsatz_eur: 1234567.89, gewinn_eur: -45210.5 });
    expect(verdicts("Der Umsatz lag bei 1.234.567,89 €, der Verlust bei 45.210,50 € [s1].", de)).toEqual([
      ["1.234.567,89 €", "supported"],
      ["45.210,50 €", "supported"],
    ]);
    expect(verdicts("Der Gewinn lag bei 45.210,50 € [s1].", de)).toEqual([["45.210,50 €", "unsupported"]]);
  });

  it("holds a superlative over sibling objects of entities, as over a table's rows", () => {
    const nested = one({ regions: { north: { revenue: 1000, orders: 52 }, south: { revenue: 980, orders: 47 } } });
    expect(verdicts("The largest revenue was South's, 980 [s1].", nested)).toEqual([["980", "unsupported"]]);
    expect(verdicts("The largest revenue was North's, 1,000 [s1].", nested)).toEqual([["1,000", "supported"]]);
    expect(verdicts("North had the fewest orders, 52 [s1].", nested)).toEqual([["52", "unsupported"]]);
    expect(verdicts("South had the fewest orders, 47 [s1].", nested)).toEqual([["47", "supported"]]);
  });

  it("does not read a rise in a change field as a fall", () => {
    const growth = one({ revenue_change_pct: 5, orders_growth: -3 });
    expect(verdicts("Revenue fell 5% [s1].", growth)).toEqual([["5%", "unsupported"]]);
    expect(verdicts("Revenue rose 5% [s1].", growth)).toEqual([["5%", "supported"]]);
    expect(verdicts("Orders fell 3% [s1].", growth)).toEqual([["3%", "supported"]]);
  });

  it("names a month's row written as digits, and reads 'exceeded by' and 'did not' as differences", () => {
    const months = one([
      { month: "2026-10", orders: 120 },
      { month: "2026-11", orders: 150 },
    ]);
    expect(verdicts("Orders rose 25% in November [s1].", months)).toEqual([["25%", "supported"]]);
    expect(verdicts("Orders rose 20% in November [s1].", months)).toEqual([["20%", "unsupported"]]);
    const books = one({ revenue: 5000, costs: 3800 });
    expect(verdicts("Revenue exceeded costs by 1,200 [s1].", books)).toEqual([["1,200", "supported"]]);
    expect(verdicts("Revenue exceeded costs by 1,300 [s1].", books)).toEqual([["1,300", "unsupported"]]);
    const signups = one({ signups: 300, activated: 120 });
    expect(verdicts("Of the 300 signups, 180 did not activate [s1].", signups)).toEqual([
      ["300", "supported"],
      ["180", "supported"],
    ]);
  });

  it("reads a change between two named fields from the one named first", () => {
    const books = one({ revenue: 5000, costs: 3800 });
    expect(verdicts("Costs exceeded revenue by 1,200 [s1].", books)).toEqual([["1,200", "unsupported"]]);
    expect(verdicts("Costs were 1,200 below revenue [s1].", books)).toEqual([["1,200", "supported"]]);
    expect(verdicts("The gap between costs and revenue was 1,200 [s1].", books)).toEqual([["1,200", "supported"]]);
  });
});
