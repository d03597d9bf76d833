import type { LabelledCase } from "./labelled-cases.js";
import { laterReportShapes } from "./report-shapes-later-cases.js";
import { reportShapeProbes } from "./report-shapes-probes-cases.js";
import { tenthReportShapes } from "./report-shapes-tenth-cases.js";
import { eleventhReportShapes } from "./report-shapes-eleventh-cases.js";
import { twelfthReportShapes } from "./report-shapes-twelfth-cases.js";
import { thirteenthReportShapes } from "./report-shapes-thirteenth-cases.js";
import { fourteenthReportShapes } from "./report-shapes-fourteenth-cases.js";
import { fifteenthReportShapes } from "./report-shapes-fifteenth-cases.js";
import { sixteenthReportShapes } from "./report-shapes-sixteenth-cases.js";

/**
 * The third labelled suite: the shapes weekly business reports and research summaries take,
 * written from how people write them, not from the checker: "rose 12% to €1.2m", "down 3
 * points", "from 40 to 52", "Q3 vs Q2", shares of a total, "twice as many", per-unit rates,
 * rounding ("1.2 million" of 1,234,567), percentage points against percent, and the numbers
 * that are no figures (years, ordinals, list numbers, phone numbers).
 */
const sales = {
  revenue_eur: 1234567,
  revenue_prev_eur: 1102000,
  orders: 4100,
  orders_prev: 3900,
  new_customers: 620,
  returning_customers: 380,
};
const funnel = { sessions: 54000, signups: 1620, paid_conversions: 162, conversion_rate: 0.03, conversion_rate_prev: 0.033 };
const quarters = [
  { quarter: "Q1", revenue: 1040, gross_margin_pct: 41.2 },
  { quarter: "Q2", revenue: 1100, gross_margin_pct: 42.0 },
  { quarter: "Q3", revenue: 1250, gross_margin_pct: 44.5 },
];
const nested = { revenue: { q2: 1100, q3: 1250 }, headcount: { start: 40, end: 52 } };
const support = { tickets_opened: 412, tickets_closed: 398, median_first_response_min: 42, csat: 0.91, csat_prev: 0.88, backlog: 57 };
const team = [
  { team: "Platform", incidents: 6, hours_down: 3.5 },
  { team: "Payments", incidents: 12, hours_down: 1.25 },
  { team: "Search", incidents: 3, hours_down: 0.5 },
];
const budget = { budget_usd: 50000, spent_usd: 42150, remaining_usd: 7850 };
const finance = { net_income_usd: -1200, operating_cash_flow_usd: 3400, revenue_growth: -0.042, margin_change_pp: -1.5 };
const study = { participants: 240, treatment: 120, control: 120, responders_treatment: 78, responders_control: 54, dropouts: 18 };
const shipping = { distance_km: 1250, weight_kg: 3400, shipments: 85, cost_usd: 21250 };
const marketing = { spend_usd: 18500, spend_prev_usd: 20000, clicks: 92500, leads: 1850, leads_prev: 1600, cpl_usd: 10 };
const regions = {
  regions: {
    emea: { revenue_eur_k: 840, orders: 2100, returns: 126 },
    apac: { revenue_eur_k: 610, orders: 1750, returns: 70 },
    americas: { revenue_eur_k: 1290, orders: 3020, returns: 211 },
  },
};
const monthly = [
  { month: "2026-08", active_users: 11800, churned: 354 },
  { month: "2026-09", active_users: 12400, churned: 372 },
  { month: "2026-10", active_users: 13150, churned: 329 },
];
const survey = { respondents: 1200, satisfied: 816, neutral: 240, dissatisfied: 144 };
const shop = {
  gross_revenue_eur: 48200,
  refunds_eur: 1930,
  orders: 1205,
  visitors: 40100,
  refund_rate_pct: 4.0,
  refund_rate_prev_pct: 3.2,
};
const stores = [
  { store: "Berlin", sales_eur: 182400, staff: 12 },
  { store: "Hamburg", sales_eur: 143900, staff: 9 },
  { store: "Munich", sales_eur: 201750, staff: 14 },
];
const contact = { name: "Acme Ltd", phone: "+1 415-555-0132", orders: 14 };

/** The batches written for issue 55's held-out kinds (the tenth to the sixteenth), each before its fixes. */
export const heldOutKindsBatches: LabelledCase[] = [
  ...tenthReportShapes,
  ...eleventhReportShapes,
  ...twelfthReportShapes,
  ...thirteenthReportShapes,
  ...fourteenthReportShapes,
  ...fifteenthReportShapes,
  ...sixteenthReportShapes,
];

export const reportShapesCases: LabelledCase[] = [
  // Changes with direction, written as analysts write them.
  { id: "rose-to-1", steps: [{ id: 1, output: sales }], answer: "Revenue rose {+12%} to {+€1.2m} [s1]." },
  { id: "rose-to-2", steps: [{ id: 1, output: sales }], answer: "Revenue fell {-12%} to €1.2m [s1]." },
  { id: "rose-to-3", steps: [{ id: 1, output: sales }], answer: "Revenue rose {-21%} to {-€1.3m} [s1]." },
  { id: "rounded-1", steps: [{ id: 1, output: sales }], answer: "Revenue came to {+1.2 million} euros, on {+4,100} orders [s1]." },
  { id: "rounded-2", steps: [{ id: 1, output: sales }], answer: "Revenue came to roughly {+€1.23 million} [s1]." },
  { id: "rounded-3", steps: [{ id: 1, output: sales }], answer: "Revenue came to about {-€1.3 million} [s1]." },
  { id: "more-orders-1", steps: [{ id: 1, output: sales }], answer: "We took {+200} more orders than the week before [s1]." },
  { id: "more-orders-2", steps: [{ id: 1, output: sales }], answer: "We took {-200} fewer orders than the week before [s1]." },
  { id: "from-to-1", steps: [{ id: 1, output: nested }], answer: "Headcount grew from {+40} to {+52}, up {+30%} [s1]." },
  { id: "from-to-2", steps: [{ id: 1, output: nested }], answer: "Headcount grew from {+40} to {-55}, up {-37.5%} [s1]." },
  { id: "q3-q2-1", steps: [{ id: 1, output: nested }], answer: "Q3 revenue was up {+13.6%} on Q2 [s1]." },
  { id: "q3-q2-2", steps: [{ id: 1, output: nested }], answer: "Q3 revenue was down {-13.6%} on Q2 [s1]." },
  { id: "q3-q2-rows-1", steps: [{ id: 1, output: quarters }], answer: "Q3 revenue of {+1,250} was {+13.6%} above Q2 [s1]." },
  { id: "q3-q2-rows-2", steps: [{ id: 1, output: quarters }], answer: "Q3 revenue was {-15%} above Q2 [s1]." },
  { id: "q3-q2-rows-3", steps: [{ id: 1, output: quarters }], answer: "Q3 revenue was {-13.6%} below Q2 [s1]." },
  // Percentage points against percent.
  { id: "points-1", steps: [{ id: 1, output: funnel }], answer: "Conversion slipped {+0.3 points} to {+3.0%} [s1]." },
  { id: "points-2", steps: [{ id: 1, output: funnel }], answer: "Conversion fell by {-3 points} [s1]." },
  { id: "points-3", steps: [{ id: 1, output: quarters }], answer: "Gross margin rose {+2.5 pp} in Q3, to {+44.5%} [s1]." },
  { id: "points-4", steps: [{ id: 1, output: quarters }], answer: "Gross margin rose {-3.5 pp} in Q3 [s1]." },
  { id: "points-5", steps: [{ id: 1, output: support }], answer: "CSAT was {+91%}, up {+3 points} on last week [s1]." },
  { id: "points-6", steps: [{ id: 1, output: support }], answer: "CSAT was {+91%}, down {-3 points} on last week [s1]." },
  // Shares, rates and multiples.
  { id: "share-1", steps: [{ id: 1, output: sales }], answer: "New customers made up {+62%} of the {+1,000} customers [s1]." },
  { id: "share-2", steps: [{ id: 1, output: sales }], answer: "New customers made up {-68%} of customers [s1]." },
  { id: "share-3", steps: [{ id: 1, output: team }], answer: "Payments had {+12} incidents, {+57%} of all {+21} [s1]." },
  { id: "share-4", steps: [{ id: 1, output: team }], answer: "Payments had {+12} incidents, {-75%} of the total [s1]." },
  { id: "rate-1", steps: [{ id: 1, output: funnel }], answer: "Of {+54,000} sessions, {+1,620} signed up ({+3%}) [s1]." },
  { id: "rate-2", steps: [{ id: 1, output: shipping }], answer: "Shipping cost {+$250} per shipment [s1]." },
  { id: "rate-3", steps: [{ id: 1, output: shipping }], answer: "Shipping cost {-$215} per shipment [s1]." },
  { id: "twice-1", steps: [{ id: 1, output: team }], answer: "Payments had twice as many incidents as Platform ({+12} vs {+6}) [s1]." },
  { id: "twice-2", steps: [{ id: 1, output: team }], answer: "Payments had {+2x} the incidents of Platform [s1]." },
  { id: "twice-3", steps: [{ id: 1, output: team }], answer: "Payments had {-3x} the incidents of Platform [s1]." },
  // Aggregates of named sets.
  { id: "sum-1", steps: [{ id: 1, output: sales }], answer: "New and returning customers came to {+1,000} in all [s1]." },
  { id: "sum-2", steps: [{ id: 1, output: sales }], answer: "New and returning customers came to {-1,100} in all [s1]." },
  { id: "sum-3", steps: [{ id: 1, output: team }], answer: "Platform and Search had {+9} incidents between them [s1]." },
  { id: "sum-4", steps: [{ id: 1, output: team }], answer: "Platform and Search had {-15} incidents between them [s1]." },
  { id: "mean-1", steps: [{ id: 1, output: team }], answer: "Teams averaged {+7} incidents [s1]." },
  { id: "mean-2", steps: [{ id: 1, output: team }], answer: "Teams averaged {-9} incidents [s1]." },
  { id: "mean-3", steps: [{ id: 1, output: quarters }], answer: "Quarterly revenue averaged {+1,130} [s1]." },
  // Budgets and what is left.
  { id: "left-1", steps: [{ id: 1, output: budget }], answer: "Of the {+$50,000} budget, {+$42,150} is spent and {+$7,850} remains [s1]." },
  { id: "left-2", steps: [{ id: 1, output: budget }], answer: "We have spent {+84%} of the budget [s1]." },
  { id: "left-3", steps: [{ id: 1, output: budget }], answer: "We have spent {-94%} of the budget [s1]." },
  // Signs.
  { id: "sign-1", steps: [{ id: 1, output: finance }], answer: "Revenue shrank {+4.2%} [s1]." },
  { id: "sign-2", steps: [{ id: 1, output: finance }], answer: "Revenue grew {-4.2%} [s1]." },
  { id: "sign-3", steps: [{ id: 1, output: finance }], answer: "Revenue growth was {-4.2%} [s1]." },
  { id: "sign-4", steps: [{ id: 1, output: finance }], answer: "Revenue growth was {+-4.2%} [s1]." },
  { id: "sign-5", steps: [{ id: 1, output: finance }], answer: "The margin narrowed by {+1.5 points} [s1]." },
  { id: "sign-6", steps: [{ id: 1, output: finance }], answer: "The margin widened by {-1.5 points} [s1]." },
  { id: "sign-7", steps: [{ id: 1, output: finance }], answer: "Operating cash flow was a {-$3,400} outflow, a loss [s1]." },
  { id: "sign-8", steps: [{ id: 1, output: finance }], answer: "The company made a net profit of {-$1,200} [s1]." },
  // Superlatives, with a second figure beside them.
  {
    id: "superlative-1",
    steps: [{ id: 1, output: team }],
    answer: "Payments had the most incidents, {+12}, twice Platform's {+6} [s1].",
  },
  { id: "superlative-2", steps: [{ id: 1, output: team }], answer: "The most downtime was {-1.25 hours}, at Payments [s1]." },
  {
    id: "superlative-3",
    steps: [{ id: 1, output: team }],
    answer: "Search had the fewest incidents ({+3}) and the least downtime ({+0.5} hours) [s1].",
  },
  { id: "superlative-4", steps: [{ id: 1, output: team }], answer: "The fewest incidents were {-6} [s1]." },
  // Ranges.
  { id: "range-1", steps: [{ id: 1, output: team }], answer: "Teams had between {+3} and {+12} incidents each [s1]." },
  { id: "range-2", steps: [{ id: 1, output: team }], answer: "Teams had between {-2} and {-15} incidents each [s1]." },
  { id: "range-3", steps: [{ id: 1, output: team }], answer: "Incidents ranged from {+3} to {-10} a team [s1]." },
  { id: "range-4", steps: [{ id: 1, output: support }], answer: "We opened {+400–420} tickets [s1]." },
  { id: "range-5", steps: [{ id: 1, output: support }], answer: "We opened {-300–350} tickets [s1]." },
  { id: "range-6", steps: [{ id: 1, output: quarters }], answer: "Gross margin ran {+41–45%} over the quarters [s1]." },
  { id: "range-7", steps: [{ id: 1, output: quarters }], answer: "Gross margin ran {-38–45%} over the quarters [s1]." },
  // Research summaries.
  {
    id: "study-1",
    steps: [{ id: 1, output: study }],
    answer: "Of {+240} participants, {+65%} of the treatment arm responded against {+45%} of controls [s1].",
  },
  {
    id: "study-2",
    steps: [{ id: 1, output: study }],
    answer: "Response was {+65%} against {+45%}, {+20 percentage points} higher under treatment [s1].",
  },
  { id: "study-3", steps: [{ id: 1, output: study }], answer: "Response was {+65%} against {+45%}, {-25 percentage points} higher [s1]." },
  { id: "study-4", steps: [{ id: 1, output: study }], answer: "{+A third} of the treatment arm did not respond ({+42} of {+120}) [s1]." },
  { id: "study-5", steps: [{ id: 1, output: study }], answer: "{+Eighteen} participants dropped out, {+7.5%} of the total [s1]." },
  { id: "study-6", steps: [{ id: 1, output: study }], answer: "{-Twenty} participants dropped out [s1]." },
  // Numbers that are no figures: years, ordinals, list numbers, quarters, phone numbers.
  {
    id: "not-figures-1",
    steps: [{ id: 1, output: support }],
    answer: "1. In the 3rd week of 2026 we closed {+398} tickets, the second-best week this year [s1].",
  },
  { id: "not-figures-2", steps: [{ id: 1, output: contact }], answer: "Acme Ltd (+1 415-555-0132) placed {+14} orders [s1]." },
  {
    id: "not-figures-3",
    steps: [{ id: 1, output: support }],
    answer: "Since 2019 the backlog has never been this low: {+57} tickets [s1].",
  },
  { id: "not-figures-4", steps: [{ id: 1, output: support }], answer: "The median first response was {+42 minutes} [s1]." },
  { id: "not-figures-5", steps: [{ id: 1, output: support }], answer: "The median first response was {-24 minutes} [s1]." },
  // Units and conversions.
  { id: "units-1", steps: [{ id: 1, output: shipping }], answer: "We shipped {+3.4 tonnes} over {+1,250 km} [s1]." },
  { id: "units-2", steps: [{ id: 1, output: shipping }], answer: "We shipped {+3,400 kg} in {+85} shipments [s1]." },
  { id: "units-3", steps: [{ id: 1, output: shipping }], answer: "We shipped {-4,300 kg} [s1]." },
  // A second batch, written after the first was fixed, to see whether the fixes hold on shapes they were not made for.
  { id: "mkt-1", steps: [{ id: 1, output: marketing }], answer: "Ad spend fell {+7.5%} to {+$18.5k} while leads rose {+15.6%} [s1]." },
  { id: "mkt-2", steps: [{ id: 1, output: marketing }], answer: "Ad spend rose {-7.5%} while leads fell {-15.6%} [s1]." },
  {
    id: "mkt-3",
    steps: [{ id: 1, output: marketing }],
    answer: "Cost per lead was {+$10} on {+92,500} clicks, a {+2%} click-to-lead rate [s1].",
  },
  { id: "mkt-4", steps: [{ id: 1, output: marketing }], answer: "Cost per lead was {-$12} [s1]." },
  { id: "mkt-5", steps: [{ id: 1, output: marketing }], answer: "We spent {+$1,500} less than last month and got {+250} more leads [s1]." },
  { id: "mkt-6", steps: [{ id: 1, output: marketing }], answer: "We spent {-$1,500} more than last month [s1]." },
  { id: "region-1", steps: [{ id: 1, output: regions }], answer: "EMEA revenue was {+€840k} on {+2,100} orders [s1]." },
  { id: "region-2", steps: [{ id: 1, output: regions }], answer: "EMEA revenue was {-€610k} [s1]." },
  { id: "region-3", steps: [{ id: 1, output: regions }], answer: "APAC had the lowest return rate at {+4%} [s1]." },
  { id: "region-4", steps: [{ id: 1, output: regions }], answer: "The Americas returned {+211} orders, {+7%} of its {+3,020} [s1]." },
  { id: "region-5", steps: [{ id: 1, output: regions }], answer: "The Americas returned {-126} orders [s1]." },
  { id: "region-6", steps: [{ id: 1, output: regions }], answer: "Revenue across the three regions came to {+€2.74m} [s1]." },
  { id: "region-7", steps: [{ id: 1, output: regions }], answer: "Revenue across the three regions came to {-€2.47m} [s1]." },
  { id: "month-1", steps: [{ id: 1, output: monthly }], answer: "Active users grew {+6%} in October to {+13,150} [s1]." },
  { id: "month-2", steps: [{ id: 1, output: monthly }], answer: "Active users fell {-6%} in October [s1]." },
  { id: "month-3", steps: [{ id: 1, output: monthly }], answer: "Churn dropped to {+329} in October from {+372} in September [s1]." },
  { id: "month-4", steps: [{ id: 1, output: monthly }], answer: "Churn rose to {-392} in October [s1]." },
  { id: "month-5", steps: [{ id: 1, output: monthly }], answer: "Monthly churn averaged {+352} over the quarter [s1]." },
  { id: "month-6", steps: [{ id: 1, output: monthly }], answer: "Active users ranged from {+11,800} to {+13,150} [s1]." },
  {
    id: "survey-1",
    steps: [{ id: 1, output: survey }],
    answer: "Of {+1,200} respondents, {+68%} were satisfied and {+12%} dissatisfied [s1].",
  },
  { id: "survey-2", steps: [{ id: 1, output: survey }], answer: "Of 1,200 respondents, {-72%} were satisfied [s1]." },
  {
    id: "survey-3",
    steps: [{ id: 1, output: survey }],
    answer: "Satisfied respondents outnumbered dissatisfied ones more than {+5} to one [s1].",
  },
  { id: "survey-4", steps: [{ id: 1, output: survey }], answer: "Roughly {+two thirds} were satisfied, some {+816} people [s1]." },
  // A third batch, written after the second was fixed.
  { id: "shop-1", steps: [{ id: 1, output: shop }], answer: "Net revenue after refunds was {+€46,270} [s1]." },
  { id: "shop-2", steps: [{ id: 1, output: shop }], answer: "Net revenue after refunds was {-€46,720} [s1]." },
  { id: "shop-3", steps: [{ id: 1, output: shop }], answer: "The average order value was {+€40} and conversion {+3%} [s1]." },
  { id: "shop-4", steps: [{ id: 1, output: shop }], answer: "The average order value was {-€44} [s1]." },
  { id: "shop-5", steps: [{ id: 1, output: shop }], answer: "The refund rate rose {+0.8 points} to {+4%} [s1]." },
  { id: "shop-6", steps: [{ id: 1, output: shop }], answer: "The refund rate rose {+25%} in relative terms [s1]." },
  { id: "shop-7", steps: [{ id: 1, output: shop }], answer: "The refund rate fell {-0.8 points} [s1]." },
  { id: "shop-8", steps: [{ id: 1, output: shop }], answer: "Nearly {+1,200} orders came from just over {+40,000} visitors [s1]." },
  { id: "shop-9", steps: [{ id: 1, output: shop }], answer: "Nearly {-1,000} orders came in [s1]." },
  { id: "store-1", steps: [{ id: 1, output: stores }], answer: "Munich led with {+€201,750} in sales, {+40%} more than Hamburg [s1]." },
  { id: "store-2", steps: [{ id: 1, output: stores }], answer: "Munich led with {+€201,750} in sales, {-50%} more than Hamburg [s1]." },
  { id: "store-3", steps: [{ id: 1, output: stores }], answer: "Sales per employee were highest in Hamburg at {+€15,989} [s1]." },
  { id: "store-4", steps: [{ id: 1, output: stores }], answer: "Berlin's {+12} staff sold {+€182.4k} [s1]." },
  { id: "store-5", steps: [{ id: 1, output: stores }], answer: "Berlin's {-14} staff sold €182.4k [s1]." },
  { id: "store-6", steps: [{ id: 1, output: stores }], answer: "The three stores sold {+€528,050} together, Munich {+38%} of it [s1]." },
  { id: "store-7", steps: [{ id: 1, output: stores }], answer: "The three stores sold €528,050 together, Munich {-48%} of it [s1]." },
  { id: "store-8", steps: [{ id: 1, output: stores }], answer: "Umsatz in Berlin: {+182.400 €}, in München {+201.750 €} [s1]." },
  { id: "store-9", steps: [{ id: 1, output: stores }], answer: "Umsatz in Hamburg: {-134.900 €} [s1]." },
  ...laterReportShapes,
  ...reportShapeProbes,
  ...heldOutKindsBatches,
];
