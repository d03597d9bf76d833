import type { LabelledCase } from "./labelled-cases.js";

/**
 * A tenth batch of the report-shapes suite, written before its fixes from docs/grounded-reports.md's
 * promises and from the weekly sales, support, finance and operations reports a model writes from
 * JSON step outputs: fields of different names for two periods (`revenue_this_week` and
 * `revenue_last_week`), nested objects by region and by period, tables of rows, negative money,
 * numbers in other locales' styles (`€1.234,50`, `1 234,50 €`, `CHF 1'234.50`, `₹12,34,567`),
 * changes with their direction, sums and averages of what the sentence names, ranges and
 * spreads, superlatives and a figure said to be one entity's.
 */
const salesWeek = {
  revenue_this_week: 48250.5,
  revenue_last_week: 52100,
  orders_this_week: 1210,
  orders_last_week: 1175,
  refunds: 1930.25,
  returns: 41,
};
const supportWeek = {
  tickets_opened: 640,
  tickets_closed: 612,
  backlog_start: 180,
  backlog_end: 208,
  first_response_hours: 3.4,
  first_response_hours_prev: 4.1,
  csat_pct: 88.5,
  csat_pct_prev: 91,
};
const finance = {
  revenue_usd: 2450000,
  operating_expenses_usd: 2710000,
  operating_income_usd: -260000,
  net_income_usd: -312500,
  cash_start_usd: 2150000,
  cash_end_usd: 1840000,
};
const regionRows = [
  { region: "North", revenue: 124500, orders: 1310, refunds: 3200 },
  { region: "South", revenue: 98000, orders: 1105, refunds: 4150 },
  { region: "East", revenue: 143200, orders: 1480, refunds: 2750 },
  { region: "West", revenue: 87650, orders: 960, refunds: 1980 },
];
const regionObjects = {
  regions: {
    north: { revenue: 980, tickets: 42 },
    south: { revenue: 1120, tickets: 37 },
    west: { revenue: 760, tickets: 51 },
  },
};
const weekRows = [
  { week: "2026-W44", orders: 1180, revenue_usd: 61250 },
  { week: "2026-W45", orders: 1242, revenue_usd: 64100 },
  { week: "2026-W46", orders: 1198, revenue_usd: 59980 },
  { week: "2026-W47", orders: 1305, revenue_usd: 68420 },
];
const monthRows = [
  { month: "2026-09", signups: 4210, churned_accounts: 380 },
  { month: "2026-10", signups: 4585, churned_accounts: 412 },
  { month: "2026-11", signups: 4390, churned_accounts: 365 },
];
const kpis = {
  this_week: { sessions: 182400, conversions: 3648, revenue_eur: 97250 },
  last_week: { sessions: 171900, conversions: 3610, revenue_eur: 99100 },
};
const channels = { web_orders: 812, app_orders: 466, phone_orders: 57 };
const budget = { budget_eur: 120000, actual_eur: 131400 };
const quarterPnl = { quarter: "Q3", revenue_usd_m: 58.3, ebitda_usd_m: -4.2, free_cash_flow_usd_m: -1.1 };
const balances = [
  { account: "Operating", balance_usd: 15420.75 },
  { account: "Payroll", balance_usd: -2380.4 },
];
const products = [
  { sku: "A-100", product: "Desk Lamp", units: 420, revenue_usd: 12600 },
  { sku: "B-200", product: "Office Chair", units: 95, revenue_usd: 23750 },
  { sku: "C-300", product: "Monitor Arm", units: 260, revenue_usd: 15340 },
];
const yearly = { revenue_2025: 1.84, revenue_2024: 1.62 };
const byMonthFields = { revenue_october: 210500, revenue_november: 198300 };
const headcount = { headcount_opening: 212, headcount_closing: 224, hires: 19, leavers: 7 };
const spend = { marketing_spend_usd: 18400, sales_spend_usd: 26750 };
const segments = [
  { segment: "Retail", operating_income_usd_m: 12.4 },
  { segment: "Wholesale", operating_income_usd_m: -3.1 },
];
const margins = { gross_margin_pct: 42.3, gross_margin_pct_prev: 40.5 };
const regionOrders = { orders_north: 420, orders_south: 385, orders_west: 290 };
const eurWeek = { revenue_eur: 1234.5, revenue_prev_eur: 1100, orders: 1205 };
const chf = { revenue_chf: 1234.5, costs_chf: 987.25 };
const inr = { revenue_inr: 1234567, revenue_prev_inr: 1100000 };
const eurLoss = { net_income_eur: -1234.5 };
const bigEur = { revenue_eur: 98765.4 };
const repo = { full_name: "acme/widgets", stargazers_count: 12840, forks_count: 1312, open_issues_count: 287 };
const users = { active_users: 12400, paying_users: 1860 };
const escalations = { tickets_total: 640, tickets_escalated: 48 };
const aov = { revenue_usd: 245000, orders: 3120 };
const deficit = { budget_balance_usd: -84000 };
const storesCsv = "store,sales_eur,staff\nHamburg,182400,12\nMunich,211750,14\nCologne,96300,7\n";
const growth = {
  revenue_growth: -0.042,
  margin_change_pp: -1.5,
  eps_usd: -0.35,
  operating_cash_flow_usd_m: 3.4,
  investing_cash_flow_usd_m: -2.61,
};
const weather = [
  { city: "Oslo", low_c: -7.5, high_c: -1.2 },
  { city: "Madrid", low_c: 4.1, high_c: 14.8 },
];
const regionChange = [
  { region: "North", revenue: 124500, revenue_change_pct: -3.2 },
  { region: "South", revenue: 98000, revenue_change_pct: 5.4 },
];
const profit = { net_income_usd: 1200, operating_income_usd: 3400 };
const txns = [
  { id: "txn_1", type: "charge", amount: 12900 },
  { id: "txn_2", type: "refund", amount: -2500 },
  { id: "txn_3", type: "charge", amount: 8400 },
];
const conversion = [
  { channel: "Web", conversion_pct: 12.4 },
  { channel: "App", conversion_pct: 14.1 },
  { channel: "Email", conversion_pct: 17.1 },
];
const weekTotals = { revenue_usd: 68420, orders: 1305 };
const backlog = { backlog_start: 40, backlog_end: 52 };
const accounts = {
  accounts: {
    northwind: { name: "Northwind", arr_usd: 120000, seats: 340 },
    contoso: { name: "Contoso", arr_usd: 98000, seats: 410 },
    fabrikam: { name: "Fabrikam", arr_usd: 143500, seats: 220 },
  },
};
const byCountry = { by_country: { germany: { revenue_eur: 410000 }, france: { revenue_eur: 365000 } } };
const agents = [
  { agent: "Li Wei", tickets_closed: 84 },
  { agent: "Ana Souza", tickets_closed: 97 },
];
const mrrPeriods = { current: { mrr: 52400 }, previous: { mrr: 49800 } };
const quarterFields = { q3_revenue: 4.1, q2_revenue: 3.8 };
const plan = { plan_usd: 50000, actual_usd: 42150 };
const grossNet = { gross_revenue: 48200, net_revenue: 46270 };
const ticketKinds = { tickets_new: 120, tickets_reopened: 18 };
const sessions = { sessions_mobile: 54200, sessions_desktop: 38100 };
const nestedQuarters = () => ({ revenue: { q2: 1100, q3: 1250 } });
const deEur = { revenue_eur: 1234567.89, orders: 12345, revenue_m_eur: 3.4, group_revenue_eur: 1.2e9, share: 0.125 };
const frEur = { revenue_eur: 2500000, net_income_eur: -1234.5 };
const inrBig = { revenue_inr: 12345678 };
const chfBig = { revenue_chf: 1234567.8 };
const changeFractions = { revenue_change: -0.074, margin_change: -0.015, nps: -12 };
const accountsById = {
  accounts: {
    acc_1: { name: "Northwind", arr_usd: 120000 },
    acc_2: { name: "Contoso", arr_usd: 98000 },
  },
};
const orderRows = [
  { customer: { name: "Northwind" }, total_usd: 1200 },
  { customer: { name: "Contoso" }, total_usd: 950 },
];
const teams = [
  { team: "Platform", incidents: 6 },
  { team: "Payments", incidents: 12 },
  { team: "Search", incidents: 3 },
];
const customers = { new_customers: 620, churned_customers: 85 };
const calls = { inbound_calls: 1840, answered_calls: 1712 };
const discounts = { revenue_gross_usd: 58200, discounts_usd: 4150 };
const weekdays = { open_tickets_monday: 120, open_tickets_friday: 96 };
const cpc = { cost_per_click_usd: 0.42, cost_per_click_prev_usd: 0.38, aov_usd: 61.2, aov_prev_usd: 64.75 };
const metricRows = {
  columns: ["metric", "this_week", "last_week"],
  rows: [
    ["revenue", 900, 1000],
    ["orders", 45, 50],
  ],
};
const invoice = { data: { attributes: { total_amount: "1234.50", currency: "EUR" } } };
const ops = { p95_latency_ms: 412.7, uptime: 0.9987, conversion: 0.0345 };
const millions = { revenue_usd: 1234567, stars: 12840 };

export const tenthReportShapes: LabelledCase[] = [
  // Two periods as fields of different names.
  { id: "tenth-sales-1", steps: [{ id: 1, output: salesWeek }], answer: "Revenue fell {+7.4%} to {+$48,250.50} [s1]." },
  { id: "tenth-sales-2", steps: [{ id: 1, output: salesWeek }], answer: "Revenue rose {-7.4%} on last week [s1]." },
  { id: "tenth-sales-3", steps: [{ id: 1, output: salesWeek }], answer: "Revenue was down {+$3,849.50} on last week [s1]." },
  { id: "tenth-sales-4", steps: [{ id: 1, output: salesWeek }], answer: "Revenue was up {-$3,849.50} on last week [s1]." },
  { id: "tenth-sales-5", steps: [{ id: 1, output: salesWeek }], answer: "Orders rose by {+35} to {+1,210} [s1]." },
  { id: "tenth-sales-6", steps: [{ id: 1, output: salesWeek }], answer: "We took {+35} more orders than last week [s1]." },
  { id: "tenth-sales-7", steps: [{ id: 1, output: salesWeek }], answer: "We took {-35} fewer orders than last week [s1]." },
  { id: "tenth-sales-8", steps: [{ id: 1, output: salesWeek }], answer: "Orders were up {+3.0%} week on week [s1]." },
  {
    id: "tenth-sales-9",
    steps: [{ id: 1, output: salesWeek }],
    answer: "Refunds came to {+$1,930.25} on {+41} returns, leaving net revenue after refunds of {+$46,320.25} [s1].",
  },
  { id: "tenth-sales-10", steps: [{ id: 1, output: salesWeek }], answer: "Orders went from {-1,157} to {+1,210} [s1]." },
  {
    id: "tenth-sales-11",
    steps: [{ id: 1, output: salesWeek }],
    answer: "## Weekly sales\n\n- Revenue: {+$48,250.50} [s1]\n- Orders: {+1,210}, up from {+1,175} [s1]\n- Refunds: {-$1,390.25} [s1]\n",
  },
  // A support week: opened and closed, start and end, a metric and its earlier twin.
  { id: "tenth-support-1", steps: [{ id: 1, output: supportWeek }], answer: "The backlog grew by {+28} to {+208} [s1]." },
  { id: "tenth-support-2", steps: [{ id: 1, output: supportWeek }], answer: "The backlog shrank by {-28} this week [s1]." },
  { id: "tenth-support-3", steps: [{ id: 1, output: supportWeek }], answer: "We opened {+28} more tickets than we closed [s1]." },
  { id: "tenth-support-4", steps: [{ id: 1, output: supportWeek }], answer: "We closed {-28} more tickets than we opened [s1]." },
  {
    id: "tenth-support-5",
    steps: [{ id: 1, output: supportWeek }],
    answer: "First response time fell {+0.7} hours to {+3.4} hours, a drop of {+17.1%} [s1].",
  },
  { id: "tenth-support-6", steps: [{ id: 1, output: supportWeek }], answer: "First response time rose {-0.7} hours [s1]." },
  { id: "tenth-support-7", steps: [{ id: 1, output: supportWeek }], answer: "CSAT was {+88.5%}, down {+2.5 points} [s1]." },
  { id: "tenth-support-8", steps: [{ id: 1, output: supportWeek }], answer: "CSAT was 88.5%, up {-2.5 points} [s1]." },
  // Finance: losses, signs, brackets.
  { id: "tenth-fin-1", steps: [{ id: 1, output: finance }], answer: "Net income was {-$312,500} for the quarter [s1]." },
  { id: "tenth-fin-2", steps: [{ id: 1, output: finance }], answer: "The company posted a net loss of {+$312,500} [s1]." },
  { id: "tenth-fin-3", steps: [{ id: 1, output: finance }], answer: "Net income was {+-$312,500} [s1]." },
  { id: "tenth-fin-4", steps: [{ id: 1, output: finance }], answer: "Net income: {+($312,500)} [s1]." },
  { id: "tenth-fin-5", steps: [{ id: 1, output: finance }], answer: "Operating income was {-$260,000} [s1]." },
  { id: "tenth-fin-6", steps: [{ id: 1, output: finance }], answer: "The operating loss came to {+$0.26m} [s1]." },
  { id: "tenth-fin-7", steps: [{ id: 1, output: finance }], answer: "Operating expenses exceeded revenue by {+$260,000} [s1]." },
  { id: "tenth-fin-8", steps: [{ id: 1, output: finance }], answer: "Revenue exceeded operating expenses by {-$260,000} [s1]." },
  { id: "tenth-fin-9", steps: [{ id: 1, output: finance }], answer: "Cash fell {+$310,000} to {+$1.84m} [s1]." },
  { id: "tenth-fin-10", steps: [{ id: 1, output: finance }], answer: "Cash rose {-$310,000} over the quarter [s1]." },
  // A table of regions: attribution, superlatives, sums, averages, spreads, shares.
  { id: "tenth-region-1", steps: [{ id: 1, output: regionRows }], answer: "North's revenue was {+$124,500} [s1]." },
  { id: "tenth-region-2", steps: [{ id: 1, output: regionRows }], answer: "South's revenue was {-$124,500} [s1]." },
  { id: "tenth-region-3", steps: [{ id: 1, output: regionRows }], answer: "East had the highest revenue, {+$143,200} [s1]." },
  { id: "tenth-region-4", steps: [{ id: 1, output: regionRows }], answer: "North had the highest revenue, {-$124,500} [s1]." },
  { id: "tenth-region-5", steps: [{ id: 1, output: regionRows }], answer: "The lowest refunds were West's, {+$1,980} [s1]." },
  { id: "tenth-region-6", steps: [{ id: 1, output: regionRows }], answer: "The highest refunds were North's, {-$3,200} [s1]." },
  { id: "tenth-region-7", steps: [{ id: 1, output: regionRows }], answer: "North had the second-highest revenue, {+$124,500} [s1]." },
  {
    id: "tenth-region-8",
    steps: [{ id: 1, output: regionRows }],
    answer: "Revenue ranged from {+$87,650} to {+$143,200} across the regions [s1].",
  },
  {
    id: "tenth-region-9",
    steps: [{ id: 1, output: regionRows }],
    answer: "Revenue ranged from {+$87,650} to {-$124,500} across the regions [s1].",
  },
  { id: "tenth-region-10", steps: [{ id: 1, output: regionRows }], answer: "North and South together took {+$222,500} [s1]." },
  { id: "tenth-region-11", steps: [{ id: 1, output: regionRows }], answer: "North and East together took {-$257,700} [s1]." },
  { id: "tenth-region-12", steps: [{ id: 1, output: regionRows }], answer: "Revenue averaged {+$113,337.50} per region [s1]." },
  { id: "tenth-region-13", steps: [{ id: 1, output: regionRows }], answer: "The four regions took {+$453,350} in total [s1]." },
  { id: "tenth-region-14", steps: [{ id: 1, output: regionRows }], answer: "East took {+$55,550} more than West [s1]." },
  { id: "tenth-region-15", steps: [{ id: 1, output: regionRows }], answer: "West took {-$55,550} more than East [s1]." },
  { id: "tenth-region-16", steps: [{ id: 1, output: regionRows }], answer: "Revenue rose {-63.4%} [s1]." },
  { id: "tenth-region-17", steps: [{ id: 1, output: regionRows }], answer: "Revenue was up {-26.3%} this week [s1]." },
  { id: "tenth-region-18", steps: [{ id: 1, output: regionRows }], answer: "East made {+31.6%} of revenue [s1]." },
  { id: "tenth-region-19", steps: [{ id: 1, output: regionRows }], answer: "North made {-31.6%} of revenue [s1]." },
  { id: "tenth-region-20", steps: [{ id: 1, output: regionRows }], answer: "North's revenue per order was {+$95.04} [s1]." },
  { id: "tenth-region-21", steps: [{ id: 1, output: regionRows }], answer: "Each region averaged {+1,213.75} orders [s1]." },
  {
    id: "tenth-region-22",
    steps: [{ id: 1, output: regionRows }],
    answer: "The gap between North and South was {+$26,500} in revenue [s1].",
  },
  {
    id: "tenth-region-23",
    steps: [{ id: 1, output: regionRows }],
    answer: "The gap between the highest and lowest revenue was {+$55,550} [s1].",
  },
  { id: "tenth-region-24", steps: [{ id: 1, output: regionRows }], answer: "Regions took between {+960} and {+1,480} orders each [s1]." },
  {
    id: "tenth-region-25",
    steps: [{ id: 1, output: regionRows }],
    answer:
      "| Region | Revenue | Orders |\n| --- | --- | --- |\n| North | {+$124,500} | {+1,310} |\n| South | {+$98,000} | {-1,150} |\n\nSource: [s1]",
  },
  // Regions as sibling objects.
  { id: "tenth-obj-1", steps: [{ id: 1, output: regionObjects }], answer: "South's revenue was {+1,120} [s1]." },
  { id: "tenth-obj-2", steps: [{ id: 1, output: regionObjects }], answer: "North's revenue was {-1,120} [s1]." },
  { id: "tenth-obj-3", steps: [{ id: 1, output: regionObjects }], answer: "West had the most tickets, {+51} [s1]." },
  { id: "tenth-obj-4", steps: [{ id: 1, output: regionObjects }], answer: "South had the most tickets, {-37} [s1]." },
  { id: "tenth-obj-5", steps: [{ id: 1, output: regionObjects }], answer: "North and West together made {+1,740} [s1]." },
  { id: "tenth-obj-6", steps: [{ id: 1, output: regionObjects }], answer: "The three regions made {+2,860} in all [s1]." },
  { id: "tenth-obj-7", steps: [{ id: 1, output: regionObjects }], answer: "Tickets averaged {+43.3} per region [s1]." },
  // A table of weeks.
  { id: "tenth-week-1", steps: [{ id: 1, output: weekRows }], answer: "Orders rose {+8.9%} in week 47 [s1]." },
  { id: "tenth-week-2", steps: [{ id: 1, output: weekRows }], answer: "Orders fell {-8.9%} in week 47 [s1]." },
  { id: "tenth-week-3", steps: [{ id: 1, output: weekRows }], answer: "Orders fell by {+44} in week 46 [s1]." },
  { id: "tenth-week-4", steps: [{ id: 1, output: weekRows }], answer: "Orders rose by {-44} in week 46 [s1]." },
  { id: "tenth-week-5", steps: [{ id: 1, output: weekRows }], answer: "Revenue was up {+14.1%} week on week [s1]." },
  { id: "tenth-week-6", steps: [{ id: 1, output: weekRows }], answer: "Revenue was up {-6.7%} week on week [s1]." },
  { id: "tenth-week-7", steps: [{ id: 1, output: weekRows }], answer: "Over the four weeks orders totalled {+4,925} [s1]." },
  { id: "tenth-week-8", steps: [{ id: 1, output: weekRows }], answer: "Weekly orders ranged from {+1,180} to {+1,305} [s1]." },
  { id: "tenth-week-9", steps: [{ id: 1, output: weekRows }], answer: "Revenue averaged {+$63,437.50} a week [s1]." },
  {
    id: "tenth-week-10",
    steps: [{ id: 1, output: weekRows }],
    answer: "Revenue grew from {+$61,250} in week 44 to {+$68,420} in week 47, up {+11.7%} [s1].",
  },
  { id: "tenth-week-11", steps: [{ id: 1, output: weekRows }], answer: "The best week was week 47, with {+$68,420} in revenue [s1]." },
  { id: "tenth-week-12", steps: [{ id: 1, output: weekRows }], answer: "The weakest week was week 44, with {-$61,250} in revenue [s1]." },
  { id: "tenth-week-13", steps: [{ id: 1, output: weekRows }], answer: "Weekly orders ranged from {+1,180} to {-1,250} [s1]." },
  { id: "tenth-week-14", steps: [{ id: 1, output: weekRows }], answer: "Revenue was between {+$60k} and {+$70k} in week 47 [s1]." },
  { id: "tenth-week-15", steps: [{ id: 1, output: weekRows }], answer: "Revenue was between {-$70k} and {-$75k} in week 47 [s1]." },
  { id: "tenth-week-16", steps: [{ id: 1, output: weekRows }], answer: "Weeks had between {+1,180} and {+1,305} orders each [s1]." },
  { id: "tenth-week-17", steps: [{ id: 1, output: weekRows }], answer: "Weeks had between {+1,180} and {-1,250} orders each [s1]." },
  // A table of months.
  { id: "tenth-month-1", steps: [{ id: 1, output: monthRows }], answer: "Signups fell {+4.3%} in November [s1]." },
  { id: "tenth-month-2", steps: [{ id: 1, output: monthRows }], answer: "Signups rose {-4.3%} in November [s1]." },
  { id: "tenth-month-3", steps: [{ id: 1, output: monthRows }], answer: "Churned accounts fell by {+47} in November [s1]." },
  { id: "tenth-month-4", steps: [{ id: 1, output: monthRows }], answer: "Signups rose by {+375} in October [s1]." },
  { id: "tenth-month-5", steps: [{ id: 1, output: monthRows }], answer: "Churned accounts rose by {-47} in November [s1]." },
  // Periods as nested objects.
  { id: "tenth-kpi-1", steps: [{ id: 1, output: kpis }], answer: "Sessions rose {+6.1%} to {+182,400} [s1]." },
  { id: "tenth-kpi-2", steps: [{ id: 1, output: kpis }], answer: "Revenue slipped {+1.9%} to {+€97,250} [s1]." },
  { id: "tenth-kpi-3", steps: [{ id: 1, output: kpis }], answer: "Revenue rose {-1.9%} [s1]." },
  { id: "tenth-kpi-4", steps: [{ id: 1, output: kpis }], answer: "The conversion rate was {+2.0%} this week [s1]." },
  { id: "tenth-kpi-5", steps: [{ id: 1, output: kpis }], answer: "Conversions were up {+38} [s1]." },
  { id: "tenth-kpi-6", steps: [{ id: 1, output: kpis }], answer: "Conversions were down {-38} [s1]." },
  // Sums and averages of named fields.
  { id: "tenth-channel-1", steps: [{ id: 1, output: channels }], answer: "Web and app orders came to {+1,278} together [s1]." },
  { id: "tenth-channel-2", steps: [{ id: 1, output: channels }], answer: "Web, app and phone orders came to {+1,335} in total [s1]." },
  { id: "tenth-channel-3", steps: [{ id: 1, output: channels }], answer: "Web, app and phone orders came to {-1,345} in total [s1]." },
  { id: "tenth-channel-4", steps: [{ id: 1, output: channels }], answer: "App orders were {+34.9%} of all orders [s1]." },
  { id: "tenth-channel-5", steps: [{ id: 1, output: channels }], answer: "App orders were {-60.8%} of all orders [s1]." },
  {
    id: "tenth-two-steps-1",
    steps: [
      { id: 1, output: { orders: 127 } },
      { id: 2, output: { returns: 14 } },
    ],
    answer:
      "Orders and returns together: {+141} [s1, s2]. Orders exceeded returns by {+113}, and returns were {+11.0%} of orders [s1, s2].",
  },
  {
    id: "tenth-two-steps-2",
    steps: [
      { id: 1, output: { week: "2026-W46", tickets: 412 } },
      { id: 2, output: { week: "2026-W47", tickets: 455 } },
    ],
    answer: "Tickets averaged {+433.5} a week over the two weeks [s1, s2], rising by {+43} in week 47 [s1, s2].",
  },
  {
    id: "tenth-two-steps-3",
    steps: [
      { id: 1, output: { week: "2026-W46", tickets: 412 } },
      { id: 2, output: { week: "2026-W47", tickets: 455 } },
    ],
    answer: "Tickets fell by {-43} in week 47 [s1, s2].",
  },
  { id: "tenth-spend-1", steps: [{ id: 1, output: spend }], answer: "Marketing and sales spend combined came to {+$45,150} [s1]." },
  { id: "tenth-spend-2", steps: [{ id: 1, output: spend }], answer: "Marketing and sales spend combined came to {-$45,510} [s1]." },
  { id: "tenth-rorders-1", steps: [{ id: 1, output: regionOrders }], answer: "North and South took {+805} orders together [s1]." },
  { id: "tenth-rorders-2", steps: [{ id: 1, output: regionOrders }], answer: "North and West took {-805} orders together [s1]." },
  // Plan against actual.
  { id: "tenth-budget-1", steps: [{ id: 1, output: budget }], answer: "Spending ran {+€11,400} over budget, {+9.5%} above plan [s1]." },
  { id: "tenth-budget-2", steps: [{ id: 1, output: budget }], answer: "Spending came in {-€11,400} under budget [s1]." },
  // Signs in a quarter's results, in millions.
  { id: "tenth-q-1", steps: [{ id: 1, output: quarterPnl }], answer: "EBITDA was {-$4.2m} in Q3 [s1]." },
  { id: "tenth-q-2", steps: [{ id: 1, output: quarterPnl }], answer: "EBITDA was {+-$4.2m} in Q3 on revenue of {+$58.3m} [s1]." },
  { id: "tenth-q-3", steps: [{ id: 1, output: quarterPnl }], answer: "EBITDA was negative at {+$4.2 million} [s1]." },
  { id: "tenth-q-4", steps: [{ id: 1, output: quarterPnl }], answer: "Free cash flow was {-$1.1m} [s1]." },
  { id: "tenth-q-5", steps: [{ id: 1, output: quarterPnl }], answer: "Free cash flow was {+−$1.1m} [s1]." },
  { id: "tenth-q-6", steps: [{ id: 1, output: quarterPnl }], answer: "Revenue was {-−$58.3m} [s1]." },
  // Account balances.
  { id: "tenth-bal-1", steps: [{ id: 1, output: balances }], answer: "The Payroll account was overdrawn by {+$2,380.40} [s1]." },
  { id: "tenth-bal-2", steps: [{ id: 1, output: balances }], answer: "The Payroll account held {-$2,380.40} [s1]." },
  { id: "tenth-bal-3", steps: [{ id: 1, output: balances }], answer: "Payroll balance: {+($2,380.40)} [s1]." },
  { id: "tenth-bal-4", steps: [{ id: 1, output: balances }], answer: "The Operating account held {+$15,420.75} [s1]." },
  { id: "tenth-deficit-1", steps: [{ id: 1, output: deficit }], answer: "The budget showed a deficit of {+$84,000} [s1]." },
  { id: "tenth-deficit-2", steps: [{ id: 1, output: deficit }], answer: "The budget showed a surplus of {-$84,000} [s1]." },
  // Segments with a loss.
  { id: "tenth-seg-1", steps: [{ id: 1, output: segments }], answer: "Wholesale made an operating loss of {+$3.1m} [s1]." },
  { id: "tenth-seg-2", steps: [{ id: 1, output: segments }], answer: "Wholesale's operating income was {-$3.1m} [s1]." },
  { id: "tenth-seg-3", steps: [{ id: 1, output: segments }], answer: "Operating income across the segments totalled {+$9.3m} [s1]." },
  // Products: names, superlatives.
  {
    id: "tenth-prod-1",
    steps: [{ id: 1, output: products }],
    answer: "The best seller by units was the Desk Lamp, with {+420} sold [s1].",
  },
  {
    id: "tenth-prod-2",
    steps: [{ id: 1, output: products }],
    answer: "The top product by revenue was the Office Chair at {+$23,750} [s1].",
  },
  {
    id: "tenth-prod-3",
    steps: [{ id: 1, output: products }],
    answer: "The top product by revenue was the Monitor Arm at {-$15,340} [s1].",
  },
  { id: "tenth-prod-4", steps: [{ id: 1, output: products }], answer: "The fewest units sold of any product were {-260} [s1]." },
  { id: "tenth-prod-5", steps: [{ id: 1, output: products }], answer: "The Monitor Arm sold {+260} units [s1]." },
  { id: "tenth-prod-6", steps: [{ id: 1, output: products }], answer: "The Desk Lamp sold {-260} units [s1]." },
  { id: "tenth-prod-7", steps: [{ id: 1, output: products }], answer: "Units fell {-77.4%} [s1]." },
  // Years, months and quarters in field names.
  {
    id: "tenth-year-1",
    steps: [{ id: 1, output: yearly }],
    answer: "Revenue grew {+13.6%} year over year to {+$1.84m} [s1].",
  },
  { id: "tenth-year-2", steps: [{ id: 1, output: yearly }], answer: "Revenue was down {-$220k} year over year [s1]." },
  { id: "tenth-year-3", steps: [{ id: 1, output: yearly }], answer: "Revenue was up {+$0.22m} on 2024 [s1]." },
  { id: "tenth-month-field-1", steps: [{ id: 1, output: byMonthFields }], answer: "Revenue dropped {+5.8%} in November [s1]." },
  { id: "tenth-month-field-2", steps: [{ id: 1, output: byMonthFields }], answer: "Revenue grew {-5.8%} in November [s1]." },
  {
    id: "tenth-month-field-3",
    steps: [{ id: 1, output: byMonthFields }],
    answer: "November revenue was {+$12,200} below October's [s1].",
  },
  {
    id: "tenth-month-field-4",
    steps: [{ id: 1, output: byMonthFields }],
    answer: "November revenue was {-$12,200} above October's [s1].",
  },
  // Headcount.
  { id: "tenth-hc-1", steps: [{ id: 1, output: headcount }], answer: "Headcount grew by {+12} to {+224} [s1]." },
  { id: "tenth-hc-2", steps: [{ id: 1, output: headcount }], answer: "Hires exceeded leavers by {+12} [s1]." },
  { id: "tenth-hc-3", steps: [{ id: 1, output: headcount }], answer: "Leavers exceeded hires by {-12} [s1]." },
  { id: "tenth-hc-4", steps: [{ id: 1, output: headcount }], answer: "Headcount fell by {-12} [s1]." },
  // Margins in points.
  { id: "tenth-margin-1", steps: [{ id: 1, output: margins }], answer: "Gross margin improved {+1.8 points} to {+42.3%} [s1]." },
  { id: "tenth-margin-2", steps: [{ id: 1, output: margins }], answer: "Gross margin fell {-1.8 points} [s1]." },
  // Other locales.
  { id: "tenth-de-1", steps: [{ id: 1, output: eurWeek }], answer: "Der Umsatz stieg auf {+1.234,50 €} [s1]." },
  { id: "tenth-de-2", steps: [{ id: 1, output: eurWeek }], answer: "Der Umsatz lag bei {-€1.243,50} [s1]." },
  { id: "tenth-de-3", steps: [{ id: 1, output: eurWeek }], answer: "Der Umsatz stieg um {+12,2 %} [s1]." },
  {
    id: "tenth-de-4",
    steps: [{ id: 1, output: eurWeek }],
    answer: "Der Umsatz lag bei {+1.234,50 €} aus {+1.205} Bestellungen [s1].",
  },
  { id: "tenth-de-5", steps: [{ id: 1, output: eurWeek }], answer: "Der Umsatz sank um {-12,2 %} [s1]." },
  { id: "tenth-fr-1", steps: [{ id: 1, output: eurWeek }], answer: "Le chiffre d’affaires s’élève à {+1\u202f234,50 €} [s1]." },
  { id: "tenth-fr-2", steps: [{ id: 1, output: eurWeek }], answer: "Le chiffre d’affaires s’élève à {+1 234,50 €} [s1]." },
  { id: "tenth-fr-3", steps: [{ id: 1, output: bigEur }], answer: "Le chiffre d’affaires atteint {+98\u202f765,40 €} [s1]." },
  { id: "tenth-fr-4", steps: [{ id: 1, output: bigEur }], answer: "Le chiffre d’affaires atteint {-98\u202f756,40 €} [s1]." },
  { id: "tenth-es-1", steps: [{ id: 1, output: eurWeek }], answer: "Las ventas subieron un {+12,2 %} hasta {+1.234,50 €} [s1]." },
  { id: "tenth-it-1", steps: [{ id: 1, output: eurWeek }], answer: "Il fatturato è cresciuto del {+12,2%} a {+€ 1.234,50} [s1]." },
  { id: "tenth-eur-1", steps: [{ id: 1, output: bigEur }], answer: "Revenue: {+98.765,40 EUR} [s1]." },
  {
    id: "tenth-chf-1",
    steps: [{ id: 1, output: chf }],
    answer: "Revenue of {+CHF 1'234.50} against costs of {+CHF 987.25} left {+CHF 247.25} [s1].",
  },
  { id: "tenth-chf-2", steps: [{ id: 1, output: chf }], answer: "Revenue came to {+CHF 1’234.50} [s1]." },
  { id: "tenth-chf-3", steps: [{ id: 1, output: chf }], answer: "Revenue came to {-CHF 1'324.50} [s1]." },
  { id: "tenth-inr-1", steps: [{ id: 1, output: inr }], answer: "Revenue rose to {+₹12,34,567}, up {+12.2%} [s1]." },
  { id: "tenth-inr-2", steps: [{ id: 1, output: inr }], answer: "Revenue was {-₹12,34,657} [s1]." },
  { id: "tenth-inr-3", steps: [{ id: 1, output: inr }], answer: "Revenue was {+₹12.3 lakh} this month [s1]." },
  { id: "tenth-eur-loss-1", steps: [{ id: 1, output: eurLoss }], answer: "Das Nettoergebnis betrug {+-1.234,50 €} [s1]." },
  { id: "tenth-eur-loss-2", steps: [{ id: 1, output: eurLoss }], answer: "Net income was {-€1.234,50} [s1]." },
  // An API's object, ratios and shares of named fields.
  {
    id: "tenth-repo-1",
    steps: [{ id: 1, output: repo }],
    answer: "acme/widgets has {+12,840} stars, {+1,312} forks and {+287} open issues [s1].",
  },
  { id: "tenth-repo-2", steps: [{ id: 1, output: repo }], answer: "acme/widgets has {-12,480} stars [s1]." },
  { id: "tenth-users-1", steps: [{ id: 1, output: users }], answer: "{+15%} of active users are paying users [s1]." },
  { id: "tenth-esc-1", steps: [{ id: 1, output: escalations }], answer: "Escalations were {+7.5%} of all tickets [s1]." },
  { id: "tenth-esc-2", steps: [{ id: 1, output: escalations }], answer: "Escalations were {-8.5%} of all tickets [s1]." },
  { id: "tenth-aov-1", steps: [{ id: 1, output: aov }], answer: "The average order value was {+$78.53} [s1]." },
  { id: "tenth-aov-2", steps: [{ id: 1, output: aov }], answer: "The average order value was {-$87.53} [s1]." },
  // Numbers in words.
  {
    id: "tenth-words-1",
    steps: [{ id: 1, output: { escalations: 15, tickets: 240 } }],
    answer: "Of {+two hundred and forty} tickets, {+fifteen} were escalated [s1].",
  },
  { id: "tenth-words-2", steps: [{ id: 1, output: { escalations: 14 } }], answer: "{-Twelve} tickets were escalated [s1]." },
  // A CSV export: attribution.
  { id: "tenth-csv-1", steps: [{ id: 1, output: storesCsv }], answer: "Munich sold {+€211,750} with {+14} staff [s1]." },
  { id: "tenth-csv-2", steps: [{ id: 1, output: storesCsv }], answer: "Munich sold {-€182,400} [s1]." },
  { id: "tenth-csv-3", steps: [{ id: 1, output: storesCsv }], answer: "Cologne had the fewest staff, {+7} [s1]." },
  { id: "tenth-csv-4", steps: [{ id: 1, output: storesCsv }], answer: "Hamburg had the fewest staff, {-12} [s1]." },
  // Second part, written before any fix too: signs as steps show them.
  { id: "tenth-sign-1", steps: [{ id: 1, output: growth }], answer: "Revenue growth was {-4.2%} [s1]." },
  { id: "tenth-sign-2", steps: [{ id: 1, output: growth }], answer: "Revenue growth was {+-4.2%} [s1]." },
  { id: "tenth-sign-3", steps: [{ id: 1, output: growth }], answer: "Revenue shrank {+4.2%} [s1]." },
  { id: "tenth-sign-4", steps: [{ id: 1, output: growth }], answer: "The margin widened by {-1.5 pp} [s1]." },
  { id: "tenth-sign-5", steps: [{ id: 1, output: growth }], answer: "The margin narrowed by {+1.5 pp} [s1]." },
  { id: "tenth-sign-6", steps: [{ id: 1, output: growth }], answer: "EPS was {-$0.35} [s1]." },
  { id: "tenth-sign-7", steps: [{ id: 1, output: growth }], answer: "EPS was a loss of {+$0.35} per share [s1]." },
  { id: "tenth-sign-8", steps: [{ id: 1, output: growth }], answer: "Operating cash flow was {-−$3.4m} [s1]." },
  { id: "tenth-sign-9", steps: [{ id: 1, output: growth }], answer: "Investing cash flow was {-$2.61m} [s1]." },
  { id: "tenth-sign-10", steps: [{ id: 1, output: growth }], answer: "Cash used in investing was {+$2.61m} [s1]." },
  { id: "tenth-sign-11", steps: [{ id: 1, output: weather }], answer: "Oslo's low was {-7.5°C} [s1]." },
  { id: "tenth-sign-12", steps: [{ id: 1, output: weather }], answer: "Oslo's low was {+-7.5°C}, its high {+−1.2°C} [s1]." },
  { id: "tenth-sign-13", steps: [{ id: 1, output: regionChange }], answer: "North's revenue grew {-3.2%} [s1]." },
  { id: "tenth-sign-14", steps: [{ id: 1, output: regionChange }], answer: "North's revenue fell {+3.2%} [s1]." },
  { id: "tenth-sign-15", steps: [{ id: 1, output: regionChange }], answer: "South's revenue fell {-5.4%} [s1]." },
  { id: "tenth-sign-16", steps: [{ id: 1, output: regionChange }], answer: "South's revenue grew {+5.4%} [s1]." },
  { id: "tenth-sign-17", steps: [{ id: 1, output: profit }], answer: "The company made a net loss of {-$1,200} [s1]." },
  { id: "tenth-sign-18", steps: [{ id: 1, output: profit }], answer: "Net income was {-(1,200)} [s1]." },
  { id: "tenth-sign-19", steps: [{ id: 1, output: profit }], answer: "Net income rose to {+$1,200} [s1]." },
  { id: "tenth-sign-20", steps: [{ id: 1, output: txns }], answer: "Charges totalled {+21,300} cents [s1]." },
  { id: "tenth-sign-21", steps: [{ id: 1, output: txns }], answer: "Net of the refund, {+18,800} cents came in [s1]." },
  // Ranges: over a column, estimates of one value, a move from one level to another.
  {
    id: "tenth-range-1",
    steps: [{ id: 1, output: conversion }],
    answer: "Conversion ranged from {+12.4%} to {+17.1%} across channels [s1].",
  },
  {
    id: "tenth-range-2",
    steps: [{ id: 1, output: conversion }],
    answer: "Conversion ranged from {+12.4%} to {-15.1%} across channels [s1].",
  },
  { id: "tenth-range-3", steps: [{ id: 1, output: conversion }], answer: "Every channel converted between {+12%} and {+18%} [s1]." },
  { id: "tenth-range-4", steps: [{ id: 1, output: conversion }], answer: "Every channel converted between {+12%} and {-15%} [s1]." },
  {
    id: "tenth-range-5",
    steps: [{ id: 1, output: weekTotals }],
    answer: "Revenue came in between {+$65,000} and {+$70,000} [s1].",
  },
  {
    id: "tenth-range-6",
    steps: [{ id: 1, output: weekTotals }],
    answer: "Revenue came in between {-$70,000} and {-$75,000} [s1].",
  },
  { id: "tenth-range-7", steps: [{ id: 1, output: backlog }], answer: "The backlog went from {+40} to {-55} [s1]." },
  { id: "tenth-range-8", steps: [{ id: 1, output: backlog }], answer: "The backlog grew from {+40} to {+52}, up {+30%} [s1]." },
  // Superlatives and ranks.
  { id: "tenth-sup-1", steps: [{ id: 1, output: regionRows }], answer: "Revenue was highest in East at {+$143,200} [s1]." },
  { id: "tenth-sup-2", steps: [{ id: 1, output: regionRows }], answer: "Revenue was highest in North at {-$124,500} [s1]." },
  { id: "tenth-sup-3", steps: [{ id: 1, output: regionRows }], answer: "The second-highest revenue was {-$143,200} [s1]." },
  { id: "tenth-sup-4", steps: [{ id: 1, output: regionRows }], answer: "The biggest refunds were South's, {+$4,150} [s1]." },
  {
    id: "tenth-sup-5",
    steps: [{ id: 1, output: regionRows }],
    answer: "The smallest region by revenue, West, took {+$87,650} [s1].",
  },
  {
    id: "tenth-sup-6",
    steps: [{ id: 1, output: regionRows }],
    answer: "The smallest region by revenue, South, took {-$98,000} [s1].",
  },
  { id: "tenth-sup-7", steps: [{ id: 1, output: regionRows }], answer: "East led on orders with {+1,480} [s1]." },
  { id: "tenth-sup-8", steps: [{ id: 1, output: regionRows }], answer: "North led on orders with {-1,310} [s1]." },
  { id: "tenth-sup-9", steps: [{ id: 1, output: regionRows }], answer: "Most orders came from North, {-1,310} [s1]." },
  { id: "tenth-sup-10", steps: [{ id: 1, output: regionRows }], answer: "Orders hit a low of {+960} in West [s1]." },
  {
    id: "tenth-sup-11",
    steps: [{ id: 1, output: accounts }],
    answer: "The largest account by ARR is Fabrikam at {+$143,500} [s1].",
  },
  {
    id: "tenth-sup-12",
    steps: [{ id: 1, output: accounts }],
    answer: "The largest account by ARR is Northwind at {-$120,000} [s1].",
  },
  { id: "tenth-sup-13", steps: [{ id: 1, output: accounts }], answer: "Contoso has the most seats, {+410} [s1]." },
  { id: "tenth-sup-14", steps: [{ id: 1, output: accounts }], answer: "Northwind has the fewest seats, {-340} [s1]." },
  { id: "tenth-sup-15", steps: [{ id: 1, output: accounts }], answer: "Fabrikam has the fewest seats, {+220} [s1]." },
  // A figure said to be one entity's.
  { id: "tenth-attr-1", steps: [{ id: 1, output: regionRows }], answer: "In South, revenue was {-$124,500} [s1]." },
  {
    id: "tenth-attr-2",
    steps: [{ id: 1, output: regionRows }],
    answer: "North brought in {+$124,500} and South {+$98,000} [s1].",
  },
  {
    id: "tenth-attr-3",
    steps: [{ id: 1, output: regionRows }],
    answer: "- North: {+$124,500} [s1]\n- South: {-$143,200} [s1]\n- West: {+$87,650} [s1]\n",
  },
  { id: "tenth-attr-4", steps: [{ id: 1, output: accounts }], answer: "Contoso's ARR is {-$120,000} [s1]." },
  { id: "tenth-attr-5", steps: [{ id: 1, output: accounts }], answer: "Northwind's ARR is {+$120,000} on {+340} seats [s1]." },
  { id: "tenth-attr-6", steps: [{ id: 1, output: byCountry }], answer: "France's revenue was {-€410,000} [s1]." },
  { id: "tenth-attr-7", steps: [{ id: 1, output: byCountry }], answer: "Germany's revenue was {+€410,000} [s1]." },
  { id: "tenth-attr-8", steps: [{ id: 1, output: agents }], answer: "Li Wei closed {-97} tickets [s1]." },
  { id: "tenth-attr-9", steps: [{ id: 1, output: agents }], answer: "Ana Souza closed {+97} tickets [s1]." },
  // More locales.
  { id: "tenth-loc-1", steps: [{ id: 1, output: eurWeek }], answer: "Ventas: {+1234,50 €} [s1]." },
  { id: "tenth-loc-2", steps: [{ id: 1, output: eurWeek }], answer: "Umsatz: {+EUR 1.234,50} [s1]." },
  { id: "tenth-loc-3", steps: [{ id: 1, output: chf }], answer: "Umsatz: {+1’234.50 CHF} [s1]." },
  { id: "tenth-loc-4", steps: [{ id: 1, output: inr }], answer: "Revenue: {+INR 12,34,567.00} [s1]." },
  { id: "tenth-loc-5", steps: [{ id: 1, output: eurWeek }], answer: "Le chiffre d’affaires est en hausse de {+12,2 %} [s1]." },
  { id: "tenth-loc-6", steps: [{ id: 1, output: eurWeek }], answer: "Le chiffre d’affaires est en baisse de {-12,2 %} [s1]." },
  {
    id: "tenth-loc-7",
    steps: [{ id: 1, output: eurWeek }],
    answer: "Le chiffre d’affaires atteint {+1 234,50 €} pour {+1 205} commandes [s1].",
  },
  { id: "tenth-loc-8", steps: [{ id: 1, output: chf }], answer: "Die Kosten betrugen {-CHF 978.25} [s1]." },
  // Direct values, rounded.
  { id: "tenth-direct-1", steps: [{ id: 1, output: millions }], answer: "Revenue was {+$1.2M} from {+12.8k} stars' worth of users [s1]." },
  { id: "tenth-direct-2", steps: [{ id: 1, output: millions }], answer: "Revenue was {-$1.3M} [s1]." },
  { id: "tenth-direct-3", steps: [{ id: 1, output: millions }], answer: "The repo passed {-12.9k} stars [s1]." },
  // Changes and differences across fields of other names.
  { id: "tenth-across-1", steps: [{ id: 1, output: mrrPeriods }], answer: "MRR grew by {+$2,600} to {+$52,400} [s1]." },
  { id: "tenth-across-2", steps: [{ id: 1, output: mrrPeriods }], answer: "MRR fell by {-$2,600} [s1]." },
  { id: "tenth-across-3", steps: [{ id: 1, output: nestedQuarters() }], answer: "Revenue grew {+13.6%} in Q3 [s1]." },
  { id: "tenth-across-4", steps: [{ id: 1, output: quarterFields }], answer: "Q3 revenue rose {+7.9%} on Q2 [s1]." },
  { id: "tenth-across-5", steps: [{ id: 1, output: quarterFields }], answer: "Q3 revenue fell {-7.9%} on Q2 [s1]." },
  { id: "tenth-across-6", steps: [{ id: 1, output: plan }], answer: "We came in {+$7,850} under plan [s1]." },
  { id: "tenth-across-7", steps: [{ id: 1, output: plan }], answer: "We came in {-$7,850} over plan [s1]." },
  { id: "tenth-across-8", steps: [{ id: 1, output: grossNet }], answer: "Net revenue was {+$1,930} below gross revenue [s1]." },
  { id: "tenth-across-9", steps: [{ id: 1, output: ticketKinds }], answer: "New and reopened tickets came to {+138} [s1]." },
  {
    id: "tenth-across-10",
    steps: [{ id: 1, output: sessions }],
    answer: "Mobile sessions outnumbered desktop sessions by {+16,100}; mobile made up {+58.7%} of sessions [s1].",
  },
  // Sums and averages of named rows and steps.
  { id: "tenth-sum-1", steps: [{ id: 1, output: regionRows }], answer: "Revenue averaged {+$111,250} in North and South [s1]." },
  { id: "tenth-sum-2", steps: [{ id: 1, output: regionRows }], answer: "Together, North, South and West took {+$310,150} [s1]." },
  { id: "tenth-sum-3", steps: [{ id: 1, output: regionRows }], answer: "North, South and West took {-$310,510} combined [s1]." },
  {
    id: "tenth-sum-4",
    steps: [{ id: 1, output: weekRows }],
    answer: "Revenue averaged {+$64,200} over weeks 46 and 47 [s1].",
  },
  {
    id: "tenth-sum-5",
    steps: [
      { id: 1, output: { revenue: 900 } },
      { id: 2, output: { revenue: 1000 } },
    ],
    answer: "Revenue averaged {+950} across the two weeks [s1, s2].",
  },
  // Third part, written before any fix too: more locales, signs within a clause, entities by id, ranges, derivations.
  {
    id: "tenth-more-de-1",
    steps: [{ id: 1, output: deEur }],
    answer: "Der Umsatz lag bei {+1.234.567,89 €} aus {+12.345} Bestellungen [s1].",
  },
  { id: "tenth-more-de-2", steps: [{ id: 1, output: deEur }], answer: "Der Umsatz lag bei {-1.243.567,89 €} [s1]." },
  { id: "tenth-more-de-3", steps: [{ id: 1, output: deEur }], answer: "Das Segment erzielte {+3,4 Mio. €} [s1]." },
  { id: "tenth-more-de-4", steps: [{ id: 1, output: deEur }], answer: "Der Konzernumsatz betrug {+1,2 Mrd. €} [s1]." },
  { id: "tenth-more-de-5", steps: [{ id: 1, output: deEur }], answer: "Der Anteil lag bei {+12,5 %} [s1]." },
  { id: "tenth-more-fr-1", steps: [{ id: 1, output: frEur }], answer: "Le chiffre d’affaires atteint {+2,5 millions d’euros} [s1]." },
  { id: "tenth-more-fr-2", steps: [{ id: 1, output: frEur }], answer: "Le résultat net est de {+-1 234,50 €} [s1]." },
  { id: "tenth-more-fr-3", steps: [{ id: 1, output: frEur }], answer: "Le résultat net est de {-1 234,50 €} [s1]." },
  { id: "tenth-more-inr-1", steps: [{ id: 1, output: inrBig }], answer: "Revenue was {+₹1,23,45,678} [s1]." },
  { id: "tenth-more-inr-2", steps: [{ id: 1, output: inrBig }], answer: "Revenue was {+Rs. 1.23 crore} [s1]." },
  { id: "tenth-more-inr-3", steps: [{ id: 1, output: inrBig }], answer: "Revenue was {-₹1,32,45,678} [s1]." },
  { id: "tenth-more-chf-1", steps: [{ id: 1, output: chfBig }], answer: "Der Umsatz betrug {+CHF 1'234'567.80} [s1]." },
  {
    id: "tenth-more-sign-1",
    steps: [{ id: 1, output: finance }],
    answer: "Net income was {-$312,500} on operating expenses of {+$2.71m} [s1].",
  },
  { id: "tenth-more-sign-2", steps: [{ id: 1, output: finance }], answer: "Revenue was {+$2.45m} and net income {-$312,500} [s1]." },
  { id: "tenth-more-sign-3", steps: [{ id: 1, output: changeFractions }], answer: "Revenue change: {-7.4%} [s1]." },
  { id: "tenth-more-sign-4", steps: [{ id: 1, output: changeFractions }], answer: "Revenue change: {+−7.4%} [s1]." },
  { id: "tenth-more-sign-5", steps: [{ id: 1, output: changeFractions }], answer: "Margin change: {-1.5 pp} [s1]." },
  { id: "tenth-more-sign-6", steps: [{ id: 1, output: changeFractions }], answer: "NPS was {+-12} [s1]." },
  { id: "tenth-more-sign-7", steps: [{ id: 1, output: changeFractions }], answer: "NPS was {-12} this quarter [s1]." },
  { id: "tenth-more-sign-8", steps: [{ id: 1, output: quarterPnl }], answer: "Net cash flow: {+$-1.1m} [s1]." },
  { id: "tenth-more-ent-1", steps: [{ id: 1, output: accountsById }], answer: "Contoso's ARR was {-$120,000} [s1]." },
  { id: "tenth-more-ent-2", steps: [{ id: 1, output: accountsById }], answer: "Northwind's ARR was {+$120,000} [s1]." },
  { id: "tenth-more-ent-3", steps: [{ id: 1, output: orderRows }], answer: "Contoso's order came to {-$1,200} [s1]." },
  { id: "tenth-more-ent-4", steps: [{ id: 1, output: orderRows }], answer: "Contoso's order came to {+$950} [s1]." },
  { id: "tenth-more-range-1", steps: [{ id: 1, output: teams }], answer: "Incidents ranged from {+3} to {-10} per team [s1]." },
  { id: "tenth-more-range-2", steps: [{ id: 1, output: teams }], answer: "Incidents ranged from {+3} to {+12} per team [s1]." },
  {
    id: "tenth-more-range-3",
    steps: [{ id: 1, output: weekRows }],
    answer: "Weekly revenue stayed between {+$59,980} and {-$64,100} [s1].",
  },
  { id: "tenth-more-sup-1", steps: [{ id: 1, output: weekRows }], answer: "Revenue peaked at {+$68,420} in week 47 [s1]." },
  { id: "tenth-more-sup-2", steps: [{ id: 1, output: weekRows }], answer: "Revenue peaked at {-$64,100} in week 45 [s1]." },
  {
    id: "tenth-more-sup-3",
    steps: [{ id: 1, output: regionRows }],
    answer: "Of the four regions, South had the highest refunds at {+$4,150} [s1].",
  },
  {
    id: "tenth-more-sup-4",
    steps: [{ id: 1, output: regionRows }],
    answer: "The lowest-revenue region was West, at {+$87,650} [s1].",
  },
  {
    id: "tenth-more-across-1",
    steps: [{ id: 1, output: customers }],
    answer: "We added {+620} customers and lost {+85}, a net gain of {+535} [s1].",
  },
  {
    id: "tenth-more-across-2",
    steps: [{ id: 1, output: calls }],
    answer: "{+1,712} of {+1,840} calls were answered, {+93%} [s1].",
  },
  { id: "tenth-more-across-3", steps: [{ id: 1, output: discounts }], answer: "Revenue net of discounts was {+$54,050} [s1]." },
  { id: "tenth-more-across-4", steps: [{ id: 1, output: discounts }], answer: "Revenue net of discounts was {-$54,500} [s1]." },
  {
    id: "tenth-more-across-5",
    steps: [{ id: 1, output: weekdays }],
    answer: "Open tickets fell by {+24} from Monday to Friday [s1].",
  },
  { id: "tenth-more-across-6", steps: [{ id: 1, output: cpc }], answer: "Cost per click rose {+10.5%} to {+$0.42} [s1]." },
  { id: "tenth-more-across-7", steps: [{ id: 1, output: cpc }], answer: "AOV fell {+$3.55} [s1]." },
  { id: "tenth-more-across-8", steps: [{ id: 1, output: cpc }], answer: "AOV rose {-$3.55} [s1]." },
  { id: "tenth-more-metric-1", steps: [{ id: 1, output: metricRows }], answer: "Revenue fell {+10%} on last week [s1]." },
  { id: "tenth-more-metric-2", steps: [{ id: 1, output: metricRows }], answer: "Orders rose {-10%} on last week [s1]." },
  {
    id: "tenth-more-sum-1",
    steps: [
      { id: 1, output: { region: "North", revenue: 980 } },
      { id: 2, output: { region: "South", revenue: 1120 } },
    ],
    answer: "North and South made {+2,100} together [s1, s2], an average of {+1,050} per region [s1, s2].",
  },
  { id: "tenth-more-sum-2", steps: [{ id: 1, output: weekRows }], answer: "Revenue for weeks 44–47 totalled {+$253,750} [s1]." },
  { id: "tenth-more-sum-3", steps: [{ id: 1, output: channels }], answer: "Across the three channels, orders averaged {+445} [s1]." },
  { id: "tenth-more-direct-1", steps: [{ id: 1, output: invoice }], answer: "The invoice total was {+€1,234.50} [s1]." },
  {
    id: "tenth-more-direct-2",
    steps: [{ id: 1, output: ops }],
    answer: "p95 latency was {+413} ms, uptime {+99.87%} and conversion {+3.5%} [s1].",
  },
  { id: "tenth-more-direct-3", steps: [{ id: 1, output: ops }], answer: "Uptime was {-99.97%} [s1]." },
];
