import type { HeldoutCase } from "../heldout-case.js";

// "The largest / best / lowest / fewest" checked against the whole column.
const regionRows = [
  { region: "North", revenue: 1240 },
  { region: "South", revenue: 980 },
  { region: "East", revenue: 1510 },
  { region: "West", revenue: 870 },
];
const skuSales = [
  { sku: "A-100", units: 340 },
  { sku: "B-220", units: 125 },
  { sku: "C-310", units: 95 },
];
const nps = {
  survey: "2026-Q4",
  stores: [
    { store: "Lyon", nps: 48, responses: 310 },
    { store: "Nantes", nps: 31, responses: 122 },
    { store: "Lille", nps: 55, responses: 204 },
  ],
};
const incidents = [
  { team: "Payments", incidents: 4, sev1: 0 },
  { team: "Search", incidents: 9, sev1: 1 },
  { team: "Identity", incidents: 6, sev1: 0 },
];
const orders = {
  orders: [
    { order_id: "#W1001", total: 1890.0 },
    { order_id: "#W1002", total: 1290.0 },
    { order_id: "#W1003", total: 412.5 },
  ],
};

export const superlativeCases: HeldoutCase[] = [
  {
    id: "superlative-largest-region",
    task: "Which region was biggest?",
    steps: [{ id: "1", output: regionRows }],
    answer: "East was the largest region, at 1,510 [s1].",
    figures: [{ text: "1,510", correct: true, kind: "superlative" }],
  },
  {
    id: "superlative-largest-region-wrong",
    task: "Which region led in revenue?",
    steps: [{ id: "1", output: regionRows }],
    answer: "The highest revenue came from West, with 870 [s1].",
    figures: [{ text: "870", correct: false, kind: "superlative", note: "870 is the lowest; East led with 1,510" }],
  },
  {
    id: "superlative-best-seller",
    task: "What was our best seller?",
    steps: [{ id: "1", output: skuSales }],
    answer: "Our best seller was A-100, with 340 units sold [s1].",
    figures: [{ text: "340 units", correct: true, kind: "superlative" }],
  },
  {
    id: "superlative-best-seller-wrong",
    task: "What sold the most?",
    steps: [{ id: "1", output: skuSales }],
    answer: "The top-selling item moved 125 units [s1].",
    figures: [{ text: "125 units", correct: false, kind: "superlative", note: "the top seller moved 340" }],
  },
  {
    id: "superlative-lowest-nps",
    task: "Which store needs attention on NPS?",
    steps: [{ id: "1", output: nps }],
    answer: "Nantes had the lowest NPS, at 31 [s1].",
    figures: [{ text: "31", correct: true, kind: "superlative" }],
  },
  {
    id: "superlative-lowest-nps-wrong",
    task: "Which store scored worst on NPS?",
    steps: [{ id: "1", output: nps }],
    answer: "The lowest NPS of the quarter was 55 [s1].",
    figures: [{ text: "55", correct: false, kind: "superlative", note: "55 is the highest; the lowest is 31" }],
  },
  {
    id: "superlative-fewest-incidents",
    task: "Which team had the quietest on-call?",
    steps: [{ id: "pagerduty", output: incidents }],
    answer: "Payments had the fewest incidents, with 4 [s:pagerduty].",
    figures: [{ text: "4", correct: true, kind: "superlative" }],
  },
  {
    id: "superlative-fewest-incidents-wrong",
    task: "Which team had the fewest pages?",
    steps: [{ id: "pagerduty", output: incidents }],
    answer: "The fewest incidents any team had was 6 [s:pagerduty].",
    figures: [{ text: "6", correct: false, kind: "superlative", note: "Payments had 4" }],
  },
  {
    id: "superlative-largest-order",
    task: "What was the biggest order this week?",
    steps: [{ id: "1", output: orders }],
    answer: "The most expensive order was #W1001 at $1,890.00 [s1].",
    figures: [{ text: "$1,890.00", correct: true, kind: "superlative" }],
  },
  {
    id: "superlative-largest-order-wrong",
    task: "How large was the biggest order?",
    steps: [{ id: "1", output: orders }],
    answer: "This week's largest order came to $1,290.00 [s1].",
    figures: [{ text: "$1,290.00", correct: false, kind: "superlative", note: "the largest is 1,890" }],
  },
];
