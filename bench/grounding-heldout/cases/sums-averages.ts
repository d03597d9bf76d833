import type { HeldoutCase } from "../heldout-case.js";

// Sums and averages of items the sentence names (three or more, or two rows of a table), and column totals.
const regions = { north: { revenue: 1200 }, south: { revenue: 980 }, east: { revenue: 1510 }, west: { revenue: 870 } };
const skuRows = [
  { sku: "A-100", name: "Standing desk", units: 340 },
  { sku: "B-220", name: "Monitor arm", units: 125 },
  { sku: "C-310", name: "Desk mat", units: 95 },
  { sku: "D-400", name: "Cable tray", units: 60 },
];
const sessionsByMonth = [
  { month: "July", sessions: 41200 },
  { month: "August", sessions: 38900 },
  { month: "September", sessions: 44100 },
  { month: "October", sessions: 47300 },
];
const hours = {
  timesheets: [
    { person: "Alice", hours: 38.5 },
    { person: "Bob", hours: 41 },
    { person: "Chen", hours: 36.5 },
    { person: "Dara", hours: 40 },
  ],
};
const storeRatings = [
  { store: "Lyon", rating: 4.6, reviews: 212 },
  { store: "Nantes", rating: 4.2, reviews: 97 },
  { store: "Lille", rating: 3.9, reviews: 140 },
  { store: "Nice", rating: 4.5, reviews: 188 },
];

const invoices = {
  invoices: [
    { client: "Globex", amount_usd: 1200.5, due: "2026-12-15" },
    { client: "Initech", amount_usd: 860.25, due: "2026-12-20" },
    { client: "Umbrella", amount_usd: 2040, due: "2027-01-05" },
    { client: "Hooli", amount_usd: 415.75, due: "2027-01-10" },
  ],
};
const sprints = {
  team: "checkout",
  sprints: [
    { name: "S28", points_done: 34 },
    { name: "S29", points_done: 41 },
    { name: "S30", points_done: 38 },
    { name: "S31", points_done: 29 },
  ],
};
const travel = [
  { dept: "Sales", travel_usd: 18200 },
  { dept: "Marketing", travel_usd: 9400 },
  { dept: "Engineering", travel_usd: 6100 },
];

export const sumAverageCases: HeldoutCase[] = [
  {
    id: "sum-three-regions",
    task: "Revenue for the northern, southern and eastern regions?",
    steps: [{ id: "1", output: { month: "2026-11", regions } }],
    answer: "North, South and East together brought in 3,690 this month [s1].",
    figures: [{ text: "3,690", correct: true, kind: "sum-average-of-named", note: "1200 + 980 + 1510" }],
  },
  {
    id: "sum-three-regions-wrong",
    task: "Revenue for the regions outside the east?",
    steps: [{ id: "1", output: { month: "2026-11", regions } }],
    answer: "Outside the East, the three regions (North, South and West) made 3,560 [s1].",
    figures: [{ text: "3,560", correct: false, kind: "sum-average-of-named", note: "1200 + 980 + 870 is 3050" }],
  },
  {
    id: "sum-two-skus",
    task: "How many desks and desk mats did we sell?",
    steps: [{ id: "1", output: skuRows }],
    answer: "A-100 and C-310 account for 435 units between them [s1].",
    figures: [{ text: "435", correct: true, kind: "sum-average-of-named", note: "340 + 95" }],
  },
  {
    id: "sum-two-skus-wrong",
    task: "How many monitor arms and cable trays did we sell?",
    steps: [{ id: "1", output: skuRows }],
    answer: "Accessories B-220 and D-400 sold 195 units combined [s1].",
    figures: [{ text: "195", correct: false, kind: "sum-average-of-named", note: "125 + 60 is 185" }],
  },
  {
    id: "average-three-months",
    task: "What was the average monthly traffic in Q3?",
    steps: [{ id: "analytics", output: sessionsByMonth }],
    answer: "Across July, August and September, sessions averaged 41,400 a month [s:analytics].",
    figures: [{ text: "41,400", correct: true, kind: "sum-average-of-named", note: "(41200 + 38900 + 44100) / 3" }],
  },
  {
    id: "average-three-months-wrong",
    task: "What was the average monthly traffic from August to October?",
    steps: [{ id: "analytics", output: sessionsByMonth }],
    answer: "August, September and October averaged 43,200 sessions a month [s:analytics].",
    figures: [{ text: "43,200", correct: false, kind: "sum-average-of-named", note: "the average is 43,433" }],
  },
  {
    id: "sum-three-people-hours",
    task: "How many hours did the backend trio log?",
    steps: [{ id: "1", output: hours }],
    answer: "Alice, Bob and Chen logged 116 hours between them this week [s1].",
    figures: [{ text: "116 hours", correct: true, kind: "sum-average-of-named", note: "38.5 + 41 + 36.5" }],
  },
  {
    id: "sum-two-people-hours-wrong",
    task: "How many hours did Bob and Dara log?",
    steps: [{ id: "1", output: hours }],
    answer: "Bob and Dara logged 79 hours this week [s1].",
    figures: [{ text: "79 hours", correct: false, kind: "sum-average-of-named", note: "41 + 40 is 81" }],
  },
  {
    id: "average-two-stores",
    task: "How are the southern stores rated?",
    steps: [{ id: "1", output: storeRatings }],
    answer: "Lyon and Nice averaged 4.55 stars [s1].",
    figures: [{ text: "4.55", correct: true, kind: "sum-average-of-named", note: "(4.6 + 4.5) / 2" }],
  },
  {
    id: "average-two-stores-wrong",
    task: "How are the northern stores rated?",
    steps: [{ id: "1", output: storeRatings }],
    answer: "Nantes and Lille average 4.15 stars between them [s1].",
    figures: [{ text: "4.15", correct: false, kind: "sum-average-of-named", note: "(4.2 + 3.9) / 2 is 4.05" }],
  },
  {
    id: "sum-all-regions",
    task: "Total revenue across regions?",
    steps: [
      {
        id: "1",
        output: [
          { region: "North", revenue: 1200 },
          { region: "South", revenue: 980 },
          { region: "East", revenue: 1510 },
          { region: "West", revenue: 870 },
        ],
      },
    ],
    answer: "All four regions together: 4,560 [s1].",
    figures: [{ text: "4,560", correct: true, kind: "sum-average-of-named", note: "the column's sum" }],
  },
  {
    id: "sum-all-regions-wrong",
    task: "Total revenue across regions last month?",
    steps: [
      {
        id: "1",
        output: [
          { region: "North", revenue: 1200 },
          { region: "South", revenue: 980 },
          { region: "East", revenue: 1510 },
          { region: "West", revenue: 870 },
        ],
      },
    ],
    answer: "The four regions brought in 4,650 in total [s1].",
    figures: [{ text: "4,650", correct: false, kind: "sum-average-of-named", note: "the sum is 4560" }],
  },
  {
    id: "sum-three-invoices",
    task: "What do Globex, Initech and Hooli owe us?",
    steps: [{ id: "ar", output: invoices }],
    answer: "Globex, Initech and Hooli owe $2,476.50 between them [s:ar].",
    figures: [{ text: "$2,476.50", correct: true, kind: "sum-average-of-named", note: "1200.50 + 860.25 + 415.75" }],
  },
  {
    id: "sum-three-invoices-wrong",
    task: "What do Initech, Umbrella and Hooli owe us?",
    steps: [{ id: "ar", output: invoices }],
    answer: "Initech, Umbrella and Hooli together owe $3,361.00 [s:ar].",
    figures: [{ text: "$3,361.00", correct: false, kind: "sum-average-of-named", note: "860.25 + 2040 + 415.75 is 3316.00" }],
  },
  {
    id: "average-three-sprints",
    task: "What is the checkout team's velocity?",
    steps: [{ id: "1", output: sprints }],
    answer: "Over sprints S28, S29 and S30 the team averaged 37.7 points [s1].",
    figures: [{ text: "37.7 points", correct: true, kind: "sum-average-of-named", note: "(34 + 41 + 38) / 3" }],
  },
  {
    id: "average-three-sprints-wrong",
    task: "What is the checkout team's recent velocity?",
    steps: [{ id: "1", output: sprints }],
    answer: "S29, S30 and S31 averaged 37.7 points [s1].",
    figures: [{ text: "37.7 points", correct: false, kind: "sum-average-of-named", note: "(41 + 38 + 29) / 3 is 36" }],
  },
  {
    id: "sum-two-departments",
    task: "What did the commercial teams spend on travel?",
    steps: [{ id: "1", output: travel }],
    answer: "Sales and Marketing spent $27,600 on travel [s1].",
    figures: [{ text: "$27,600", correct: true, kind: "sum-average-of-named", note: "18200 + 9400" }],
  },
  {
    id: "sum-two-departments-wrong",
    task: "What did Marketing and Engineering spend on travel?",
    steps: [{ id: "1", output: travel }],
    answer: "Marketing and Engineering spent $16,500 on travel this quarter [s1].",
    figures: [{ text: "$16,500", correct: false, kind: "sum-average-of-named", note: "9400 + 6100 is 15,500" }],
  },
];
