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
];
