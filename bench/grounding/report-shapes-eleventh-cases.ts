import type { LabelledCase } from "./labelled-cases.js";
import { finance, monthRows, products, regionRows, salesWeek, supportWeek, weekRows } from "./report-shapes-tenth-data.js";

/**
 * An eleventh batch of the report-shapes suite, written after the tenth was fixed and before its
 * own fixes: the kinds the held-out suite's table showed weak (changes and derivations across
 * fields, sums and averages, locales, ranges, signs, attribution, superlatives) in shapes the
 * tenth did not write — periods as objects and in field names of months and years, metrics that
 * improve as they fall, a part and what is left, sums over steps and sibling objects, German
 * numbers with no unambiguous one beside them, round bounds of a range, a sign in another
 * clause, two entities in one sentence, "best-selling", and a rating out of 5.
 */
const visitors = { visitors_2025: 48000, visitors_2024: 42000 };
const quarterObjects = { q1: { revenue: 2.31 }, q2: { revenue: 2.58 } };
const salesMonth = { sales_this_month: 84200, sales_last_month: 79800 };
const resolution = { avg_resolution_hours: 5.2, avg_resolution_hours_last_week: 6.5, churn_rate: 0.031, churn_rate_prev: 0.036 };
const marketing = { spend_usd: 18400, spend_prev_usd: 20000, leads: 1850, leads_prev: 1600 };
const quarterFields = { q1_revenue: 2.31, q2_revenue: 2.58, q3_revenue: 2.74 };
const stores = [
  { store: "Hamburg", sales_eur: 182400, staff: 12 },
  { store: "Munich", sales_eur: 211750, staff: 14 },
  { store: "Cologne", sales_eur: 96300, staff: 7 },
];
const funnel = { sessions: 54000, signups: 1620 };
const seats = { capacity: 500, booked: 430 };
const days = [
  { day: "2026-11-16", orders: 15, revenue_cny: 6812.13 },
  { day: "2026-11-17", orders: 17, revenue_cny: 6748.32 },
  { day: "2026-11-18", orders: 17, revenue_cny: 8386.47 },
  { day: "2026-11-19", orders: 18, revenue_cny: 9092.57 },
  { day: "2026-11-20", orders: 14, revenue_cny: 6544.15 },
  { day: "2026-11-21", orders: 17, revenue_cny: 9952.27 },
  { day: "2026-11-22", orders: 17, revenue_cny: 8303.25 },
];
const teamSteps = [
  { id: 1, output: { team: "Platform", incidents: 6 } },
  { id: 2, output: { team: "Payments", incidents: 12 } },
  { id: 3, output: { team: "Search", incidents: 3 } },
];
const channelObjects = { channels: { web: { orders: 812 }, app: { orders: 466 } } };
const deWeek = { umsatz_eur: 48250.5, umsatz_vorwoche_eur: 52100, besucher: 98765 };
const euro = { revenue_eur: 1234.5, aov_eur: 61.2 };
const changes = { revenue_change: -0.074 };
const rupees = { revenue_inr: 123000000 };
const teams = [
  { team: "Platform", incidents: 6 },
  { team: "Payments", incidents: 14 },
  { team: "Search", incidents: 3 },
];
const margin = { ebitda_margin: -0.072 };
const cash = { cash_change_usd: -310000 };
const ratings = { csat: 4.6, nps: 42, nps_prev: 38 };

export const eleventhReportShapes: LabelledCase[] = [
  // Changes and derivations across fields of other names.
  { id: "eleventh-across-1", steps: [{ id: 1, output: visitors }], answer: "Visitors rose {+14.3%} year over year [s1]." },
  { id: "eleventh-across-2", steps: [{ id: 1, output: visitors }], answer: "Visitors fell {-14.3%} year over year [s1]." },
  { id: "eleventh-across-3", steps: [{ id: 1, output: quarterObjects }], answer: "Revenue grew {+11.7%} in Q2 [s1]." },
  { id: "eleventh-across-4", steps: [{ id: 1, output: salesMonth }], answer: "Sales were up {+$4,400} month on month [s1]." },
  { id: "eleventh-across-5", steps: [{ id: 1, output: salesMonth }], answer: "Sales were down {-$4,400} month on month [s1]." },
  {
    id: "eleventh-across-6",
    steps: [{ id: 1, output: resolution }],
    answer: "Average resolution time improved by {+1.3} hours to {+5.2} [s1].",
  },
  { id: "eleventh-across-7", steps: [{ id: 1, output: resolution }], answer: "Churn improved by {+0.5 points} to {+3.1%} [s1]." },
  { id: "eleventh-across-8", steps: [{ id: 1, output: resolution }], answer: "Average resolution time rose by {-1.3} hours [s1]." },
  { id: "eleventh-across-9", steps: [{ id: 1, output: marketing }], answer: "Spend was {+8%} lower than last month [s1]." },
  { id: "eleventh-across-10", steps: [{ id: 1, output: marketing }], answer: "Leads were up {+15.6%} on last month [s1]." },
  { id: "eleventh-across-11", steps: [{ id: 1, output: marketing }], answer: "Leads were down {-15.6%} on last month [s1]." },
  {
    id: "eleventh-across-12",
    steps: [{ id: 1, output: seats }],
    answer: "{+430} of {+500} seats were booked, leaving {+70} free [s1].",
  },
  { id: "eleventh-across-13", steps: [{ id: 1, output: funnel }], answer: "Signups were {+3%} of sessions [s1]." },
  {
    id: "eleventh-across-14",
    steps: [{ id: 1, output: salesWeek }],
    answer: "This week's revenue of {+$48,250.50} was {+$3,849.50} below last week's [s1].",
  },
  {
    id: "eleventh-across-15",
    steps: [{ id: 1, output: salesWeek }],
    answer: "Compared with last week, revenue was {+7.4%} lower [s1].",
  },
  {
    id: "eleventh-across-16",
    steps: [{ id: 1, output: salesWeek }],
    answer: "Revenue declined from {+$52,100} to {+$48,250.50} [s1].",
  },
  // Sums and averages of named fields, rows, steps and sibling objects.
  { id: "eleventh-sum-1", steps: [{ id: 1, output: quarterFields }], answer: "Q1 and Q2 revenue came to {+$4.89m} together [s1]." },
  { id: "eleventh-sum-2", steps: [{ id: 1, output: quarterFields }], answer: "Q1 and Q2 revenue came to {-$5.32m} together [s1]." },
  { id: "eleventh-sum-3", steps: [{ id: 1, output: stores }], answer: "The three stores averaged {+€163,483} in sales [s1]." },
  { id: "eleventh-sum-4", steps: [{ id: 1, output: stores }], answer: "Hamburg and Munich sold {+€394,150} between them [s1]." },
  { id: "eleventh-sum-5", steps: [{ id: 1, output: stores }], answer: "Hamburg and Cologne sold {-€394,150} between them [s1]." },
  { id: "eleventh-sum-6", steps: teamSteps, answer: "The three teams logged {+21} incidents in all [s1, s2, s3]." },
  { id: "eleventh-sum-7", steps: teamSteps, answer: "Incidents averaged {+7} per team [s1, s2, s3]." },
  { id: "eleventh-sum-8", steps: teamSteps, answer: "The three teams logged {-24} incidents in all [s1, s2, s3]." },
  {
    id: "eleventh-sum-9",
    steps: [{ id: 1, output: channelObjects }],
    answer: "Web and app orders together came to {+1,278} [s1].",
  },
  // Changes with their direction.
  { id: "eleventh-change-1", steps: [{ id: 1, output: marketing }], answer: "Spend dropped {+$1,600} to {+$18,400} [s1]." },
  { id: "eleventh-change-2", steps: [{ id: 1, output: salesWeek }], answer: "Orders climbed {+3%} to {+1,210} [s1]." },
  { id: "eleventh-change-3", steps: [{ id: 1, output: monthRows }], answer: "Signups dipped {+4.3%} in November [s1]." },
  { id: "eleventh-change-4", steps: [{ id: 1, output: supportWeek }], answer: "CSAT slipped {+2.5 points} to {+88.5%} [s1]." },
  { id: "eleventh-change-5", steps: [{ id: 1, output: supportWeek }], answer: "CSAT climbed {-2.5 points} [s1]." },
  // Other locales.
  {
    id: "eleventh-locale-1",
    steps: [{ id: 1, output: deWeek }],
    answer: "Der Umsatz betrug {+48.250,50 €} (Vorwoche: {+52.100,00 €}) [s1].",
  },
  { id: "eleventh-locale-2", steps: [{ id: 1, output: deWeek }], answer: "Der Shop hatte {+98.765} Besucher [s1]." },
  { id: "eleventh-locale-3", steps: [{ id: 1, output: deWeek }], answer: "Der Umsatz sank um {+7,4 %} gegenüber der Vorwoche [s1]." },
  { id: "eleventh-locale-4", steps: [{ id: 1, output: euro }], answer: "Ricavi: {+1.234,50 €} [s1]." },
  { id: "eleventh-locale-5", steps: [{ id: 1, output: euro }], answer: "Le panier moyen est de {+61,20 €} [s1]." },
  { id: "eleventh-locale-6", steps: [{ id: 1, output: euro }], answer: "El ticket medio fue de {-61,02 €} [s1]." },
  { id: "eleventh-locale-7", steps: [{ id: 1, output: changes }], answer: "Umsatz {+−7,4 %} ggü. Vorwoche [s1]." },
  { id: "eleventh-locale-8", steps: [{ id: 1, output: rupees }], answer: "Revenue was {+₹12.3 cr} [s1]." },
  // Ranges.
  { id: "eleventh-range-1", steps: [{ id: 1, output: days }], answer: "Daily orders ranged from {+14} to {+18} [s1]." },
  { id: "eleventh-range-2", steps: [{ id: 1, output: days }], answer: "Between {+14} and {+18} orders came in each day [s1]." },
  { id: "eleventh-range-3", steps: [{ id: 1, output: days }], answer: "Daily revenue stayed between {+¥6,500} and {+¥10,000} [s1]." },
  { id: "eleventh-range-4", steps: [{ id: 1, output: days }], answer: "Daily revenue stayed between {+¥6,500} and {-¥9,000} [s1]." },
  { id: "eleventh-range-5", steps: [{ id: 1, output: teams }], answer: "Teams had between {+3} and {-12} incidents [s1]." },
  { id: "eleventh-range-6", steps: [{ id: 1, output: teams }], answer: "Teams had between {+3} and {+14} incidents [s1]." },
  { id: "eleventh-range-7", steps: [{ id: 1, output: weekRows }], answer: "Orders rose {-10–12%} in week 47 [s1]." },
  {
    id: "eleventh-range-8",
    steps: [{ id: 1, output: regionRows }],
    answer: "North's revenue was between {-$90k} and {-$100k} [s1].",
  },
  // Signs.
  { id: "eleventh-sign-1", steps: [{ id: 1, output: finance }], answer: "Revenue was down, but net income was {-$312,500} [s1]." },
  {
    id: "eleventh-sign-2",
    steps: [{ id: 1, output: finance }],
    answer: "Losses narrowed to {+$260,000} at the operating line [s1].",
  },
  { id: "eleventh-sign-3", steps: [{ id: 1, output: margin }], answer: "EBITDA margin was {-7.2%} [s1]." },
  { id: "eleventh-sign-4", steps: [{ id: 1, output: margin }], answer: "EBITDA margin was {+-7.2%} [s1]." },
  { id: "eleventh-sign-5", steps: [{ id: 1, output: cash }], answer: "Cash increased by {-$310,000} [s1]." },
  { id: "eleventh-sign-6", steps: [{ id: 1, output: cash }], answer: "Cash decreased by {+$310,000} [s1]." },
  // A figure said to be one entity's, with two entities in the sentence.
  {
    id: "eleventh-entity-1",
    steps: [{ id: 1, output: regionRows }],
    answer: "North brought in {-$98,000} and South {-$124,500} [s1].",
  },
  { id: "eleventh-entity-2", steps: [{ id: 1, output: regionRows }], answer: "In the North region, revenue was {+$124,500} [s1]." },
  {
    id: "eleventh-entity-3",
    steps: [{ id: 1, output: regionRows }],
    answer: "South ({+$98,000}) trailed North ({+$124,500}) [s1].",
  },
  // Superlatives.
  {
    id: "eleventh-sup-1",
    steps: [{ id: 1, output: products }],
    answer: "Our best-selling product, the Desk Lamp, sold {+420} units [s1].",
  },
  {
    id: "eleventh-sup-2",
    steps: [{ id: 1, output: products }],
    answer: "Our best-selling product, the Monitor Arm, sold {-260} units [s1].",
  },
  { id: "eleventh-sup-3", steps: [{ id: 1, output: regionRows }], answer: "With {+$143,200}, East had the highest revenue [s1]." },
  { id: "eleventh-sup-4", steps: [{ id: 1, output: regionRows }], answer: "With {-$124,500}, North had the highest revenue [s1]." },
  { id: "eleventh-sup-5", steps: [{ id: 1, output: stores }], answer: "Top seller: Munich, with {+€211,750} [s1]." },
  { id: "eleventh-sup-6", steps: [{ id: 1, output: stores }], answer: "Top seller: Hamburg, with {-€182,400} [s1]." },
  // Ratings out of 5: the 5 is the scale, no figure.
  {
    id: "eleventh-rating-1",
    steps: [{ id: 1, output: ratings }],
    answer: "Average CSAT was {+4.6}/5 and NPS rose to {+42} from {+38} [s1].",
  },
  { id: "eleventh-rating-2", steps: [{ id: 1, output: ratings }], answer: "Customers rated us {+4.6} out of 5 [s1]." },
  { id: "eleventh-rating-3", steps: [{ id: 1, output: ratings }], answer: "NPS rose by {+4} points to {+42} [s1]." },
];
