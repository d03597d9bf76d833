import type { LabelledCase } from "./labelled-cases.js";

/**
 * A fourteenth batch of the report-shapes suite, written after the thirteenth was fixed and before
 * its own fixes: docs/grounded-reports.md's own examples of pairing, direction, plans, shares,
 * multiples and rates, each in a data shape the docs do not show (two steps, a field and its
 * plan, a spend against a budget, rows of years, a field of changes, objects of two periods).
 */
const budget = { budget_usd: 50000, spent_usd: 46500 };
const quota = { quota: 100, closed_deals: 107 };
const target = { target: 200, actual: 214 };
const twoSteps = [
  { id: 1, output: { week: "2026-W46", revenue: 1000 } },
  { id: 2, output: { week: "2026-W47", revenue: 900 } },
];
const tickets = { tickets_this_week: 30, tickets_last_week: 27 };
const revenue = { revenue_this_week: 900, revenue_last_week: 1000 };
const refunds = { refund_rate: 0.0422, refund_rate_prev: 0.0382, csat: 91, csat_prev: 88 };
const growth = { revenue_eur: 1200000, revenue_prev_eur: 1071428 };
const years = [
  { year: 2022, net_income_usd_m: 99803 },
  { year: 2023, net_income_usd_m: 96995 },
];
const changes = [
  { region: "North", revenue_change_pct: 5 },
  { region: "South", revenue_change_pct: -3 },
];
const periods = { current: { orders: 1342, aov: 61.2 }, previous: { orders: 1288, aov: 64.75 } };
const stores = [
  { store: "Hamburg", sales_eur: 182400 },
  { store: "Cologne", sales_eur: 96300 },
];
const incidents = [
  { team: "Payments", incidents: 12 },
  { team: "Platform", incidents: 6 },
];
const unit = { ltv_usd: 1800, cac_usd: 600 };

export const fourteenthReportShapes: LabelledCase[] = [
  // Plans: from what was planned to what happened.
  { id: "fourteenth-plan-1", steps: [{ id: 1, output: budget }], answer: "Spending came in {+$3,500} under budget [s1]." },
  { id: "fourteenth-plan-2", steps: [{ id: 1, output: budget }], answer: "Spending ran {-$3,500} over budget [s1]." },
  { id: "fourteenth-plan-3", steps: [{ id: 1, output: quota }], answer: "Sales beat quota by {+7%} [s1]." },
  { id: "fourteenth-plan-4", steps: [{ id: 1, output: quota }], answer: "Sales missed quota by {-7%} [s1]." },
  { id: "fourteenth-plan-5", steps: [{ id: 1, output: target }], answer: "Output ran {+7%} over target [s1]." },
  { id: "fourteenth-plan-6", steps: [{ id: 1, output: target }], answer: "Output came in {-7%} under target [s1]." },
  // Two steps of one field, each naming its week.
  { id: "fourteenth-steps-1", steps: twoSteps, answer: "Revenue fell {+10%} in week 47 [s1, s2]." },
  { id: "fourteenth-steps-2", steps: twoSteps, answer: "Revenue rose {-10%} in week 47 [s1, s2]." },
  { id: "fourteenth-steps-3", steps: twoSteps, answer: "Revenue was down {+100} on the week before [s1, s2]." },
  // The docs' own sentences.
  { id: "fourteenth-docs-1", steps: [{ id: 1, output: tickets }], answer: "{+3} more tickets than last week [s1]." },
  { id: "fourteenth-docs-2", steps: [{ id: 1, output: tickets }], answer: "{-3} fewer tickets than last week [s1]." },
  { id: "fourteenth-docs-3", steps: [{ id: 1, output: revenue }], answer: "Revenue fell {+10%} on last week [s1]." },
  { id: "fourteenth-docs-4", steps: [{ id: 1, output: revenue }], answer: "Revenue was up {-100} [s1]." },
  { id: "fourteenth-docs-5", steps: [{ id: 1, output: refunds }], answer: "The refund rate rose {+0.4 pp} [s1]." },
  { id: "fourteenth-docs-6", steps: [{ id: 1, output: refunds }], answer: "CSAT was up {+3 points} [s1]." },
  { id: "fourteenth-docs-7", steps: [{ id: 1, output: refunds }], answer: "CSAT was {+91%}, down {-3 points} [s1]." },
  { id: "fourteenth-docs-8", steps: [{ id: 1, output: growth }], answer: "Revenue rose {+12%} to {+€1.2m} [s1]." },
  {
    id: "fourteenth-docs-9",
    steps: [{ id: 1, output: years }],
    answer: "Net income fell by {+$2,808 million} to {+$96,995 million} [s1].",
  },
  { id: "fourteenth-docs-10", steps: [{ id: 1, output: years }], answer: "Net income rose by {-$2,808 million} [s1]." },
  { id: "fourteenth-docs-11", steps: [{ id: 1, output: changes }], answer: "North's revenue fell {-5%} [s1]." },
  { id: "fourteenth-docs-12", steps: [{ id: 1, output: changes }], answer: "South's revenue fell {+3%} [s1]." },
  { id: "fourteenth-docs-13", steps: [{ id: 1, output: periods }], answer: "Orders rose {+4.2%} to {+1,342} [s1]." },
  { id: "fourteenth-docs-14", steps: [{ id: 1, output: periods }], answer: "Average order value fell {+$3.55} [s1]." },
  { id: "fourteenth-docs-15", steps: [{ id: 1, output: periods }], answer: "Average order value rose {-$3.55} [s1]." },
  { id: "fourteenth-docs-16", steps: [{ id: 1, output: stores }], answer: "Hamburg sold {+€86,100} more than Cologne [s1]." },
  { id: "fourteenth-docs-17", steps: [{ id: 1, output: stores }], answer: "Hamburg sold {-€86,100} less than Cologne [s1]." },
  {
    id: "fourteenth-docs-18",
    steps: [{ id: 1, output: incidents }],
    answer: "Payments had the most incidents, {+12}, twice Platform's {+6} [s1].",
  },
  { id: "fourteenth-docs-19", steps: [{ id: 1, output: incidents }], answer: "Payments had {+2x} the incidents of Platform [s1]." },
  { id: "fourteenth-docs-20", steps: [{ id: 1, output: incidents }], answer: "Payments had {-3x} the incidents of Platform [s1]." },
  { id: "fourteenth-docs-21", steps: [{ id: 1, output: unit }], answer: "LTV is {+3x} CAC [s1]." },
  { id: "fourteenth-docs-22", steps: [{ id: 1, output: unit }], answer: "LTV is {-2x} CAC [s1]." },
];
