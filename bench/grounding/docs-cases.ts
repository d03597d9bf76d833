import type { LabelledCase } from "./labelled-cases.js";

/**
 * The development suite: report sentences written from what docs/grounded-reports.md promises
 * (each shape it names, right and wrong), in the forms people write them: other locales,
 * signs, words, ranges, changes between periods, sums of named fields, entities, superlatives.
 */
const week = {
  orders: 127,
  returns: 14,
  exchanges: 9,
  revenue_cny: 64577.01,
  refunds_cny: 1204.5,
  refund_rate: 0.0187,
  tickets: 30,
  top_issue: "late delivery",
  top_count: 13,
};
const weeks = {
  tickets_this_week: 30,
  tickets_last_week: 27,
  revenue_this_week: 900,
  revenue_last_week: 1000,
  orders_this_week: 137,
  orders_last_week: 120,
};
const regions = [
  { region: "North", revenue: 1000, refunds: 40, orders: 52 },
  { region: "South", revenue: 980, refunds: 52, orders: 47 },
  { region: "East", revenue: 600, refunds: 65, orders: 31 },
  { region: "West", revenue: 720, refunds: 44, orders: 38 },
];
const nested = { regions: { north: { revenue: 1000, orders: 52 }, south: { revenue: 980, orders: 47 } } };
const days = [
  { day: "2026-11-16", orders: 23, revenue_cny: 11843.54 },
  { day: "2026-11-17", orders: 18, revenue_cny: 10209.16 },
  { day: "2026-11-18", orders: 21, revenue_cny: 10850.2 },
];
const books = {
  revenue_eur: 1234.5,
  net_income_usd: -1200,
  cash_chf: 1234.5,
  sales_inr: 1234567,
  orders_eur: 98765.4,
  operating_profit_eur: 45210.75,
};

export const docsCases: LabelledCase[] = [
  // Values shown, at the precision written.
  { id: "value-1", steps: [{ id: 1, output: week }], answer: "We took {+127} orders worth {+¥64,577.01} (about {+¥64.6k}) [s1]." },
  { id: "value-2", steps: [{ id: 1, output: week }], answer: "We took {-128} orders worth {-¥65,577.01} [s1]." },
  { id: "percent-1", steps: [{ id: 1, output: week }], answer: "The refund rate was {+1.87%} [s1]; refunds came to {+¥1,204.50} [s1]." },
  { id: "percent-2", steps: [{ id: 1, output: week }], answer: "The refund rate was {-2.1%} [s1]; refunds came to {-¥1,240.50} [s1]." },
  { id: "share-1", steps: [{ id: 1, output: week }], answer: "Late delivery was {+43%} of the {+30} tickets [s1]." },
  { id: "share-2", steps: [{ id: 1, output: week }], answer: "Late delivery was {-52%} of the tickets [s1]." },
  // Sums and differences of fields with different names, where the sentence names them.
  {
    id: "sum-1",
    steps: [
      { id: 1, output: { orders: 127 } },
      { id: 2, output: { returns: 14 } },
    ],
    answer: "Orders and returns together: {+141} [s1, s2].",
  },
  {
    id: "sum-2",
    steps: [
      { id: 1, output: { orders: 127 } },
      { id: 2, output: { returns: 14 } },
    ],
    answer: "Orders and returns together: {-151} [s1, s2].",
  },
  { id: "sum-3", steps: [{ id: 1, output: week }], answer: "Orders, returns and exchanges came to {+150} in all [s1]." },
  { id: "sum-4", steps: [{ id: 1, output: week }], answer: "Orders, returns and exchanges came to {-160} in all [s1]." },
  // Changes between two periods, their direction checked.
  { id: "change-1", steps: [{ id: 1, output: weeks }], answer: "We had {+3} more tickets than last week [s1]." },
  { id: "change-2", steps: [{ id: 1, output: weeks }], answer: "We had {-3} fewer tickets than last week [s1]." },
  { id: "change-3", steps: [{ id: 1, output: weeks }], answer: "Revenue fell {+10%} on last week [s1]." },
  { id: "change-4", steps: [{ id: 1, output: weeks }], answer: "Revenue rose {-10%} on last week [s1]." },
  { id: "change-5", steps: [{ id: 1, output: weeks }], answer: "Revenue was down {+100} on last week [s1]; orders rose {+14.2%} [s1]." },
  { id: "change-6", steps: [{ id: 1, output: weeks }], answer: "Revenue was up {-100} on last week [s1]; orders fell {-14.2%} [s1]." },
  { id: "change-7", steps: [{ id: 1, output: days }], answer: "Revenue on 2026-11-17 was {+13.8%} below 2026-11-16 [s1]." },
  { id: "change-8", steps: [{ id: 1, output: days }], answer: "Revenue on 2026-11-17 was {-13.8%} above 2026-11-16 [s1]." },
  // A column's smallest, largest or mean are no two periods.
  { id: "aggregate-1", steps: [{ id: 1, output: regions }], answer: "Revenue fell {-10%} [s1]." },
  { id: "aggregate-2", steps: [{ id: 1, output: regions }], answer: "Refunds rose {-62.5%} [s1]." },
  { id: "aggregate-3", steps: [{ id: 1, output: regions }], answer: "Total revenue was {+3,300} over {+4} regions [s1]." },
  // Entities: a figure claimed for one must be that one's.
  { id: "entity-1", steps: [{ id: 1, output: nested }], answer: "North's revenue was {-980.00} [s1]." },
  { id: "entity-2", steps: [{ id: 1, output: nested }], answer: "North's revenue was {+1,000.00} and South's {+980} [s1]." },
  { id: "entity-3", steps: [{ id: 1, output: regions }], answer: "East had {+31} orders and {+65} in refunds [s1]." },
  { id: "entity-4", steps: [{ id: 1, output: regions }], answer: "East had {-38} orders [s1]." },
  { id: "entity-5", steps: [{ id: 1, output: regions }], answer: "North and South made {+1,980} together [s1]." },
  // Superlatives are checked against the column.
  { id: "superlative-1", steps: [{ id: 1, output: regions }], answer: "The largest revenue was North's, {+1,000} [s1]." },
  { id: "superlative-2", steps: [{ id: 1, output: regions }], answer: "The largest revenue was {-980} [s1]." },
  { id: "superlative-3", steps: [{ id: 1, output: regions }], answer: "The lowest refunds were {+40} [s1]." },
  { id: "superlative-4", steps: [{ id: 1, output: regions }], answer: "The fewest orders were {-38} [s1]." },
  // Other locales' numbers, and the currency before or after.
  { id: "locale-de", steps: [{ id: 1, output: books }], answer: "Umsatz: {+€1.234,50}; Bestellwert {+98.765,40 EUR} [s1]." },
  { id: "locale-de-wrong", steps: [{ id: 1, output: books }], answer: "Umsatz: {-€1.243,50}; Bestellwert {-98.756,40 EUR} [s1]." },
  {
    id: "locale-fr",
    steps: [{ id: 1, output: books }],
    answer: "Chiffre d'affaires : {+1 234,50 €} ; résultat d'exploitation {+45 210,75 €} [s1].",
  },
  { id: "locale-fr-wrong", steps: [{ id: 1, output: books }], answer: "Chiffre d'affaires : {-1 324,50 €} [s1]." },
  { id: "locale-it", steps: [{ id: 1, output: books }], answer: "Ricavi: {+1.234,50 €}; utile operativo {+45.210,75 €} [s1]." },
  { id: "locale-es", steps: [{ id: 1, output: books }], answer: "Ingresos: {+1.234,50 €} y beneficio operativo de {+45.210,75 €} [s1]." },
  { id: "locale-ch", steps: [{ id: 1, output: books }], answer: "Kasse: {+CHF 1'234.50} [s1]." },
  { id: "locale-ch-wrong", steps: [{ id: 1, output: books }], answer: "Kasse: {-CHF 1'234.05} [s1]." },
  { id: "locale-in", steps: [{ id: 1, output: books }], answer: "Sales were {+₹12,34,567} [s1]." },
  { id: "locale-in-wrong", steps: [{ id: 1, output: books }], answer: "Sales were {-₹12,43,567} [s1]." },
  // Signs.
  { id: "sign-1", steps: [{ id: 1, output: books }], answer: "Net income was {+-1,200} [s1]; a net loss of {+$1,200} [s1]." },
  { id: "sign-2", steps: [{ id: 1, output: books }], answer: "Net income was {-1,200} [s1]." },
  { id: "sign-3", steps: [{ id: 1, output: books }], answer: "Net income: {+(1,200.00)} [s1]." },
  // Words and ranges.
  {
    id: "words-1",
    steps: [{ id: 1, output: { tickets: 15, orders: 240 } }],
    answer: "We closed {+fifteen} tickets and {+two hundred and forty} orders [s1].",
  },
  { id: "words-2", steps: [{ id: 1, output: { tickets: 15, orders: 240 } }], answer: "We closed {-sixteen} tickets [s1]." },
  { id: "range-1", steps: [{ id: 1, output: week }], answer: "Revenue was between {+¥60k} and {+¥70k} [s1]." },
  { id: "range-2", steps: [{ id: 1, output: week }], answer: "Revenue was between {-¥70k} and {-¥80k} [s1]." },
  // Uncited figures are looked for in every step; names and dates as text.
  {
    id: "uncited-1",
    steps: [
      { id: 1, output: week },
      { id: 2, output: days },
    ],
    answer: "On {+2026-11-17} the shop took {+18} orders.",
  },
  {
    id: "uncited-2",
    steps: [
      { id: 1, output: week },
      { id: 2, output: days },
    ],
    answer: "On 2026-11-17 the shop took {-19} orders.",
  },
  { id: "name-1", steps: [{ id: 1, output: week }], answer: 'Most tickets were about {+"late delivery"} [s1].' },
  { id: "name-2", steps: [{ id: 1, output: week }], answer: 'Most tickets were about {-"lost parcel"} [s1].' },
];
