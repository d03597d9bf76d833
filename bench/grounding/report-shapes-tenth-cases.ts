import type { LabelledCase } from "./labelled-cases.js";
import * as data from "./report-shapes-tenth-data.js";
import { tenthReportShapesMore } from "./report-shapes-tenth-more-cases.js";

/**
 * A tenth batch of the report-shapes suite, written before its fixes from docs/grounded-reports.md's
 * promises and from the weekly sales, support, finance and operations reports a model writes from
 * JSON step outputs: fields of different names for two periods (`revenue_this_week` and
 * `revenue_last_week`), nested objects by region and by period, tables of rows, negative money,
 * numbers in other locales' styles (`€1.234,50`, `1 234,50 €`, `CHF 1'234.50`, `₹12,34,567`),
 * changes with their direction, sums and averages of what the sentence names, ranges and
 * spreads, superlatives and a figure said to be one entity's.
 */
export const tenthReportShapes: LabelledCase[] = [
  // Two periods as fields of different names.
  { id: "tenth-sales-1", steps: [{ id: 1, output: data.salesWeek }], answer: "Revenue fell {+7.4%} to {+$48,250.50} [s1]." },
  { id: "tenth-sales-2", steps: [{ id: 1, output: data.salesWeek }], answer: "Revenue rose {-7.4%} on last week [s1]." },
  { id: "tenth-sales-3", steps: [{ id: 1, output: data.salesWeek }], answer: "Revenue was down {+$3,849.50} on last week [s1]." },
  { id: "tenth-sales-4", steps: [{ id: 1, output: data.salesWeek }], answer: "Revenue was up {-$3,849.50} on last week [s1]." },
  { id: "tenth-sales-5", steps: [{ id: 1, output: data.salesWeek }], answer: "Orders rose by {+35} to {+1,210} [s1]." },
  { id: "tenth-sales-6", steps: [{ id: 1, output: data.salesWeek }], answer: "We took {+35} more orders than last week [s1]." },
  { id: "tenth-sales-7", steps: [{ id: 1, output: data.salesWeek }], answer: "We took {-35} fewer orders than last week [s1]." },
  { id: "tenth-sales-8", steps: [{ id: 1, output: data.salesWeek }], answer: "Orders were up {+3.0%} week on week [s1]." },
  {
    id: "tenth-sales-9",
    steps: [{ id: 1, output: data.salesWeek }],
    answer: "Refunds came to {+$1,930.25} on {+41} returns, leaving net revenue after refunds of {+$46,320.25} [s1].",
  },
  { id: "tenth-sales-10", steps: [{ id: 1, output: data.salesWeek }], answer: "Orders went from {-1,157} to {+1,210} [s1]." },
  {
    id: "tenth-sales-11",
    steps: [{ id: 1, output: data.salesWeek }],
    answer: "## Weekly sales\n\n- Revenue: {+$48,250.50} [s1]\n- Orders: {+1,210}, up from {+1,175} [s1]\n- Refunds: {-$1,390.25} [s1]\n",
  },
  // A support week: opened and closed, start and end, a metric and its earlier twin.
  { id: "tenth-support-1", steps: [{ id: 1, output: data.supportWeek }], answer: "The backlog grew by {+28} to {+208} [s1]." },
  { id: "tenth-support-2", steps: [{ id: 1, output: data.supportWeek }], answer: "The backlog shrank by {-28} this week [s1]." },
  { id: "tenth-support-3", steps: [{ id: 1, output: data.supportWeek }], answer: "We opened {+28} more tickets than we closed [s1]." },
  { id: "tenth-support-4", steps: [{ id: 1, output: data.supportWeek }], answer: "We closed {-28} more tickets than we opened [s1]." },
  {
    id: "tenth-support-5",
    steps: [{ id: 1, output: data.supportWeek }],
    answer: "First response time fell {+0.7} hours to {+3.4} hours, a drop of {+17.1%} [s1].",
  },
  { id: "tenth-support-6", steps: [{ id: 1, output: data.supportWeek }], answer: "First response time rose {-0.7} hours [s1]." },
  { id: "tenth-support-7", steps: [{ id: 1, output: data.supportWeek }], answer: "CSAT was {+88.5%}, down {+2.5 points} [s1]." },
  { id: "tenth-support-8", steps: [{ id: 1, output: data.supportWeek }], answer: "CSAT was 88.5%, up {-2.5 points} [s1]." },
  // Finance: losses, signs, brackets.
  { id: "tenth-fin-1", steps: [{ id: 1, output: data.finance }], answer: "Net income was {-$312,500} for the quarter [s1]." },
  { id: "tenth-fin-2", steps: [{ id: 1, output: data.finance }], answer: "The company posted a net loss of {+$312,500} [s1]." },
  { id: "tenth-fin-3", steps: [{ id: 1, output: data.finance }], answer: "Net income was {+-$312,500} [s1]." },
  { id: "tenth-fin-4", steps: [{ id: 1, output: data.finance }], answer: "Net income: {+($312,500)} [s1]." },
  { id: "tenth-fin-5", steps: [{ id: 1, output: data.finance }], answer: "Operating income was {-$260,000} [s1]." },
  { id: "tenth-fin-6", steps: [{ id: 1, output: data.finance }], answer: "The operating loss came to {+$0.26m} [s1]." },
  { id: "tenth-fin-7", steps: [{ id: 1, output: data.finance }], answer: "Operating expenses exceeded revenue by {+$260,000} [s1]." },
  { id: "tenth-fin-8", steps: [{ id: 1, output: data.finance }], answer: "Revenue exceeded operating expenses by {-$260,000} [s1]." },
  { id: "tenth-fin-9", steps: [{ id: 1, output: data.finance }], answer: "Cash fell {+$310,000} to {+$1.84m} [s1]." },
  { id: "tenth-fin-10", steps: [{ id: 1, output: data.finance }], answer: "Cash rose {-$310,000} over the quarter [s1]." },
  // A table of regions: attribution, superlatives, sums, averages, spreads, shares.
  { id: "tenth-region-1", steps: [{ id: 1, output: data.regionRows }], answer: "North's revenue was {+$124,500} [s1]." },
  { id: "tenth-region-2", steps: [{ id: 1, output: data.regionRows }], answer: "South's revenue was {-$124,500} [s1]." },
  { id: "tenth-region-3", steps: [{ id: 1, output: data.regionRows }], answer: "East had the highest revenue, {+$143,200} [s1]." },
  { id: "tenth-region-4", steps: [{ id: 1, output: data.regionRows }], answer: "North had the highest revenue, {-$124,500} [s1]." },
  { id: "tenth-region-5", steps: [{ id: 1, output: data.regionRows }], answer: "The lowest refunds were West's, {+$1,980} [s1]." },
  { id: "tenth-region-6", steps: [{ id: 1, output: data.regionRows }], answer: "The highest refunds were North's, {-$3,200} [s1]." },
  { id: "tenth-region-7", steps: [{ id: 1, output: data.regionRows }], answer: "North had the second-highest revenue, {+$124,500} [s1]." },
  {
    id: "tenth-region-8",
    steps: [{ id: 1, output: data.regionRows }],
    answer: "Revenue ranged from {+$87,650} to {+$143,200} across the regions [s1].",
  },
  {
    id: "tenth-region-9",
    steps: [{ id: 1, output: data.regionRows }],
    answer: "Revenue ranged from {+$87,650} to {-$124,500} across the regions [s1].",
  },
  { id: "tenth-region-10", steps: [{ id: 1, output: data.regionRows }], answer: "North and South together took {+$222,500} [s1]." },
  { id: "tenth-region-11", steps: [{ id: 1, output: data.regionRows }], answer: "North and East together took {-$257,700} [s1]." },
  { id: "tenth-region-12", steps: [{ id: 1, output: data.regionRows }], answer: "Revenue averaged {+$113,337.50} per region [s1]." },
  { id: "tenth-region-13", steps: [{ id: 1, output: data.regionRows }], answer: "The four regions took {+$453,350} in total [s1]." },
  { id: "tenth-region-14", steps: [{ id: 1, output: data.regionRows }], answer: "East took {+$55,550} more than West [s1]." },
  { id: "tenth-region-15", steps: [{ id: 1, output: data.regionRows }], answer: "West took {-$55,550} more than East [s1]." },
  { id: "tenth-region-16", steps: [{ id: 1, output: data.regionRows }], answer: "Revenue rose {-63.4%} [s1]." },
  { id: "tenth-region-17", steps: [{ id: 1, output: data.regionRows }], answer: "Revenue was up {-26.3%} this week [s1]." },
  { id: "tenth-region-18", steps: [{ id: 1, output: data.regionRows }], answer: "East made {+31.6%} of revenue [s1]." },
  { id: "tenth-region-19", steps: [{ id: 1, output: data.regionRows }], answer: "North made {-31.6%} of revenue [s1]." },
  { id: "tenth-region-20", steps: [{ id: 1, output: data.regionRows }], answer: "North's revenue per order was {+$95.04} [s1]." },
  { id: "tenth-region-21", steps: [{ id: 1, output: data.regionRows }], answer: "Each region averaged {+1,213.75} orders [s1]." },
  {
    id: "tenth-region-22",
    steps: [{ id: 1, output: data.regionRows }],
    answer: "The gap between North and South was {+$26,500} in revenue [s1].",
  },
  {
    id: "tenth-region-23",
    steps: [{ id: 1, output: data.regionRows }],
    answer: "The gap between the highest and lowest revenue was {+$55,550} [s1].",
  },
  {
    id: "tenth-region-24",
    steps: [{ id: 1, output: data.regionRows }],
    answer: "Regions took between {+960} and {+1,480} orders each [s1].",
  },
  {
    id: "tenth-region-25",
    steps: [{ id: 1, output: data.regionRows }],
    answer:
      "| Region | Revenue | Orders |\n| --- | --- | --- |\n| North | {+$124,500} | {+1,310} |\n| South | {+$98,000} | {-1,150} |\n\nSource: [s1]",
  },
  // Regions as sibling objects.
  { id: "tenth-obj-1", steps: [{ id: 1, output: data.regionObjects }], answer: "South's revenue was {+1,120} [s1]." },
  { id: "tenth-obj-2", steps: [{ id: 1, output: data.regionObjects }], answer: "North's revenue was {-1,120} [s1]." },
  { id: "tenth-obj-3", steps: [{ id: 1, output: data.regionObjects }], answer: "West had the most tickets, {+51} [s1]." },
  { id: "tenth-obj-4", steps: [{ id: 1, output: data.regionObjects }], answer: "South had the most tickets, {-37} [s1]." },
  { id: "tenth-obj-5", steps: [{ id: 1, output: data.regionObjects }], answer: "North and West together made {+1,740} [s1]." },
  { id: "tenth-obj-6", steps: [{ id: 1, output: data.regionObjects }], answer: "The three regions made {+2,860} in all [s1]." },
  { id: "tenth-obj-7", steps: [{ id: 1, output: data.regionObjects }], answer: "Tickets averaged {+43.3} per region [s1]." },
  // A table of weeks.
  { id: "tenth-week-1", steps: [{ id: 1, output: data.weekRows }], answer: "Orders rose {+8.9%} in week 47 [s1]." },
  { id: "tenth-week-2", steps: [{ id: 1, output: data.weekRows }], answer: "Orders fell {-8.9%} in week 47 [s1]." },
  { id: "tenth-week-3", steps: [{ id: 1, output: data.weekRows }], answer: "Orders fell by {+44} in week 46 [s1]." },
  { id: "tenth-week-4", steps: [{ id: 1, output: data.weekRows }], answer: "Orders rose by {-44} in week 46 [s1]." },
  { id: "tenth-week-5", steps: [{ id: 1, output: data.weekRows }], answer: "Revenue was up {+14.1%} week on week [s1]." },
  { id: "tenth-week-6", steps: [{ id: 1, output: data.weekRows }], answer: "Revenue was up {-6.7%} week on week [s1]." },
  { id: "tenth-week-7", steps: [{ id: 1, output: data.weekRows }], answer: "Over the four weeks orders totalled {+4,925} [s1]." },
  { id: "tenth-week-8", steps: [{ id: 1, output: data.weekRows }], answer: "Weekly orders ranged from {+1,180} to {+1,305} [s1]." },
  { id: "tenth-week-9", steps: [{ id: 1, output: data.weekRows }], answer: "Revenue averaged {+$63,437.50} a week [s1]." },
  {
    id: "tenth-week-10",
    steps: [{ id: 1, output: data.weekRows }],
    answer: "Revenue grew from {+$61,250} in week 44 to {+$68,420} in week 47, up {+11.7%} [s1].",
  },
  { id: "tenth-week-11", steps: [{ id: 1, output: data.weekRows }], answer: "The best week was week 47, with {+$68,420} in revenue [s1]." },
  {
    id: "tenth-week-12",
    steps: [{ id: 1, output: data.weekRows }],
    answer: "The weakest week was week 44, with {-$61,250} in revenue [s1].",
  },
  { id: "tenth-week-13", steps: [{ id: 1, output: data.weekRows }], answer: "Weekly orders ranged from {+1,180} to {-1,250} [s1]." },
  { id: "tenth-week-14", steps: [{ id: 1, output: data.weekRows }], answer: "Revenue was between {+$60k} and {+$70k} in week 47 [s1]." },
  { id: "tenth-week-15", steps: [{ id: 1, output: data.weekRows }], answer: "Revenue was between {-$70k} and {-$75k} in week 47 [s1]." },
  { id: "tenth-week-16", steps: [{ id: 1, output: data.weekRows }], answer: "Weeks had between {+1,180} and {+1,305} orders each [s1]." },
  { id: "tenth-week-17", steps: [{ id: 1, output: data.weekRows }], answer: "Weeks had between {+1,180} and {-1,250} orders each [s1]." },
  // A table of months.
  { id: "tenth-month-1", steps: [{ id: 1, output: data.monthRows }], answer: "Signups fell {+4.3%} in November [s1]." },
  { id: "tenth-month-2", steps: [{ id: 1, output: data.monthRows }], answer: "Signups rose {-4.3%} in November [s1]." },
  { id: "tenth-month-3", steps: [{ id: 1, output: data.monthRows }], answer: "Churned accounts fell by {+47} in November [s1]." },
  { id: "tenth-month-4", steps: [{ id: 1, output: data.monthRows }], answer: "Signups rose by {+375} in October [s1]." },
  { id: "tenth-month-5", steps: [{ id: 1, output: data.monthRows }], answer: "Churned accounts rose by {-47} in November [s1]." },
  // Periods as nested objects.
  { id: "tenth-kpi-1", steps: [{ id: 1, output: data.kpis }], answer: "Sessions rose {+6.1%} to {+182,400} [s1]." },
  { id: "tenth-kpi-2", steps: [{ id: 1, output: data.kpis }], answer: "Revenue slipped {+1.9%} to {+€97,250} [s1]." },
  { id: "tenth-kpi-3", steps: [{ id: 1, output: data.kpis }], answer: "Revenue rose {-1.9%} [s1]." },
  { id: "tenth-kpi-4", steps: [{ id: 1, output: data.kpis }], answer: "The conversion rate was {+2.0%} this week [s1]." },
  { id: "tenth-kpi-5", steps: [{ id: 1, output: data.kpis }], answer: "Conversions were up {+38} [s1]." },
  { id: "tenth-kpi-6", steps: [{ id: 1, output: data.kpis }], answer: "Conversions were down {-38} [s1]." },
  // Sums and averages of named fields.
  { id: "tenth-channel-1", steps: [{ id: 1, output: data.channels }], answer: "Web and app orders came to {+1,278} together [s1]." },
  { id: "tenth-channel-2", steps: [{ id: 1, output: data.channels }], answer: "Web, app and phone orders came to {+1,335} in total [s1]." },
  { id: "tenth-channel-3", steps: [{ id: 1, output: data.channels }], answer: "Web, app and phone orders came to {-1,345} in total [s1]." },
  { id: "tenth-channel-4", steps: [{ id: 1, output: data.channels }], answer: "App orders were {+34.9%} of all orders [s1]." },
  { id: "tenth-channel-5", steps: [{ id: 1, output: data.channels }], answer: "App orders were {-60.8%} of all orders [s1]." },
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
  { id: "tenth-spend-1", steps: [{ id: 1, output: data.spend }], answer: "Marketing and sales spend combined came to {+$45,150} [s1]." },
  { id: "tenth-spend-2", steps: [{ id: 1, output: data.spend }], answer: "Marketing and sales spend combined came to {-$45,510} [s1]." },
  { id: "tenth-rorders-1", steps: [{ id: 1, output: data.regionOrders }], answer: "North and South took {+805} orders together [s1]." },
  { id: "tenth-rorders-2", steps: [{ id: 1, output: data.regionOrders }], answer: "North and West took {-805} orders together [s1]." },
  // Plan against actual.
  {
    id: "tenth-budget-1",
    steps: [{ id: 1, output: data.budget }],
    answer: "Spending ran {+€11,400} over budget, {+9.5%} above plan [s1].",
  },
  { id: "tenth-budget-2", steps: [{ id: 1, output: data.budget }], answer: "Spending came in {-€11,400} under budget [s1]." },
  // Signs in a quarter's results, in millions.
  { id: "tenth-q-1", steps: [{ id: 1, output: data.quarterPnl }], answer: "EBITDA was {-$4.2m} in Q3 [s1]." },
  { id: "tenth-q-2", steps: [{ id: 1, output: data.quarterPnl }], answer: "EBITDA was {+-$4.2m} in Q3 on revenue of {+$58.3m} [s1]." },
  { id: "tenth-q-3", steps: [{ id: 1, output: data.quarterPnl }], answer: "EBITDA was negative at {+$4.2 million} [s1]." },
  { id: "tenth-q-4", steps: [{ id: 1, output: data.quarterPnl }], answer: "Free cash flow was {-$1.1m} [s1]." },
  { id: "tenth-q-5", steps: [{ id: 1, output: data.quarterPnl }], answer: "Free cash flow was {+−$1.1m} [s1]." },
  { id: "tenth-q-6", steps: [{ id: 1, output: data.quarterPnl }], answer: "Revenue was {-−$58.3m} [s1]." },
  // Account balances.
  { id: "tenth-bal-1", steps: [{ id: 1, output: data.balances }], answer: "The Payroll account was overdrawn by {+$2,380.40} [s1]." },
  { id: "tenth-bal-2", steps: [{ id: 1, output: data.balances }], answer: "The Payroll account held {-$2,380.40} [s1]." },
  { id: "tenth-bal-3", steps: [{ id: 1, output: data.balances }], answer: "Payroll balance: {+($2,380.40)} [s1]." },
  { id: "tenth-bal-4", steps: [{ id: 1, output: data.balances }], answer: "The Operating account held {+$15,420.75} [s1]." },
  { id: "tenth-deficit-1", steps: [{ id: 1, output: data.deficit }], answer: "The budget showed a deficit of {+$84,000} [s1]." },
  { id: "tenth-deficit-2", steps: [{ id: 1, output: data.deficit }], answer: "The budget showed a surplus of {-$84,000} [s1]." },
  // Segments with a loss.
  { id: "tenth-seg-1", steps: [{ id: 1, output: data.segments }], answer: "Wholesale made an operating loss of {+$3.1m} [s1]." },
  { id: "tenth-seg-2", steps: [{ id: 1, output: data.segments }], answer: "Wholesale's operating income was {-$3.1m} [s1]." },
  { id: "tenth-seg-3", steps: [{ id: 1, output: data.segments }], answer: "Operating income across the segments totalled {+$9.3m} [s1]." },
  // Products: names, superlatives.
  {
    id: "tenth-prod-1",
    steps: [{ id: 1, output: data.products }],
    answer: "The best seller by units was the Desk Lamp, with {+420} sold [s1].",
  },
  {
    id: "tenth-prod-2",
    steps: [{ id: 1, output: data.products }],
    answer: "The top product by revenue was the Office Chair at {+$23,750} [s1].",
  },
  {
    id: "tenth-prod-3",
    steps: [{ id: 1, output: data.products }],
    answer: "The top product by revenue was the Monitor Arm at {-$15,340} [s1].",
  },
  { id: "tenth-prod-4", steps: [{ id: 1, output: data.products }], answer: "The fewest units sold of any product were {-260} [s1]." },
  { id: "tenth-prod-5", steps: [{ id: 1, output: data.products }], answer: "The Monitor Arm sold {+260} units [s1]." },
  { id: "tenth-prod-6", steps: [{ id: 1, output: data.products }], answer: "The Desk Lamp sold {-260} units [s1]." },
  { id: "tenth-prod-7", steps: [{ id: 1, output: data.products }], answer: "Units fell {-77.4%} [s1]." },
  // Years, months and quarters in field names.
  {
    id: "tenth-year-1",
    steps: [{ id: 1, output: data.yearly }],
    answer: "Revenue grew {+13.6%} year over year to {+$1.84m} [s1].",
  },
  { id: "tenth-year-2", steps: [{ id: 1, output: data.yearly }], answer: "Revenue was down {-$220k} year over year [s1]." },
  { id: "tenth-year-3", steps: [{ id: 1, output: data.yearly }], answer: "Revenue was up {+$0.22m} on 2024 [s1]." },
  { id: "tenth-month-field-1", steps: [{ id: 1, output: data.byMonthFields }], answer: "Revenue dropped {+5.8%} in November [s1]." },
  { id: "tenth-month-field-2", steps: [{ id: 1, output: data.byMonthFields }], answer: "Revenue grew {-5.8%} in November [s1]." },
  {
    id: "tenth-month-field-3",
    steps: [{ id: 1, output: data.byMonthFields }],
    answer: "November revenue was {+$12,200} below October's [s1].",
  },
  {
    id: "tenth-month-field-4",
    steps: [{ id: 1, output: data.byMonthFields }],
    answer: "November revenue was {-$12,200} above October's [s1].",
  },
  // Headcount.
  { id: "tenth-hc-1", steps: [{ id: 1, output: data.headcount }], answer: "Headcount grew by {+12} to {+224} [s1]." },
  { id: "tenth-hc-2", steps: [{ id: 1, output: data.headcount }], answer: "Hires exceeded leavers by {+12} [s1]." },
  { id: "tenth-hc-3", steps: [{ id: 1, output: data.headcount }], answer: "Leavers exceeded hires by {-12} [s1]." },
  { id: "tenth-hc-4", steps: [{ id: 1, output: data.headcount }], answer: "Headcount fell by {-12} [s1]." },
  // Margins in points.
  { id: "tenth-margin-1", steps: [{ id: 1, output: data.margins }], answer: "Gross margin improved {+1.8 points} to {+42.3%} [s1]." },
  { id: "tenth-margin-2", steps: [{ id: 1, output: data.margins }], answer: "Gross margin fell {-1.8 points} [s1]." },
  // Other locales.
  { id: "tenth-de-1", steps: [{ id: 1, output: data.eurWeek }], answer: "Der Umsatz stieg auf {+1.234,50 €} [s1]." },
  { id: "tenth-de-2", steps: [{ id: 1, output: data.eurWeek }], answer: "Der Umsatz lag bei {-€1.243,50} [s1]." },
  { id: "tenth-de-3", steps: [{ id: 1, output: data.eurWeek }], answer: "Der Umsatz stieg um {+12,2 %} [s1]." },
  {
    id: "tenth-de-4",
    steps: [{ id: 1, output: data.eurWeek }],
    answer: "Der Umsatz lag bei {+1.234,50 €} aus {+1.205} Bestellungen [s1].",
  },
  { id: "tenth-de-5", steps: [{ id: 1, output: data.eurWeek }], answer: "Der Umsatz sank um {-12,2 %} [s1]." },
  { id: "tenth-fr-1", steps: [{ id: 1, output: data.eurWeek }], answer: "Le chiffre d’affaires s’élève à {+1\u202f234,50 €} [s1]." },
  { id: "tenth-fr-2", steps: [{ id: 1, output: data.eurWeek }], answer: "Le chiffre d’affaires s’élève à {+1 234,50 €} [s1]." },
  { id: "tenth-fr-3", steps: [{ id: 1, output: data.bigEur }], answer: "Le chiffre d’affaires atteint {+98\u202f765,40 €} [s1]." },
  { id: "tenth-fr-4", steps: [{ id: 1, output: data.bigEur }], answer: "Le chiffre d’affaires atteint {-98\u202f756,40 €} [s1]." },
  { id: "tenth-es-1", steps: [{ id: 1, output: data.eurWeek }], answer: "Las ventas subieron un {+12,2 %} hasta {+1.234,50 €} [s1]." },
  { id: "tenth-it-1", steps: [{ id: 1, output: data.eurWeek }], answer: "Il fatturato è cresciuto del {+12,2%} a {+€ 1.234,50} [s1]." },
  { id: "tenth-eur-1", steps: [{ id: 1, output: data.bigEur }], answer: "Revenue: {+98.765,40 EUR} [s1]." },
  {
    id: "tenth-chf-1",
    steps: [{ id: 1, output: data.chf }],
    answer: "Revenue of {+CHF 1'234.50} against costs of {+CHF 987.25} left {+CHF 247.25} [s1].",
  },
  { id: "tenth-chf-2", steps: [{ id: 1, output: data.chf }], answer: "Revenue came to {+CHF 1’234.50} [s1]." },
  { id: "tenth-chf-3", steps: [{ id: 1, output: data.chf }], answer: "Revenue came to {-CHF 1'324.50} [s1]." },
  { id: "tenth-inr-1", steps: [{ id: 1, output: data.inr }], answer: "Revenue rose to {+₹12,34,567}, up {+12.2%} [s1]." },
  { id: "tenth-inr-2", steps: [{ id: 1, output: data.inr }], answer: "Revenue was {-₹12,34,657} [s1]." },
  { id: "tenth-inr-3", steps: [{ id: 1, output: data.inr }], answer: "Revenue was {+₹12.3 lakh} this month [s1]." },
  { id: "tenth-eur-loss-1", steps: [{ id: 1, output: data.eurLoss }], answer: "Das Nettoergebnis betrug {+-1.234,50 €} [s1]." },
  { id: "tenth-eur-loss-2", steps: [{ id: 1, output: data.eurLoss }], answer: "Net income was {-€1.234,50} [s1]." },
  // An API's object, ratios and shares of named fields.
  {
    id: "tenth-repo-1",
    steps: [{ id: 1, output: data.repo }],
    answer: "acme/widgets has {+12,840} stars, {+1,312} forks and {+287} open issues [s1].",
  },
  { id: "tenth-repo-2", steps: [{ id: 1, output: data.repo }], answer: "acme/widgets has {-12,480} stars [s1]." },
  { id: "tenth-users-1", steps: [{ id: 1, output: data.users }], answer: "{+15%} of active users are paying users [s1]." },
  { id: "tenth-esc-1", steps: [{ id: 1, output: data.escalations }], answer: "Escalations were {+7.5%} of all tickets [s1]." },
  { id: "tenth-esc-2", steps: [{ id: 1, output: data.escalations }], answer: "Escalations were {-8.5%} of all tickets [s1]." },
  { id: "tenth-aov-1", steps: [{ id: 1, output: data.aov }], answer: "The average order value was {+$78.53} [s1]." },
  { id: "tenth-aov-2", steps: [{ id: 1, output: data.aov }], answer: "The average order value was {-$87.53} [s1]." },
  // Numbers in words.
  {
    id: "tenth-words-1",
    steps: [{ id: 1, output: { escalations: 15, tickets: 240 } }],
    answer: "Of {+two hundred and forty} tickets, {+fifteen} were escalated [s1].",
  },
  { id: "tenth-words-2", steps: [{ id: 1, output: { escalations: 14 } }], answer: "{-Twelve} tickets were escalated [s1]." },
  // A CSV export: attribution.
  { id: "tenth-csv-1", steps: [{ id: 1, output: data.storesCsv }], answer: "Munich sold {+€211,750} with {+14} staff [s1]." },
  { id: "tenth-csv-2", steps: [{ id: 1, output: data.storesCsv }], answer: "Munich sold {-€182,400} [s1]." },
  { id: "tenth-csv-3", steps: [{ id: 1, output: data.storesCsv }], answer: "Cologne had the fewest staff, {+7} [s1]." },
  { id: "tenth-csv-4", steps: [{ id: 1, output: data.storesCsv }], answer: "Hamburg had the fewest staff, {-12} [s1]." },
  ...tenthReportShapesMore,
];
