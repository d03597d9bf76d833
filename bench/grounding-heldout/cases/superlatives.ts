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
  {
    id: "superlative-city-signups",
    task: "Which city drove the most signups?",
    steps: [
      {
        id: "1",
        output: [
          { city: "Austin", signups: 812 },
          { city: "Denver", signups: 640 },
          { city: "Boston", signups: 905 },
          { city: "Seattle", signups: 771 },
        ],
      },
    ],
    answer: "Boston led signups with 905 [s1].",
    figures: [{ text: "905", correct: true, kind: "superlative" }],
  },
  {
    id: "superlative-city-signups-wrong",
    task: "Which city had the most signups last month?",
    steps: [
      {
        id: "1",
        output: [
          { city: "Austin", signups: 812 },
          { city: "Denver", signups: 640 },
          { city: "Boston", signups: 905 },
          { city: "Seattle", signups: 771 },
        ],
      },
    ],
    answer: "Austin topped the table with 812 signups [s1].",
    figures: [{ text: "812", correct: false, kind: "superlative", note: "Boston had the most, 905" }],
  },
  {
    id: "superlative-tenure",
    task: "Who has been on the team longest?",
    steps: [
      {
        id: "1",
        output: {
          engineers: [
            { name: "Ana Ruiz", tenure_years: 9 },
            { name: "Raj Patel", tenure_years: 4 },
            { name: "Tom Berg", tenure_years: 12 },
          ],
        },
      },
    ],
    answer: "Tom Berg is our longest-serving engineer, at 12 years [s1].",
    figures: [{ text: "12 years", correct: true, kind: "superlative" }],
  },
  {
    id: "superlative-tenure-wrong",
    task: "How long has our longest-serving engineer been here?",
    steps: [
      {
        id: "1",
        output: {
          engineers: [
            { name: "Ana Ruiz", tenure_years: 9 },
            { name: "Raj Patel", tenure_years: 4 },
            { name: "Tom Berg", tenure_years: 12 },
          ],
        },
      },
    ],
    answer: "Our longest-serving engineer has been with us 9 years [s1].",
    figures: [{ text: "9 years", correct: false, kind: "superlative", note: "Tom Berg has 12" }],
  },
  {
    id: "superlative-slowest-region-nested",
    task: "Which region is slowest?",
    steps: [{ id: "1", output: { regions: { "us-east": { p95_ms: 120 }, "eu-west": { p95_ms: 98 }, "ap-south": { p95_ms: 240 } } } }],
    answer: "ap-south is the slowest region, at 240 ms p95 [s1].",
    figures: [{ text: "240 ms", correct: true, kind: "superlative" }],
  },
  {
    id: "superlative-slowest-region-nested-wrong",
    task: "What is the slowest region's p95?",
    steps: [{ id: "1", output: { regions: { "us-east": { p95_ms: 120 }, "eu-west": { p95_ms: 98 }, "ap-south": { p95_ms: 240 } } } }],
    answer: "The slowest region's p95 is 120 ms [s1].",
    figures: [{ text: "120 ms", correct: false, kind: "superlative", note: "ap-south is slowest at 240" }],
  },
];
