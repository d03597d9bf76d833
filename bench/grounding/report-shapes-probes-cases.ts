import type { LabelledCase } from "./labelled-cases.js";

/**
 * An eighth batch of the report-shapes suite, written before its fixes from the kinds of figure
 * the held-out suite's table showed weak (changes with a direction, derivations across fields,
 * sums and averages, aggregates, signs, ranges, superlatives): the shapes tools return (SQL's
 * `columns`/`rows`, a CSV export, an API's list of objects, objects by region and by period)
 * and the sentences weekly sales reports, finance tables and support summaries write of them.
 */
const sqlResult = {
  columns: ["region", "revenue_usd", "orders"],
  rows: [
    ["North", 48200, 610],
    ["South", 39150, 522],
    ["West", 27400, 388],
  ],
};
const csvExport = "week,tickets,resolved,backlog\n2026-W46,412,380,96\n2026-W47,455,431,120\n";
const stripeBalance = {
  object: "list",
  data: [
    { id: "txn_1", type: "charge", amount: 12900, fee: 404, net: 12496, currency: "usd" },
    { id: "txn_2", type: "refund", amount: -2500, fee: 0, net: -2500, currency: "usd" },
    { id: "txn_3", type: "charge", amount: 8400, fee: 274, net: 8126, currency: "usd" },
  ],
};
const periods = { current_period: { mrr: 52400, customers: 318 }, previous_period: { mrr: 49800, customers: 305 } };
const byQuarter = { revenue: { q1: 2.31, q2: 2.58 }, operating_income: { q1: -0.12, q2: 0.09 } };
const pnl = { revenue_usd: 410000, cost_of_goods_usd: 246000, operating_expenses_usd: 198000, net_income_usd: -34000 };
const temperatures = [
  { city: "Oslo", low_c: -7.5, high_c: -1.2 },
  { city: "Madrid", low_c: 4.1, high_c: 14.8 },
  { city: "Cairo", low_c: 12.3, high_c: 24.6 },
];
const sprint = { sprint_42: { points_committed: 48, points_done: 41 }, sprint_41: { points_committed: 45, points_done: 44 } };
const stores = [
  { store: "Hamburg", sales_eur: 182400, staff: 12 },
  { store: "Munich", sales_eur: 211750, staff: 14 },
  { store: "Cologne", sales_eur: 96300, staff: 7 },
  { store: "Berlin", sales_eur: 203100, staff: 15 },
];
const weekly = { orders_this_week: 1342, orders_last_week: 1288, aov_this_week: 61.2, aov_last_week: 64.75 };
const cashflow = { operating_cash_flow: 1.84, investing_cash_flow: -2.61, financing_cash_flow: 0.95 };

const yearRows = [
  { year: 2024, revenue: 1000 },
  { year: 2025, revenue: 1150 },
];
const weekRows = [
  { week: "2026-W46", tickets: 412 },
  { week: "2026-W47", tickets: 455 },
];
const quarterRows = [
  { quarter: "2025-Q4", bookings: 800 },
  { quarter: "2026-Q1", bookings: 880 },
];

export const reportShapeProbes: LabelledCase[] = [
  // Columns and rows, as SQL tools return them.
  { id: "probe-sql-1", steps: [{ id: 1, output: sqlResult }], answer: "North led with {+$48,200} from {+610} orders [s1]." },
  { id: "probe-sql-2", steps: [{ id: 1, output: sqlResult }], answer: "North brought in {-$39,150} [s1]." },
  { id: "probe-sql-3", steps: [{ id: 1, output: sqlResult }], answer: "The three regions took {+$114,750} in all [s1]." },
  { id: "probe-sql-4", steps: [{ id: 1, output: sqlResult }], answer: "North and South together took {+$87,350} [s1]." },
  { id: "probe-sql-5", steps: [{ id: 1, output: sqlResult }], answer: "North and South together took {-$75,600} [s1]." },
  { id: "probe-sql-6", steps: [{ id: 1, output: sqlResult }], answer: "The lowest revenue was West's, {+$27,400} [s1]." },
  { id: "probe-sql-7", steps: [{ id: 1, output: sqlResult }], answer: "The lowest revenue was South's, {-$39,150} [s1]." },
  { id: "probe-sql-8", steps: [{ id: 1, output: sqlResult }], answer: "Regions averaged {+507} orders [s1]." },
  // A CSV export read as text.
  { id: "probe-csv-1", steps: [{ id: 1, output: csvExport }], answer: "Tickets rose from {+412} to {+455} in week 47, up {+10.4%} [s1]." },
  { id: "probe-csv-2", steps: [{ id: 1, output: csvExport }], answer: "Tickets fell {-10.4%} in week 47 [s1]." },
  { id: "probe-csv-3", steps: [{ id: 1, output: csvExport }], answer: "The backlog grew by {+24} to {+120} [s1]." },
  { id: "probe-csv-4", steps: [{ id: 1, output: csvExport }], answer: "The backlog shrank by {-24} [s1]." },
  // An API's list of objects with signed amounts in cents.
  { id: "probe-stripe-1", steps: [{ id: 1, output: stripeBalance }], answer: "Net came to {+18,122} cents over {+3} transactions [s1]." },
  { id: "probe-stripe-2", steps: [{ id: 1, output: stripeBalance }], answer: "One refund of {+-2,500} cents went out [s1]." },
  { id: "probe-stripe-3", steps: [{ id: 1, output: stripeBalance }], answer: "The largest charge was {-8,400} cents [s1]." },
  { id: "probe-stripe-4", steps: [{ id: 1, output: stripeBalance }], answer: "Fees totalled {+678} cents [s1]." },
  // Two periods as sibling objects.
  { id: "probe-period-1", steps: [{ id: 1, output: periods }], answer: "MRR grew {+5.2%} to {+$52.4k} [s1]." },
  { id: "probe-period-2", steps: [{ id: 1, output: periods }], answer: "MRR fell {-5.2%} [s1]." },
  { id: "probe-period-3", steps: [{ id: 1, output: periods }], answer: "We gained {+13} customers over the previous period [s1]." },
  { id: "probe-period-4", steps: [{ id: 1, output: periods }], answer: "We lost {-13} customers over the previous period [s1]." },
  // Quarters inside a measure, in millions.
  { id: "probe-quarter-1", steps: [{ id: 1, output: byQuarter }], answer: "Revenue rose {+11.7%} to {+$2.58m} in Q2 [s1]." },
  { id: "probe-quarter-2", steps: [{ id: 1, output: byQuarter }], answer: "Revenue fell {-11.7%} in Q2 [s1]." },
  {
    id: "probe-quarter-3",
    steps: [{ id: 1, output: byQuarter }],
    answer: "Operating income swung from a loss of {+$0.12m} to a profit of {+$0.09m} [s1].",
  },
  { id: "probe-quarter-4", steps: [{ id: 1, output: byQuarter }], answer: "Operating income was {-$0.12m} in Q1 [s1]." },
  // A P&L: differences of named fields, signs.
  {
    id: "probe-pnl-1",
    steps: [{ id: 1, output: pnl }],
    answer: "Revenue less cost of goods left {+$164,000}, a {+40%} gross margin [s1].",
  },
  { id: "probe-pnl-2", steps: [{ id: 1, output: pnl }], answer: "Revenue less cost of goods left {-$146,000} [s1]." },
  { id: "probe-pnl-3", steps: [{ id: 1, output: pnl }], answer: "The company lost {+$34,000} [s1]." },
  { id: "probe-pnl-4", steps: [{ id: 1, output: pnl }], answer: "Net income was {-$34,000} [s1]." },
  { id: "probe-pnl-5", steps: [{ id: 1, output: pnl }], answer: "Net income was {+−$34,000} on revenue of {+$410,000} [s1]." },
  // Negative values in a table, ranges over it.
  { id: "probe-temp-1", steps: [{ id: 1, output: temperatures }], answer: "Lows ran from {+-7.5}°C to {+12.3}°C [s1]." },
  { id: "probe-temp-2", steps: [{ id: 1, output: temperatures }], answer: "Lows ran from {-7.5}°C to 12.3°C [s1]." },
  {
    id: "probe-temp-3",
    steps: [{ id: 1, output: temperatures }],
    answer: "Oslo stayed below freezing, between {+-7.5} and {+-1.2} degrees [s1].",
  },
  { id: "probe-temp-4", steps: [{ id: 1, output: temperatures }], answer: "The warmest high was Cairo's {+24.6}°C [s1]." },
  { id: "probe-temp-5", steps: [{ id: 1, output: temperatures }], answer: "The warmest high was Madrid's {-14.8}°C [s1]." },
  { id: "probe-temp-6", steps: [{ id: 1, output: temperatures }], answer: "Highs ranged from {+-1.2} to {+24.6} degrees [s1]." },
  { id: "probe-temp-7", steps: [{ id: 1, output: temperatures }], answer: "Highs ranged from -1.2 to {-26.4} degrees [s1]." },
  // Periods named by keys with numbers.
  {
    id: "probe-sprint-1",
    steps: [{ id: 1, output: sprint }],
    answer: "Sprint 42 delivered {+41} of {+48} points, {+3} fewer than sprint 41 [s1].",
  },
  { id: "probe-sprint-2", steps: [{ id: 1, output: sprint }], answer: "Sprint 42 delivered {-3} more points than sprint 41 [s1]." },
  { id: "probe-sprint-3", steps: [{ id: 1, output: sprint }], answer: "Sprint 42 completed {+85%} of its commitment [s1]." },
  // Stores: superlatives, rates, shares, entity attribution.
  { id: "probe-store-1", steps: [{ id: 1, output: stores }], answer: "Munich had the highest sales at {+€211,750} [s1]." },
  { id: "probe-store-2", steps: [{ id: 1, output: stores }], answer: "Berlin had the highest sales at {-€203,100} [s1]." },
  { id: "probe-store-3", steps: [{ id: 1, output: stores }], answer: "Cologne, the smallest store, sold {+€96,300} with {+7} staff [s1]." },
  { id: "probe-store-4", steps: [{ id: 1, output: stores }], answer: "Cologne sold {-€182,400} [s1]." },
  { id: "probe-store-5", steps: [{ id: 1, output: stores }], answer: "Munich made {+30.5%} of all sales [s1]." },
  { id: "probe-store-6", steps: [{ id: 1, output: stores }], answer: "Berlin sold {+€13,540} per employee [s1]." },
  { id: "probe-store-7", steps: [{ id: 1, output: stores }], answer: "Sales across the four stores came to {+€693,550} [s1]." },
  { id: "probe-store-8", steps: [{ id: 1, output: stores }], answer: "Hamburg sold {+€86,100} more than Cologne [s1]." },
  { id: "probe-store-9", steps: [{ id: 1, output: stores }], answer: "Hamburg sold {-€86,100} less than Cologne [s1]." },
  // This week against last.
  {
    id: "probe-week-1",
    steps: [{ id: 1, output: weekly }],
    answer: "Orders were up {+4.2%} at {+1,342}, but AOV fell {+5.5%} to {+$61.20} [s1].",
  },
  { id: "probe-week-2", steps: [{ id: 1, output: weekly }], answer: "AOV rose {-5.5%} [s1]." },
  { id: "probe-week-3", steps: [{ id: 1, output: weekly }], answer: "We took {+54} more orders than last week [s1]." },
  { id: "probe-week-4", steps: [{ id: 1, output: weekly }], answer: "AOV dropped by {+$3.55} [s1]." },
  // Cash flows in millions, signs.
  { id: "probe-cash-1", steps: [{ id: 1, output: cashflow }], answer: "Investing used {+$2.61m}, so net cash flow was {+$0.18m} [s1]." },
  { id: "probe-cash-2", steps: [{ id: 1, output: cashflow }], answer: "Investing brought in {-$2.61m} [s1]." },
  { id: "probe-cash-3", steps: [{ id: 1, output: cashflow }], answer: "Operating cash flow was {+$1.84m} [s1]." },
  { id: "probe-cash-4", steps: [{ id: 1, output: cashflow }], answer: "Investing cash flow was a positive {-$2.61m} [s1]." },
  // A ninth batch, written after the eighth was fixed: periods as tools write them (years as numbers, "2026-W47",
  // "2025-Q4", `fy2025`, `revenue_w47`, `{ jan, feb }`) and changes "week on week" of a table's latest row.
  { id: "probe-years-1", steps: [{ id: 1, output: yearRows }], answer: "Revenue grew {+15%} in 2025 [s1]." },
  { id: "probe-years-2", steps: [{ id: 1, output: yearRows }], answer: "Revenue fell {-15%} in 2025 [s1]." },
  { id: "probe-years-3", steps: [{ id: 1, output: yearRows }], answer: "Revenue was {-1,000} in 2025 [s1]." },
  { id: "probe-weeks-1", steps: [{ id: 1, output: weekRows }], answer: "Tickets rose {+10.4%} in week 47 [s1]." },
  { id: "probe-weeks-2", steps: [{ id: 1, output: weekRows }], answer: "Tickets rose {+10.4%} week on week [s1]." },
  { id: "probe-weeks-3", steps: [{ id: 1, output: weekRows }], answer: "Tickets fell {-10.4%} week on week [s1]." },
  { id: "probe-quarters-1", steps: [{ id: 1, output: quarterRows }], answer: "Bookings grew {+10%} quarter on quarter [s1]." },
  { id: "probe-quarters-2", steps: [{ id: 1, output: quarterRows }], answer: "Bookings grew {-12%} quarter on quarter [s1]." },
  {
    id: "probe-fy-1",
    steps: [{ id: 1, output: { fy2024: { revenue: 1000 }, fy2025: { revenue: 1150 } } }],
    answer: "Revenue grew {+15%} in FY2025 [s1].",
  },
  { id: "probe-wk-1", steps: [{ id: 1, output: { revenue_w46: 900, revenue_w47: 990 } }], answer: "Revenue rose {+10%} in week 47 [s1]." },
  { id: "probe-wk-2", steps: [{ id: 1, output: { revenue_w46: 900, revenue_w47: 990 } }], answer: "Revenue fell {-10%} in week 47 [s1]." },
  { id: "probe-months-1", steps: [{ id: 1, output: { jan: 200, feb: 230 } }], answer: "Sales rose {+15%} from January to February [s1]." },
  {
    id: "probe-vs-1",
    steps: [{ id: 1, output: { revenue_this_week: 900, revenue_last_week: 1000 } }],
    answer: "Revenue {+900} vs {+1,000} last week, {+-100} [s1].",
  },
  {
    id: "probe-vs-2",
    steps: [{ id: 1, output: { revenue_this_week: 900, revenue_last_week: 1000 } }],
    answer: "Revenue 900 vs 1,000 last week, {-+100} [s1].",
  },
];
