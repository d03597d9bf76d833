import type { LabelledCase } from "./labelled-cases.js";

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
const saas = {
  mrr_usd: 84200,
  mrr_last_month_usd: 79800,
  new_mrr_usd: 6900,
  churned_mrr_usd: 2500,
  customers: 412,
  customers_last_month: 398,
};
const pnl = { revenue_2025: 12.4, revenue_2024: 13.1, ebitda_2025: -0.8, ebitda_2024: 0.6, net_debt_2025: 3.2 };
const accounts = {
  accounts: {
    northwind: { arr_usd: 120000, seats: 340, tickets: 18 },
    contoso: { arr_usd: 98000, seats: 410, tickets: 31 },
  },
};
const weekly = [
  { week: "2026-W44", signups: 310, activations: 124 },
  { week: "2026-W45", signups: 355, activations: 149 },
  { week: "2026-W46", signups: 298, activations: 131 },
];
const ops = {
  tickets_resolved: 540,
  tickets_escalated: 60,
  avg_handle_time_min: 7.5,
  avg_handle_time_min_prev: 8.25,
  sla_breaches: 12,
  sla_breaches_prev: 20,
};
const fleet = {
  depots: {
    leeds: { vans: 24, deliveries: 3120, late: 94 },
    bristol: { vans: 18, deliveries: 2490, late: 137 },
    glasgow: { vans: 15, deliveries: 1880, late: 41 },
  },
};
const fx = { revenue_chf: 1234567.8, costs_chf: -987654.3, revenue_inr: 8450000, margin: 0.2 };
const yoy = {
  bookings_2025: 48100,
  bookings_2024: 52300,
  churn_rate_2025: 0.061,
  churn_rate_2024: 0.048,
  headcount_2025: 212,
  headcount_2024: 188,
};
const company = {
  company: {
    segments: {
      cloud: { revenue_eur_m: 412.5, operating_margin_pct: 18.2 },
      licences: { revenue_eur_m: 288.1, operating_margin_pct: 31.4 },
      services: { revenue_eur_m: 97.4, operating_margin_pct: -4.6 },
    },
  },
};
const de = { umsatz_eur: 1234567.89, gewinn_eur: -45210.5, mitarbeiter: 21 };
const contact = { name: "Acme Ltd", phone: "+1 415-555-0132", orders: 14 };

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
  // A fourth batch, written after the third was fixed.
  { id: "saas-1", steps: [{ id: 1, output: saas }], answer: "MRR grew {+5.5%} month on month to {+$84.2k} [s1]." },
  { id: "saas-2", steps: [{ id: 1, output: saas }], answer: "MRR shrank {-5.5%} month on month [s1]." },
  { id: "saas-3", steps: [{ id: 1, output: saas }], answer: "Net new MRR was {+$4,400} ({+$6,900} new less {+$2,500} churned) [s1]." },
  { id: "saas-4", steps: [{ id: 1, output: saas }], answer: "Net new MRR was {-$9,400} [s1]." },
  { id: "saas-5", steps: [{ id: 1, output: saas }], answer: "We added {+14} customers, ending at {+412} [s1]." },
  { id: "saas-6", steps: [{ id: 1, output: saas }], answer: "We lost {-14} customers, ending at 412 [s1]." },
  { id: "saas-7", steps: [{ id: 1, output: saas }], answer: "Average revenue per customer was {+$204} [s1]." },
  { id: "pnl-1", steps: [{ id: 1, output: pnl }], answer: "Revenue declined {+5.3%} to {+$12.4m} in 2025 [s1]." },
  { id: "pnl-2", steps: [{ id: 1, output: pnl }], answer: "Revenue grew {-5.3%} in 2025 [s1]." },
  { id: "pnl-3", steps: [{ id: 1, output: pnl }], answer: "EBITDA swung to a loss of {+$0.8m} from a profit of {+$0.6m} [s1]." },
  { id: "pnl-4", steps: [{ id: 1, output: pnl }], answer: "EBITDA was a profit of {-$0.8m} in 2025 [s1]." },
  { id: "pnl-5", steps: [{ id: 1, output: pnl }], answer: "EBITDA was {+-$0.8m} in 2025, against {+$0.6m} in 2024 [s1]." },
  { id: "pnl-6", steps: [{ id: 1, output: pnl }], answer: "Net debt stood at {+$3.2m} [s1]." },
  { id: "acct-1", steps: [{ id: 1, output: accounts }], answer: "Northwind pays {+$120k} a year for {+340} seats [s1]." },
  { id: "acct-2", steps: [{ id: 1, output: accounts }], answer: "Northwind pays {-$98k} a year [s1]." },
  { id: "acct-3", steps: [{ id: 1, output: accounts }], answer: "Contoso opened {+31} tickets, {+13} more than Northwind [s1]." },
  { id: "acct-4", steps: [{ id: 1, output: accounts }], answer: "Contoso opened {-18} tickets [s1]." },
  { id: "acct-5", steps: [{ id: 1, output: accounts }], answer: "Together the two accounts are worth {+$218k} in ARR [s1]." },
  { id: "week-1", steps: [{ id: 1, output: weekly }], answer: "Signups peaked at {+355} in week 45, then fell {+16%} [s1]." },
  { id: "week-2", steps: [{ id: 1, output: weekly }], answer: "Signups peaked at {-310} in week 44 [s1]." },
  { id: "week-3", steps: [{ id: 1, output: weekly }], answer: "Activation was {+42%} of signups in week 45 [s1]." },
  { id: "week-4", steps: [{ id: 1, output: weekly }], answer: "Over the three weeks, {+963} people signed up and {+404} activated [s1]." },
  { id: "week-5", steps: [{ id: 1, output: weekly }], answer: "Over the three weeks, {-936} people signed up [s1]." },
  { id: "week-6", steps: [{ id: 1, output: weekly }], answer: "{+Three hundred and ten} people signed up in the first week [s1]." },
  // A fifth batch, written after the fourth was fixed.
  { id: "ops-1", steps: [{ id: 1, output: ops }], answer: "We resolved {+540} tickets and escalated {+60}, {+600} in all [s1]." },
  { id: "ops-2", steps: [{ id: 1, output: ops }], answer: "Escalations were {+10%} of all tickets handled [s1]." },
  { id: "ops-3", steps: [{ id: 1, output: ops }], answer: "Escalations were {-12%} of all tickets handled [s1]." },
  { id: "ops-4", steps: [{ id: 1, output: ops }], answer: "Average handle time improved by {+45 seconds} to {+7.5 minutes} [s1]." },
  { id: "ops-5", steps: [{ id: 1, output: ops }], answer: "SLA breaches fell from {+20} to {+12}, a {+40%} drop [s1]." },
  { id: "ops-6", steps: [{ id: 1, output: ops }], answer: "SLA breaches rose {-40%} [s1]." },
  { id: "ops-7", steps: [{ id: 1, output: ops }], answer: "Handle time fell {+9.1%} [s1]." },
  {
    id: "fleet-1",
    steps: [{ id: 1, output: fleet }],
    answer: "Bristol had the most late deliveries, {+137}, or {+5.5%} of its {+2,490} [s1].",
  },
  { id: "fleet-2", steps: [{ id: 1, output: fleet }], answer: "Leeds had the most late deliveries, {-137} [s1]." },
  { id: "fleet-3", steps: [{ id: 1, output: fleet }], answer: "Glasgow's {+15} vans made {+1,880} deliveries, about {+125} per van [s1]." },
  { id: "fleet-4", steps: [{ id: 1, output: fleet }], answer: "Glasgow's vans made {-2,490} deliveries [s1]." },
  { id: "fleet-5", steps: [{ id: 1, output: fleet }], answer: "Across the {+57} vans, deliveries totalled {+7,490} [s1]." },
  { id: "fleet-6", steps: [{ id: 1, output: fleet }], answer: "Across the depots, deliveries totalled {-7,940} [s1]." },
  { id: "fleet-7", steps: [{ id: 1, output: fleet }], answer: "The lowest late rate was Glasgow's {+2.2%} [s1]." },
  { id: "fx-1", steps: [{ id: 1, output: fx }], answer: "Umsatz {+CHF 1’234’567.80}, Kosten {+CHF -987’654.30} [s1]." },
  { id: "fx-2", steps: [{ id: 1, output: fx }], answer: "Umsatz {-CHF 1’243’567.80} [s1]." },
  { id: "fx-3", steps: [{ id: 1, output: fx }], answer: "Costs came to {+CHF 987,654.30} [s1]." },
  { id: "fx-4", steps: [{ id: 1, output: fx }], answer: "Revenue in India was {+₹84.5 lakh} [s1]." },
  { id: "fx-5", steps: [{ id: 1, output: fx }], answer: "Revenue in India was {-₹48.5 lakh} [s1]." },
  { id: "fx-6", steps: [{ id: 1, output: fx }], answer: "The margin was {+20 per cent}, or {+one fifth} of revenue [s1]." },
  // A sixth batch, written after the fifth was fixed.
  { id: "yoy-1", steps: [{ id: 1, output: yoy }], answer: "Bookings were {+$48.1k}, down {+8%} year over year [s1]." },
  { id: "yoy-2", steps: [{ id: 1, output: yoy }], answer: "Bookings were {+$48.1k}, up {-8%} year over year [s1]." },
  { id: "yoy-3", steps: [{ id: 1, output: yoy }], answer: "Churn rose {+1.3 percentage points} to {+6.1%} versus 2024 [s1]." },
  { id: "yoy-4", steps: [{ id: 1, output: yoy }], answer: "Churn rose {+27%} in relative terms [s1]." },
  { id: "yoy-5", steps: [{ id: 1, output: yoy }], answer: "Churn fell {-1.3 percentage points} [s1]." },
  { id: "yoy-6", steps: [{ id: 1, output: yoy }], answer: "Headcount was {+212}, up from {+188} a year earlier ({+24} more) [s1]." },
  { id: "yoy-7", steps: [{ id: 1, output: yoy }], answer: "Headcount was {+212}, {-22} more than a year earlier [s1]." },
  { id: "seg-1", steps: [{ id: 1, output: company }], answer: "Cloud revenue was {+€412.5m} at an {+18.2%} operating margin [s1]." },
  { id: "seg-2", steps: [{ id: 1, output: company }], answer: "Cloud revenue was {-€288.1m} [s1]." },
  { id: "seg-3", steps: [{ id: 1, output: company }], answer: "Services ran at a {+-4.6%} margin, a loss [s1]." },
  { id: "seg-4", steps: [{ id: 1, output: company }], answer: "Services ran at a {-4.6%} margin [s1]." },
  { id: "seg-5", steps: [{ id: 1, output: company }], answer: "Licences had the highest margin, {+31.4%} [s1]." },
  { id: "seg-6", steps: [{ id: 1, output: company }], answer: "Services had the highest margin, {-18.2%} [s1]." },
  { id: "seg-7", steps: [{ id: 1, output: company }], answer: "The three segments made {+€798.0m} in revenue, cloud {+52%} of it [s1]." },
  { id: "de-1", steps: [{ id: 1, output: de }], answer: "Der Umsatz lag bei {+1.234.567,89 €}, der Verlust bei {+45.210,50 €} [s1]." },
  { id: "de-2", steps: [{ id: 1, output: de }], answer: "Der Umsatz lag bei {-1.243.567,89 €} [s1]." },
  { id: "de-3", steps: [{ id: 1, output: de }], answer: "Umsatz: {+€ 1,23 Mio.} mit {+21} Mitarbeitern [s1]." },
  { id: "de-4", steps: [{ id: 1, output: de }], answer: "We have {+twenty-one} staff, not {-two dozen} [s1]." },
  // Written with the fix for superlatives over nested entities and change fields (not before it).
  { id: "nested-sup-1", steps: [{ id: 1, output: fleet }], answer: "Leeds made the most deliveries, {+3,120} [s1]." },
  { id: "nested-sup-2", steps: [{ id: 1, output: fleet }], answer: "Bristol made the most deliveries, {-2,490} [s1]." },
  { id: "nested-sup-3", steps: [{ id: 1, output: fleet }], answer: "The fewest late deliveries were Glasgow's {+41} [s1]." },
  { id: "change-field-1", steps: [{ id: 1, output: { revenue_change_pct: 5 } }], answer: "Revenue fell {-5%} [s1]." },
  { id: "change-field-2", steps: [{ id: 1, output: { revenue_change_pct: 5 } }], answer: "Revenue grew {+5%} [s1]." },
];
