import type { LabelledCase } from "./labelled-cases.js";

/**
 * A sixteenth batch of the report-shapes suite, written after the fifteenth was fixed and before
 * its own fixes: two periods as tools name them in other places — in the key by a date
 * (`week_ending_2026_11_22`, `"2026-11-15"`), in a field's value (`period: "last_week"`), in the
 * step's own id (`s:this_week`, `s:last_week`) — and the derivations of the docs' table in the
 * wordings reports use ("average order value", "net of", "vs", "(+3)").
 */
const byDate = { week_ending_2026_11_15: { orders: 120 }, week_ending_2026_11_22: { orders: 137 } };
const byDay = { "2026-11-15": { revenue: 61620.93 }, "2026-11-22": { revenue: 69136.98 } };
const periodRows = [
  { period: "this_week", orders: 137 },
  { period: "last_week", orders: 120 },
];
const periodSteps = [
  { id: "this_week", output: { orders: 137, revenue_cny: 69136.98 } },
  { id: "last_week", output: { orders: 120, revenue_cny: 61620.93 } },
];
const camel = { ordersThisWeek: 137, ordersLastWeek: 120, revenueThisWeek: 69136.98 };
const nested = { orders: { this_week: 137, last_week: 120 } };
const summary = { revenue_cny: 69136.98, orders: 137, refunds_cny: 5387.91, tickets: 30, tickets_prev: 27 };

export const sixteenthReportShapes: LabelledCase[] = [
  { id: "sixteenth-date-1", steps: [{ id: 1, output: byDate }], answer: "Orders rose {+14.2%} in the week ending Nov 22 [s1]." },
  { id: "sixteenth-date-2", steps: [{ id: 1, output: byDate }], answer: "Orders fell {-14.2%} in the week ending Nov 22 [s1]." },
  { id: "sixteenth-date-3", steps: [{ id: 1, output: byDay }], answer: "Revenue grew {+12.2%} week on week [s1]." },
  { id: "sixteenth-date-4", steps: [{ id: 1, output: byDay }], answer: "Revenue shrank {-12.2%} week on week [s1]." },
  { id: "sixteenth-value-1", steps: [{ id: 1, output: periodRows }], answer: "Orders were up {+17} on last week [s1]." },
  { id: "sixteenth-value-2", steps: [{ id: 1, output: periodRows }], answer: "Orders were down {-17} on last week [s1]." },
  {
    id: "sixteenth-steps-1",
    steps: periodSteps,
    answer: "Orders rose {+14.2%} to {+137} [s:this_week, s:last_week].",
  },
  {
    id: "sixteenth-steps-2",
    steps: periodSteps,
    answer: "Orders fell {-14.2%} [s:this_week, s:last_week].",
  },
  {
    id: "sixteenth-steps-3",
    steps: periodSteps,
    answer: "Revenue was up {+¥7,516.05} on last week [s:this_week, s:last_week].",
  },
  { id: "sixteenth-camel-1", steps: [{ id: 1, output: camel }], answer: "Orders rose by {+17} to {+137} [s1]." },
  { id: "sixteenth-camel-2", steps: [{ id: 1, output: camel }], answer: "Orders fell by {-17} [s1]." },
  { id: "sixteenth-nested-1", steps: [{ id: 1, output: nested }], answer: "Orders were {+14.2%} higher than last week [s1]." },
  { id: "sixteenth-nested-2", steps: [{ id: 1, output: nested }], answer: "Orders were {-14.2%} lower than last week [s1]." },
  { id: "sixteenth-words-1", steps: [{ id: 1, output: summary }], answer: "The average order value was {+¥504.65} [s1]." },
  { id: "sixteenth-words-2", steps: [{ id: 1, output: summary }], answer: "Revenue net of refunds was {+¥63,749.07} [s1]." },
  { id: "sixteenth-words-3", steps: [{ id: 1, output: summary }], answer: "Tickets: {+30} ({+27} last week, {++3}) [s1]." },
  { id: "sixteenth-words-4", steps: [{ id: 1, output: summary }], answer: "Tickets: 30 (27 last week, {--3}) [s1]." },
  { id: "sixteenth-words-5", steps: [{ id: 1, output: summary }], answer: "Refunds were {+7.8%} of revenue [s1]." },
  { id: "sixteenth-words-6", steps: [{ id: 1, output: summary }], answer: "Refunds were {-8.7%} of revenue [s1]." },
];
