/**
 * The step outputs of the report-shapes suite's tenth batch (report-shapes-tenth-cases.ts and
 * report-shapes-tenth-more-cases.ts): weekly sales, support, finance and operations reports as
 * tools return them.
 */
export const salesWeek = {
  revenue_this_week: 48250.5,
  revenue_last_week: 52100,
  orders_this_week: 1210,
  orders_last_week: 1175,
  refunds: 1930.25,
  returns: 41,
};
export const supportWeek = {
  tickets_opened: 640,
  tickets_closed: 612,
  backlog_start: 180,
  backlog_end: 208,
  first_response_hours: 3.4,
  first_response_hours_prev: 4.1,
  csat_pct: 88.5,
  csat_pct_prev: 91,
};
export const finance = {
  revenue_usd: 2450000,
  operating_expenses_usd: 2710000,
  operating_income_usd: -260000,
  net_income_usd: -312500,
  cash_start_usd: 2150000,
  cash_end_usd: 1840000,
};
export const regionRows = [
  { region: "North", revenue: 124500, orders: 1310, refunds: 3200 },
  { region: "South", revenue: 98000, orders: 1105, refunds: 4150 },
  { region: "East", revenue: 143200, orders: 1480, refunds: 2750 },
  { region: "West", revenue: 87650, orders: 960, refunds: 1980 },
];
export const regionObjects = {
  regions: {
    north: { revenue: 980, tickets: 42 },
    south: { revenue: 1120, tickets: 37 },
    west: { revenue: 760, tickets: 51 },
  },
};
export const weekRows = [
  { week: "2026-W44", orders: 1180, revenue_usd: 61250 },
  { week: "2026-W45", orders: 1242, revenue_usd: 64100 },
  { week: "2026-W46", orders: 1198, revenue_usd: 59980 },
  { week: "2026-W47", orders: 1305, revenue_usd: 68420 },
];
export const monthRows = [
  { month: "2026-09", signups: 4210, churned_accounts: 380 },
  { month: "2026-10", signups: 4585, churned_accounts: 412 },
  { month: "2026-11", signups: 4390, churned_accounts: 365 },
];
export const kpis = {
  this_week: { sessions: 182400, conversions: 3648, revenue_eur: 97250 },
  last_week: { sessions: 171900, conversions: 3610, revenue_eur: 99100 },
};
export const channels = { web_orders: 812, app_orders: 466, phone_orders: 57 };
export const budget = { budget_eur: 120000, actual_eur: 131400 };
export const quarterPnl = { quarter: "Q3", revenue_usd_m: 58.3, ebitda_usd_m: -4.2, free_cash_flow_usd_m: -1.1 };
export const balances = [
  { account: "Operating", balance_usd: 15420.75 },
  { account: "Payroll", balance_usd: -2380.4 },
];
export const products = [
  { sku: "A-100", product: "Desk Lamp", units: 420, revenue_usd: 12600 },
  { sku: "B-200", product: "Office Chair", units: 95, revenue_usd: 23750 },
  { sku: "C-300", product: "Monitor Arm", units: 260, revenue_usd: 15340 },
];
export const yearly = { revenue_2025: 1.84, revenue_2024: 1.62 };
export const byMonthFields = { revenue_october: 210500, revenue_november: 198300 };
export const headcount = { headcount_opening: 212, headcount_closing: 224, hires: 19, leavers: 7 };
export const spend = { marketing_spend_usd: 18400, sales_spend_usd: 26750 };
export const segments = [
  { segment: "Retail", operating_income_usd_m: 12.4 },
  { segment: "Wholesale", operating_income_usd_m: -3.1 },
];
export const margins = { gross_margin_pct: 42.3, gross_margin_pct_prev: 40.5 };
export const regionOrders = { orders_north: 420, orders_south: 385, orders_west: 290 };
export const eurWeek = { revenue_eur: 1234.5, revenue_prev_eur: 1100, orders: 1205 };
export const chf = { revenue_chf: 1234.5, costs_chf: 987.25 };
export const inr = { revenue_inr: 1234567, revenue_prev_inr: 1100000 };
export const eurLoss = { net_income_eur: -1234.5 };
export const bigEur = { revenue_eur: 98765.4 };
export const repo = { full_name: "acme/widgets", stargazers_count: 12840, forks_count: 1312, open_issues_count: 287 };
export const users = { active_users: 12400, paying_users: 1860 };
export const escalations = { tickets_total: 640, tickets_escalated: 48 };
export const aov = { revenue_usd: 245000, orders: 3120 };
export const deficit = { budget_balance_usd: -84000 };
export const storesCsv = "store,sales_eur,staff\nHamburg,182400,12\nMunich,211750,14\nCologne,96300,7\n";
export const growth = {
  revenue_growth: -0.042,
  margin_change_pp: -1.5,
  eps_usd: -0.35,
  operating_cash_flow_usd_m: 3.4,
  investing_cash_flow_usd_m: -2.61,
};
export const weather = [
  { city: "Oslo", low_c: -7.5, high_c: -1.2 },
  { city: "Madrid", low_c: 4.1, high_c: 14.8 },
];
export const regionChange = [
  { region: "North", revenue: 124500, revenue_change_pct: -3.2 },
  { region: "South", revenue: 98000, revenue_change_pct: 5.4 },
];
export const profit = { net_income_usd: 1200, operating_income_usd: 3400 };
export const txns = [
  { id: "txn_1", type: "charge", amount: 12900 },
  { id: "txn_2", type: "refund", amount: -2500 },
  { id: "txn_3", type: "charge", amount: 8400 },
];
export const conversion = [
  { channel: "Web", conversion_pct: 12.4 },
  { channel: "App", conversion_pct: 14.1 },
  { channel: "Email", conversion_pct: 17.1 },
];
export const weekTotals = { revenue_usd: 68420, orders: 1305 };
export const backlog = { backlog_start: 40, backlog_end: 52 };
export const accounts = {
  accounts: {
    northwind: { name: "Northwind", arr_usd: 120000, seats: 340 },
    contoso: { name: "Contoso", arr_usd: 98000, seats: 410 },
    fabrikam: { name: "Fabrikam", arr_usd: 143500, seats: 220 },
  },
};
export const byCountry = { by_country: { germany: { revenue_eur: 410000 }, france: { revenue_eur: 365000 } } };
export const agents = [
  { agent: "Li Wei", tickets_closed: 84 },
  { agent: "Ana Souza", tickets_closed: 97 },
];
export const mrrPeriods = { current: { mrr: 52400 }, previous: { mrr: 49800 } };
export const quarterFields = { q3_revenue: 4.1, q2_revenue: 3.8 };
export const plan = { plan_usd: 50000, actual_usd: 42150 };
export const grossNet = { gross_revenue: 48200, net_revenue: 46270 };
export const ticketKinds = { tickets_new: 120, tickets_reopened: 18 };
export const sessions = { sessions_mobile: 54200, sessions_desktop: 38100 };
export const nestedQuarters = () => ({ revenue: { q2: 1100, q3: 1250 } });
export const deEur = { revenue_eur: 1234567.89, orders: 12345, revenue_m_eur: 3.4, group_revenue_eur: 1.2e9, share: 0.125 };
export const frEur = { revenue_eur: 2500000, net_income_eur: -1234.5 };
export const inrBig = { revenue_inr: 12345678 };
export const chfBig = { revenue_chf: 1234567.8 };
export const changeFractions = { revenue_change: -0.074, margin_change: -0.015, nps: -12 };
export const accountsById = {
  accounts: {
    acc_1: { name: "Northwind", arr_usd: 120000 },
    acc_2: { name: "Contoso", arr_usd: 98000 },
  },
};
export const orderRows = [
  { customer: { name: "Northwind" }, total_usd: 1200 },
  { customer: { name: "Contoso" }, total_usd: 950 },
];
export const teams = [
  { team: "Platform", incidents: 6 },
  { team: "Payments", incidents: 12 },
  { team: "Search", incidents: 3 },
];
export const customers = { new_customers: 620, churned_customers: 85 };
export const calls = { inbound_calls: 1840, answered_calls: 1712 };
export const discounts = { revenue_gross_usd: 58200, discounts_usd: 4150 };
export const weekdays = { open_tickets_monday: 120, open_tickets_friday: 96 };
export const cpc = { cost_per_click_usd: 0.42, cost_per_click_prev_usd: 0.38, aov_usd: 61.2, aov_prev_usd: 64.75 };
export const metricRows = {
  columns: ["metric", "this_week", "last_week"],
  rows: [
    ["revenue", 900, 1000],
    ["orders", 45, 50],
  ],
};
export const invoice = { data: { attributes: { total_amount: "1234.50", currency: "EUR" } } };
export const ops = { p95_latency_ms: 412.7, uptime: 0.9987, conversion: 0.0345 };
export const millions = { revenue_usd: 1234567, stars: 12840 };
