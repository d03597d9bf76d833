import type { LabelledCase } from "./labelled-cases.js";

/**
 * A thirteenth batch of the report-shapes suite, written after the twelfth was fixed and before
 * its own fixes: reports written from the outputs of the tools the held-out suite names —
 * GitHub (issues, pull requests, stars by month), Stripe (volume and fees), Shopify (orders with
 * prices as strings), a CRM (deals by stage and owner), a weather service (nested daily
 * readings), npm (downloads), SQL `columns`/`rows` of regions by quarter, a CSV of teams, objects
 * by service — and money in GBP and CAD.
 */
const issues = { repo: "acme/api", open_issues: 42, opened_issues_this_week: 25, closed_issues_this_week: 18 };
const pulls = [
  { number: 101, additions: 120, deletions: 30, merged: true },
  { number: 102, additions: 45, deletions: 60, merged: false },
];
const stars = [
  { month: "2026-09", stars: 11200 },
  { month: "2026-10", stars: 11900 },
  { month: "2026-11", stars: 12840 },
];
const volume = { gross_volume_usd: 48210.5, fees_usd: 1398.11, net_volume_usd: 46812.39 };
const shopOrders = [
  { name: "#1001", total_price: "129.90", financial_status: "paid" },
  { name: "#1002", total_price: "89.50", financial_status: "refunded" },
  { name: "#1003", total_price: "240.00", financial_status: "paid" },
];
const deals = [
  { deal: "Acme renewal", stage: "won", amount_usd: 48000, owner: "Li Wei" },
  { deal: "Globex expansion", stage: "lost", amount_usd: 31000, owner: "Ana Souza" },
  { deal: "Initech pilot", stage: "won", amount_usd: 12500, owner: "Ana Souza" },
];
const weather = {
  city: "Berlin",
  daily: [
    { date: "2026-11-16", max_c: 6.2, min_c: -1.4 },
    { date: "2026-11-17", max_c: 8.1, min_c: 0.3 },
  ],
};
const npm = { package: "left-pad", downloads: { last_week: 1204331, last_month: 5120400 } };
const quarters = {
  columns: ["region", "q3", "q4"],
  rows: [
    ["EMEA", 840, 910],
    ["APAC", 610, 580],
  ],
};
const teamsCsv = "team,opened,closed\nPlatform,40,38\nPayments,55,61\n";
const services = { services: { api: { p95_ms: 412, errors: 37 }, web: { p95_ms: 288, errors: 12 }, worker: { p95_ms: 1210, errors: 4 } } };
const pounds = { revenue_gbp: 1204500 };
const dollars = { revenue_cad: 45000 };
const target = { revenue_target_usd: 500000, revenue_usd: 462000 };
const engagement = { mau: 48000, dau: 9600, tickets_created: 412, tickets_resolved: 398 };
const weeklySignups = [
  { week: "2026-W44", signups: 310 },
  { week: "2026-W45", signups: 355 },
  { week: "2026-W46", signups: 298 },
];
const subscribers = { net_change_subscribers: -37, fx_impact_usd: -125000 };

export const thirteenthReportShapes: LabelledCase[] = [
  // GitHub.
  { id: "thirteenth-gh-1", steps: [{ id: 1, output: issues }], answer: "Issues opened outpaced issues closed by {+7} this week [s1]." },
  {
    id: "thirteenth-gh-2",
    steps: [{ id: 1, output: pulls }],
    answer: "PR #101 added {+120} lines and removed {+30}, a net of {+90} [s1].",
  },
  { id: "thirteenth-gh-3", steps: [{ id: 1, output: stars }], answer: "Stars grew {+7.9%} in November [s1]." },
  { id: "thirteenth-gh-4", steps: [{ id: 1, output: stars }], answer: "Stars fell {-7.9%} in November [s1]." },
  // Stripe.
  { id: "thirteenth-stripe-1", steps: [{ id: 1, output: volume }], answer: "Fees took {+2.9%} of gross volume [s1]." },
  {
    id: "thirteenth-stripe-2",
    steps: [{ id: 1, output: volume }],
    answer: "Net volume was {+$46,812.39} after {+$1,398.11} in fees [s1].",
  },
  { id: "thirteenth-stripe-3", steps: [{ id: 1, output: volume }], answer: "Net volume was $46,812.39 after {-$1,389.11} in fees [s1]." },
  // Shopify.
  { id: "thirteenth-shop-1", steps: [{ id: 1, output: shopOrders }], answer: "Paid orders came to {+$369.90} [s1]." },
  { id: "thirteenth-shop-2", steps: [{ id: 1, output: shopOrders }], answer: "The three orders averaged {+$153.13} [s1]." },
  { id: "thirteenth-shop-3", steps: [{ id: 1, output: shopOrders }], answer: "The largest order was #1003 at {+$240.00} [s1]." },
  { id: "thirteenth-shop-4", steps: [{ id: 1, output: shopOrders }], answer: "The largest order was #1001 at {-$129.90} [s1]." },
  // A CRM.
  { id: "thirteenth-crm-1", steps: [{ id: 1, output: deals }], answer: "Won deals totalled {+$60,500} [s1]." },
  { id: "thirteenth-crm-2", steps: [{ id: 1, output: deals }], answer: "Li Wei won {+$48,000} [s1]." },
  { id: "thirteenth-crm-3", steps: [{ id: 1, output: deals }], answer: "Ana Souza won {-$48,000} [s1]." },
  { id: "thirteenth-crm-4", steps: [{ id: 1, output: deals }], answer: "Ana Souza's deals came to {+$43,500} [s1]." },
  // A weather service.
  { id: "thirteenth-weather-1", steps: [{ id: 1, output: weather }], answer: "The coldest night was {+-1.4°C} on Nov 16 [s1]." },
  { id: "thirteenth-weather-2", steps: [{ id: 1, output: weather }], answer: "The coldest night was {-1.4°C} on Nov 16 [s1]." },
  { id: "thirteenth-weather-3", steps: [{ id: 1, output: weather }], answer: "Highs ranged from {+6.2°C} to {+8.1°C} [s1]." },
  {
    id: "thirteenth-weather-4",
    steps: [{ id: 1, output: weather }],
    answer: "Temperatures ranged between {+-1.4°C} and {+8.1°C} [s1].",
  },
  // npm.
  {
    id: "thirteenth-npm-1",
    steps: [{ id: 1, output: npm }],
    answer: "left-pad was downloaded {+1.2M} times last week and {+5.1M} times last month [s1].",
  },
  { id: "thirteenth-npm-2", steps: [{ id: 1, output: npm }], answer: "left-pad was downloaded {-1.3M} times last week [s1]." },
  // SQL columns and rows of regions by quarter.
  { id: "thirteenth-sql-1", steps: [{ id: 1, output: quarters }], answer: "EMEA grew {+8.3%} from Q3 to Q4 [s1]." },
  { id: "thirteenth-sql-2", steps: [{ id: 1, output: quarters }], answer: "APAC fell {+4.9%} in Q4 [s1]." },
  { id: "thirteenth-sql-3", steps: [{ id: 1, output: quarters }], answer: "APAC grew {-4.9%} in Q4 [s1]." },
  { id: "thirteenth-sql-4", steps: [{ id: 1, output: quarters }], answer: "EMEA and APAC made {+1,490} together in Q4 [s1]." },
  { id: "thirteenth-sql-5", steps: [{ id: 1, output: quarters }], answer: "APAC's Q4 revenue was {-910} [s1]." },
  { id: "thirteenth-sql-6", steps: [{ id: 1, output: quarters }], answer: "EMEA led in Q4 with {+910} [s1]." },
  { id: "thirteenth-sql-7", steps: [{ id: 1, output: quarters }], answer: "APAC led in Q4 with {-580} [s1]." },
  // A CSV of teams.
  {
    id: "thirteenth-csv-1",
    steps: [{ id: 1, output: teamsCsv }],
    answer: "Payments closed {+6} more tickets than it opened [s1].",
  },
  { id: "thirteenth-csv-2", steps: [{ id: 1, output: teamsCsv }], answer: "Platform closed {-6} more tickets than it opened [s1]." },
  // Objects by service.
  { id: "thirteenth-svc-1", steps: [{ id: 1, output: services }], answer: "The API had the most errors, {+37} [s1]." },
  { id: "thirteenth-svc-2", steps: [{ id: 1, output: services }], answer: "The web service had the most errors, {-12} [s1]." },
  { id: "thirteenth-svc-3", steps: [{ id: 1, output: services }], answer: "Across the three services, errors totalled {+53} [s1]." },
  {
    id: "thirteenth-svc-4",
    steps: [{ id: 1, output: services }],
    answer: "The API and web services averaged {+350} ms at p95 [s1].",
  },
  {
    id: "thirteenth-svc-5",
    steps: [{ id: 1, output: services }],
    answer: "p95 latency ranged from {+288} ms to {-412} ms across services [s1].",
  },
  {
    id: "thirteenth-svc-6",
    steps: [{ id: 1, output: services }],
    answer: "p95 latency ranged from {+288} ms to {+1,210} ms across services [s1].",
  },
  { id: "thirteenth-svc-7", steps: [{ id: 1, output: services }], answer: "The worker's p95 was {+1,210} ms [s1]." },
  // GBP and CAD.
  { id: "thirteenth-gbp-1", steps: [{ id: 1, output: pounds }], answer: "Revenue was {+£1.2m} [s1]." },
  { id: "thirteenth-gbp-2", steps: [{ id: 1, output: pounds }], answer: "Revenue was {-£1.3m} [s1]." },
  { id: "thirteenth-cad-1", steps: [{ id: 1, output: dollars }], answer: "Revenue reached {+C$45,000} [s1]." },
  { id: "thirteenth-cad-2", steps: [{ id: 1, output: dollars }], answer: "Revenue reached {+CA$45,000} [s1]." },
  // Derivations across fields.
  { id: "thirteenth-across-1", steps: [{ id: 1, output: target }], answer: "Revenue came in {+7.6%} below target [s1]." },
  { id: "thirteenth-across-2", steps: [{ id: 1, output: target }], answer: "Revenue beat target by {-7.6%} [s1]." },
  { id: "thirteenth-across-3", steps: [{ id: 1, output: engagement }], answer: "DAU/MAU stickiness was {+20%} [s1]." },
  {
    id: "thirteenth-across-4",
    steps: [{ id: 1, output: engagement }],
    answer: "Resolved tickets were {+96.6%} of those created [s1].",
  },
  { id: "thirteenth-avg-1", steps: [{ id: 1, output: weeklySignups }], answer: "Weekly signups averaged {+321} [s1]." },
  // Signs.
  { id: "thirteenth-sign-1", steps: [{ id: 1, output: subscribers }], answer: "We lost {+37} subscribers this month [s1]." },
  { id: "thirteenth-sign-2", steps: [{ id: 1, output: subscribers }], answer: "We gained {-37} subscribers this month [s1]." },
  { id: "thirteenth-sign-3", steps: [{ id: 1, output: subscribers }], answer: "Currency moves cost us {+$125,000} [s1]." },
  { id: "thirteenth-sign-4", steps: [{ id: 1, output: subscribers }], answer: "Currency moves added {-$125,000} [s1]." },
];
