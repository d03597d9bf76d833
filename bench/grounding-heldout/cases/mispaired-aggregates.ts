import type { HeldoutCase } from "../heldout-case.js";

// A table of one period has no change in it: min, max and mean of one column are not two periods.
// The correct half: changes between two rows the sentence names, and plain column totals and means.
const regionsOneMonth = [
  { region: "North", revenue: 1240, refunds: 42 },
  { region: "South", revenue: 980, refunds: 57 },
  { region: "East", revenue: 1510, refunds: 73 },
  { region: "West", revenue: 870, refunds: 60 },
];
const weeklyOrders = [
  { week: "W44", orders: 510 },
  { week: "W45", orders: 540 },
  { week: "W46", orders: 495 },
  { week: "W47", orders: 594 },
];
const channels = {
  week: "2026-W49",
  channels: [
    { channel: "organic", sessions: 18400 },
    { channel: "paid", sessions: 9200 },
    { channel: "email", sessions: 4600 },
    { channel: "social", sessions: 2300 },
  ],
};

const quarters = [
  { quarter: "Q1 2026", bookings_usd: 1200000 },
  { quarter: "Q2 2026", bookings_usd: 1350000 },
  { quarter: "Q3 2026", bookings_usd: 1500000 },
  { quarter: "Q4 2026", bookings_usd: 1620000 },
];
const productsOneMonth = {
  month: "2026-11",
  products: [
    { product: "Basic", mrr_usd: 12000 },
    { product: "Pro", mrr_usd: 30000 },
    { product: "Enterprise", mrr_usd: 48000 },
  ],
};

export const mispairedAggregateCases: HeldoutCase[] = [
  {
    id: "mispaired-min-vs-mean",
    task: "How did revenue do by region this month?",
    steps: [{ id: "1", output: regionsOneMonth }],
    answer: "Revenue fell 24.3% this month [s1].",
    figures: [{ text: "24.3%", correct: false, kind: "aggregate-mispaired", note: "one month only; 870 vs the mean 1,150" }],
  },
  {
    id: "mispaired-max-vs-min",
    task: "How did refunds move this month?",
    steps: [{ id: "1", output: regionsOneMonth }],
    answer: "Refunds rose 74% month on month [s1].",
    figures: [{ text: "74%", correct: false, kind: "aggregate-mispaired", note: "one month only; 73 vs 42 are two regions" }],
  },
  {
    id: "mispaired-max-minus-mean",
    task: "Give me the monthly revenue trend.",
    steps: [{ id: "1", output: regionsOneMonth }],
    answer: "Revenue was up 360 on last month [s1].",
    figures: [{ text: "360", correct: false, kind: "aggregate-mispaired", note: "no last month; 1,510 minus the mean 1,150" }],
  },
  {
    id: "mispaired-mean-per-region",
    task: "What did a region bring in on average?",
    steps: [{ id: "1", output: regionsOneMonth }],
    answer: "The average region brought in 1,150 this month [s1].",
    figures: [{ text: "1,150", correct: true, kind: "aggregate-mispaired", note: "the column's mean" }],
  },
  {
    id: "mispaired-total-refunds",
    task: "How much did we refund this month?",
    steps: [{ id: "1", output: regionsOneMonth }],
    answer: "Refunds across the four regions totalled 232 [s1].",
    figures: [{ text: "232", correct: true, kind: "aggregate-mispaired", note: "the column's sum" }],
  },
  {
    id: "mispaired-weekly-change",
    task: "How did orders do in the latest week?",
    steps: [{ id: "1", output: weeklyOrders }],
    answer: "Orders rose 20% from W46 to W47 [s1].",
    figures: [{ text: "20%", correct: true, kind: "aggregate-mispaired", note: "594 / 495" }],
  },
  {
    id: "mispaired-weekly-difference",
    task: "How did W47 compare with W45?",
    steps: [{ id: "1", output: weeklyOrders }],
    answer: "W47 had 54 more orders than W45 [s1].",
    figures: [{ text: "54", correct: true, kind: "aggregate-mispaired", note: "594 - 540" }],
  },
  {
    id: "mispaired-weekly-min-vs-mean",
    task: "How did orders do in the latest week?",
    steps: [{ id: "1", output: weeklyOrders }],
    answer: "Orders slipped 7.4% in the latest week [s1].",
    figures: [{ text: "7.4%", correct: false, kind: "aggregate-mispaired", note: "W47 rose 20%; 495 vs the mean 534.75" }],
  },
  {
    id: "mispaired-channels-doubled",
    task: "How did traffic do week over week?",
    steps: [{ id: "1", output: channels }],
    answer: "Sessions were up 100% week over week [s1].",
    figures: [{ text: "100%", correct: false, kind: "aggregate-mispaired", note: "one week only; organic is twice paid" }],
  },
  {
    id: "mispaired-months-change",
    task: "How did revenue move from October to November?",
    steps: [
      {
        id: "1",
        output: [
          { month: "2026-09", revenue: 39800 },
          { month: "2026-10", revenue: 41200 },
          { month: "2026-11", revenue: 45320 },
        ],
      },
    ],
    answer: "Revenue rose 10% from October to November [s1].",
    figures: [{ text: "10%", correct: true, kind: "aggregate-mispaired", note: "45320 / 41200" }],
  },
  {
    id: "mispaired-quarters-change",
    task: "How did bookings do last quarter?",
    steps: [{ id: "1", output: quarters }],
    answer: "Bookings grew 8% from Q3 to Q4 [s1].",
    figures: [{ text: "8%", correct: true, kind: "aggregate-mispaired", note: "1.62M / 1.5M" }],
  },
  {
    id: "mispaired-quarters-fell-wrong",
    task: "How did bookings do in the last quarter of the year?",
    steps: [{ id: "1", output: quarters }],
    answer: "Bookings fell 14% last quarter [s1].",
    figures: [{ text: "14%", correct: false, kind: "aggregate-mispaired", note: "Q4 rose 8%; 1.62M is 14% above the mean" }],
  },
  {
    id: "mispaired-quarters-difference",
    task: "How much more did we book in Q4 than in Q3?",
    steps: [{ id: "1", output: quarters }],
    answer: "Q4 bookings were $120k above Q3's [s1].",
    figures: [{ text: "$120k", correct: true, kind: "aggregate-mispaired", note: "1,620,000 - 1,500,000" }],
  },
  {
    id: "mispaired-products-grew-wrong",
    task: "How did MRR move this month?",
    steps: [{ id: "1", output: productsOneMonth }],
    answer: "MRR grew 60% this month [s1].",
    figures: [{ text: "60%", correct: false, kind: "aggregate-mispaired", note: "one month only; 48,000 against the mean 30,000" }],
  },
  {
    id: "mispaired-products-share",
    task: "How much of MRR is Pro?",
    steps: [{ id: "1", output: productsOneMonth }],
    answer: "Pro makes up 33.3% of MRR [s1].",
    figures: [{ text: "33.3%", correct: true, kind: "aggregate-mispaired", note: "30,000 of the column's 90,000" }],
  },
  {
    id: "mispaired-products-dropped-wrong",
    task: "Did MRR drop this month?",
    steps: [{ id: "1", output: productsOneMonth }],
    answer: "MRR dropped by $18,000 this month [s1].",
    figures: [{ text: "$18,000", correct: false, kind: "aggregate-mispaired", note: "one month only; 48,000 minus the mean 30,000" }],
  },
];
