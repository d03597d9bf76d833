import type { LabelledCase } from "./labelled-cases.js";
import { weekRows } from "./report-shapes-tenth-data.js";

/**
 * A twelfth batch of the report-shapes suite, written after the eleventh was fixed and before its
 * own fixes, from the held-out suite's sources (API objects by week, quarter, country and
 * account; a weather reading; SQL `columns`/`rows` of months; Stripe and Shopify amounts) and the
 * kinds its table still showed weak: periods as object keys ("week_47", "2025-Q4"), a change "on
 * the previous week" with no row named, a loss that narrows, three of four sibling objects
 * summed, ranges that are estimates of a named measure or said per day, a country by its code, a
 * company without its "Corp", "our top customer", "logged most", "the fastest-growing", "the top
 * 3" and "the last 7 days".
 */
const weekObjects = { week_46: { orders: 1198, revenue_usd: 59980 }, week_47: { orders: 1305, revenue_usd: 68420 } };
const quarterObjects = { "2025-Q3": { revenue: 4.1 }, "2025-Q4": { revenue: 4.4 } };
const revenueByQuarter = { revenue: { "2025-Q3": 4.1, "2025-Q4": 4.4 } };
const weather = { temp_max_c: 14.8, temp_min_c: 4.1 };
const pnl = { revenue: 1250, cost: 800 };
const loss = { operating_income_q3_usd_m: -0.4, operating_income_q4_usd_m: -0.3 };
const regions = { regions: { north: { revenue: 980 }, south: { revenue: 1120 }, west: { revenue: 760 }, east: { revenue: 1340 } } };
const twoWeeks = { revenue_cny: 72400, revenue_prev_cny: 64577 };
const conversion = { conversion_rate: 0.18, signups: 13 };
const days = [
  { day: "2026-11-16", orders: 15 },
  { day: "2026-11-17", orders: 17 },
  { day: "2026-11-18", orders: 17 },
  { day: "2026-11-19", orders: 18 },
  { day: "2026-11-20", orders: 14 },
  { day: "2026-11-21", orders: 17 },
  { day: "2026-11-22", orders: 17 },
];
const countries = [
  { country: "DE", revenue_eur: 410000 },
  { country: "FR", revenue_eur: 365000 },
];
const accounts = [
  { account: "Acme Corp", arr_usd: 120000 },
  { account: "Globex Ltd", arr_usd: 98000 },
];
const customers = [
  { customer: "Acme Corp", spend_usd: 48200 },
  { customer: "Globex Ltd", spend_usd: 61900 },
  { customer: "Initech", spend_usd: 23100 },
];
const teams = [
  { team: "Platform", incidents: 6 },
  { team: "Payments", incidents: 14 },
  { team: "Search", incidents: 3 },
];
const growth = [
  { region: "North", growth_pct: 12.1 },
  { region: "South", growth_pct: 8.4 },
  { region: "West", growth_pct: 15.3 },
];
const results = { ebitda_usd_m: -0.4, net_income_usd_m: -1.2 };
const swing = { net_income_2024_usd_m: 0.5, net_income_2025_usd_m: -1.2 };
const shopifyOrder = { total_price: "1234.50", currency: "CAD" };
const handleTimes = { chat_aht_min: 5.8, email_aht_min: 6.6 };
const months = {
  columns: ["month", "revenue"],
  rows: [
    ["2026-10", 210500],
    ["2026-11", 198300],
  ],
};
const charge = { id: "ch_1", amount: 12900, amount_refunded: 2500, currency: "usd" };

export const twelfthReportShapes: LabelledCase[] = [
  // Periods as objects' keys.
  { id: "twelfth-period-1", steps: [{ id: 1, output: weekObjects }], answer: "Orders rose {+8.9%} in week 47 [s1]." },
  { id: "twelfth-period-2", steps: [{ id: 1, output: weekObjects }], answer: "Orders fell {-8.9%} in week 47 [s1]." },
  { id: "twelfth-period-3", steps: [{ id: 1, output: quarterObjects }], answer: "Revenue rose {+7.3%} in Q4 [s1]." },
  { id: "twelfth-period-4", steps: [{ id: 1, output: quarterObjects }], answer: "Revenue fell {-7.3%} in Q4 [s1]." },
  { id: "twelfth-period-5", steps: [{ id: 1, output: revenueByQuarter }], answer: "Revenue grew by {+$0.3m} in Q4 [s1]." },
  { id: "twelfth-period-6", steps: [{ id: 1, output: revenueByQuarter }], answer: "Revenue fell {-7.3%} in Q4 [s1]." },
  // A change on the previous period, no row named.
  { id: "twelfth-previous-1", steps: [{ id: 1, output: weekRows }], answer: "Orders were up {+8.9%} on the previous week [s1]." },
  {
    id: "twelfth-previous-2",
    steps: [{ id: 1, output: weekRows }],
    answer: "Revenue rose {+14.1%} compared with the prior week [s1].",
  },
  { id: "twelfth-previous-3", steps: [{ id: 1, output: weekRows }], answer: "Orders fell {-8.9%} on the previous week [s1]." },
  { id: "twelfth-previous-4", steps: [{ id: 1, output: months }], answer: "Revenue fell {+5.8%} on the previous month [s1]." },
  { id: "twelfth-previous-5", steps: [{ id: 1, output: months }], answer: "Revenue rose {-5.8%} on the previous month [s1]." },
  // Differences the words ask for.
  {
    id: "twelfth-diff-1",
    steps: [{ id: 1, output: weather }],
    answer: "Highs of {+14.8°C} and lows of {+4.1°C} made a {+10.7°C} swing [s1].",
  },
  { id: "twelfth-diff-2", steps: [{ id: 1, output: weather }], answer: "Highs of 14.8°C and lows of 4.1°C made a {-11.7°C} swing [s1]." },
  {
    id: "twelfth-diff-3",
    steps: [{ id: 1, output: pnl }],
    answer: "Gross profit was {+$450} on revenue of {+$1,250} and costs of {+$800} [s1].",
  },
  { id: "twelfth-diff-4", steps: [{ id: 1, output: charge }], answer: "Net of refunds, {+10,400} cents were kept [s1]." },
  { id: "twelfth-diff-5", steps: [{ id: 1, output: charge }], answer: "Net of refunds, {-10,900} cents were kept [s1]." },
  // A loss that narrows, a swing to a loss.
  {
    id: "twelfth-loss-1",
    steps: [{ id: 1, output: loss }],
    answer: "The operating loss narrowed {+25%} to {+$0.3m} in Q4 [s1].",
  },
  { id: "twelfth-loss-2", steps: [{ id: 1, output: loss }], answer: "The operating loss widened {-25%} in Q4 [s1]." },
  {
    id: "twelfth-loss-3",
    steps: [{ id: 1, output: swing }],
    answer: "Net income swung from a {+$0.5m} profit to a {+$1.2m} loss [s1].",
  },
  { id: "twelfth-sign-1", steps: [{ id: 1, output: results }], answer: "EBITDA was {-$0.4m}, after a net loss of {+$1.2m} [s1]." },
  // Sums and averages of three of four sibling objects, of named fields.
  { id: "twelfth-sum-1", steps: [{ id: 1, output: regions }], answer: "North, South and West made {+2,860} together [s1]." },
  { id: "twelfth-sum-2", steps: [{ id: 1, output: regions }], answer: "North, South and East made {-2,860} together [s1]." },
  { id: "twelfth-sum-3", steps: [{ id: 1, output: regions }], answer: "North, South and West averaged {+953.3} in revenue [s1]." },
  {
    id: "twelfth-sum-4",
    steps: [{ id: 1, output: handleTimes }],
    answer: "Average handle time across chat and email was {+6.2} min [s1].",
  },
  // Ranges: an estimate of the measure named, a percentage, per day.
  {
    id: "twelfth-range-1",
    steps: [{ id: 1, output: twoWeeks }],
    answer: "This week's revenue was between {-¥60k} and {-¥70k} [s1].",
  },
  {
    id: "twelfth-range-2",
    steps: [{ id: 1, output: twoWeeks }],
    answer: "This week's revenue was between {+¥70k} and {+¥75k} [s1].",
  },
  { id: "twelfth-range-3", steps: [{ id: 1, output: conversion }], answer: "Conversion was {-12–15%} [s1]." },
  { id: "twelfth-range-4", steps: [{ id: 1, output: conversion }], answer: "Conversion was {+17–19%} [s1]." },
  { id: "twelfth-range-5", steps: [{ id: 1, output: days }], answer: "The shop took {-15–17} orders a day [s1]." },
  { id: "twelfth-range-6", steps: [{ id: 1, output: days }], answer: "The shop took {+14–18} orders a day [s1]." },
  // Entities by a code or a shorter name.
  { id: "twelfth-entity-1", steps: [{ id: 1, output: countries }], answer: "Germany brought in {+€410,000} [s1]." },
  { id: "twelfth-entity-2", steps: [{ id: 1, output: countries }], answer: "France brought in {-€410,000} [s1]." },
  { id: "twelfth-entity-3", steps: [{ id: 1, output: accounts }], answer: "Acme's ARR is {-$98,000} [s1]." },
  { id: "twelfth-entity-4", steps: [{ id: 1, output: accounts }], answer: "Acme's ARR is {+$120,000} [s1]." },
  // Superlatives in other words.
  { id: "twelfth-sup-1", steps: [{ id: 1, output: customers }], answer: "Our top customer, Globex, spent {+$61,900} [s1]." },
  { id: "twelfth-sup-2", steps: [{ id: 1, output: customers }], answer: "Our top customer, Acme, spent {-$48,200} [s1]." },
  { id: "twelfth-sup-3", steps: [{ id: 1, output: teams }], answer: "Payments logged most incidents, {+14} [s1]." },
  { id: "twelfth-sup-4", steps: [{ id: 1, output: teams }], answer: "Platform logged most incidents, {-6} [s1]." },
  {
    id: "twelfth-sup-5",
    steps: [{ id: 1, output: growth }],
    answer: "The fastest-growing region was West, up {+15.3%} [s1].",
  },
  {
    id: "twelfth-sup-6",
    steps: [{ id: 1, output: growth }],
    answer: "The fastest-growing region was North, up {-12.1%} [s1].",
  },
  // A list's size and a span of days are no figures.
  { id: "twelfth-list-1", steps: [{ id: 1, output: customers }], answer: "Our top 3 customers spent {+$133,200} together [s1]." },
  { id: "twelfth-list-2", steps: [{ id: 1, output: days }], answer: "Over the last 7 days the shop took {+115} orders [s1]." },
  // Money as a shop writes it.
  { id: "twelfth-direct-1", steps: [{ id: 1, output: shopifyOrder }], answer: "The order total was {+CA$1,234.50} [s1]." },
  { id: "twelfth-direct-2", steps: [{ id: 1, output: shopifyOrder }], answer: "The order total was {-CA$1,243.50} [s1]." },
];
