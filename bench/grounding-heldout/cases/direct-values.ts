import type { HeldoutCase } from "../heldout-case.js";

// Values a cited output shows as they stand: API responses, SQL rows, a service's status document.
export const directValueCases: HeldoutCase[] = [
  {
    id: "direct-github-repo",
    task: "Give me a health snapshot of the acme/widgets repository.",
    steps: [
      {
        id: "1",
        output: {
          id: 48213377,
          full_name: "acme/widgets",
          private: false,
          stargazers_count: 18342,
          watchers_count: 18342,
          forks_count: 2291,
          open_issues_count: 417,
          default_branch: "main",
          license: { key: "mit", name: "MIT License" },
        },
      },
    ],
    answer: "## acme/widgets\n\nThe repository has 18,342 stars and 417 open issues [s1]. It is MIT-licensed [s1].",
    figures: [
      { text: "18,342", correct: true, kind: "direct-value" },
      { text: "417", correct: true, kind: "direct-value" },
    ],
  },
  {
    id: "direct-warehouse-units",
    task: "How much stock does the Leeds warehouse hold?",
    steps: [
      {
        id: "1",
        output: [
          { warehouse: "Leeds", units_on_hand: 3120, units_reserved: 488, last_count: "2026-11-30" },
          { warehouse: "Bristol", units_on_hand: 2675, units_reserved: 301, last_count: "2026-11-29" },
        ],
      },
    ],
    answer: "Leeds currently holds 3,210 units on hand, per the last stock count [s1].",
    figures: [{ text: "3,210", correct: false, kind: "direct-value", note: "units_on_hand is 3120 (digits transposed)" }],
  },
  {
    id: "direct-weather-humidity",
    task: "What are conditions at the Rotterdam site right now?",
    steps: [
      {
        id: "1",
        output: {
          location: { name: "Rotterdam", country: "Netherlands", localtime: "2026-12-07 09:15" },
          current: { temp_c: 6.4, feelslike_c: 3.1, humidity: 71, wind_kph: 22.3, condition: { text: "Light rain" } },
        },
      },
    ],
    answer: "Light rain in Rotterdam, humidity at 17% and wind around 22.3 km/h [s1].",
    figures: [
      { text: "17%", correct: false, kind: "direct-value", note: "humidity is 71" },
      { text: "22.3", correct: true, kind: "direct-value" },
    ],
  },
  {
    id: "direct-npm-downloads",
    task: "How many downloads did left-pad get last month?",
    steps: [{ id: "1", output: { downloads: 2483917, start: "2026-11-01", end: "2026-11-30", package: "left-pad" } }],
    answer: "left-pad was downloaded 2,483,917 times in November. [s1]",
    figures: [{ text: "2,483,917", correct: true, kind: "direct-value" }],
  },
  {
    id: "direct-order-lookup",
    task: "What did order #W4817220 cost the customer?",
    steps: [
      {
        id: "lookup",
        output: {
          order_id: "#W4817220",
          status: "delivered",
          items: [
            { name: "Desk lamp", item_id: "6042271", price: 54.99, quantity: 2 },
            { name: "Bulb 4-pack", item_id: "1177803", price: 12.5, quantity: 1 },
          ],
          payment_history: [{ transaction_type: "payment", amount: 122.48, payment_method_id: "credit_card_4412" }],
        },
      },
    ],
    answer: "Order #W4817220 was delivered. The customer paid $122.48 in total [s:lookup]; the desk lamps were $45.99 each [s:lookup].",
    figures: [
      { text: "$122.48", correct: true, kind: "direct-value" },
      { text: "$45.99", correct: false, kind: "direct-value", note: "the lamp's price is 54.99" },
    ],
  },
  {
    id: "direct-jira-sprint",
    task: "Summarise the PAY project's sprint.",
    steps: [
      {
        id: "1",
        output: {
          project: "PAY",
          sprint: { name: "PAY Sprint 31", state: "active" },
          counts: { open: 238, in_progress: 41, done_this_sprint: 57, blocked: 6 },
        },
      },
    ],
    answer: "- Closed this sprint: 57 tickets [1]\n- Still open: 283 [1]",
    figures: [
      { text: "57", correct: true, kind: "direct-value" },
      { text: "283", correct: false, kind: "direct-value", note: "open is 238" },
    ],
  },
  {
    id: "direct-headcount",
    task: "What is our headcount at the end of November?",
    steps: [
      {
        id: "1",
        output: { as_of: "2026-11-30", headcount: 412, contractors: 37, departments: 9, attrition_ytd: 28 },
      },
    ],
    answer: "As of 30 November, headcount stands at 421 employees, not counting contractors [s1].",
    figures: [{ text: "421", correct: false, kind: "direct-value", note: "headcount is 412" }],
  },
  {
    id: "direct-pod-memory",
    task: "Is the api pod healthy?",
    steps: [
      {
        id: "1",
        output: {
          metadata: { name: "api-7d9f8c6b5-xq2lm", namespace: "prod" },
          status: { phase: "Running", containerStatuses: [{ name: "api", restartCount: 7, ready: true }] },
          usage: { cpu_millicores: 350, memory_mib: 812 },
        },
      },
    ],
    answer: "The api pod is running but memory is at 821 MiB [s1], and it has restarted 7 times [s1].",
    figures: [
      { text: "821 MiB", correct: false, kind: "direct-value", note: "memory_mib is 812" },
      { text: "7", correct: true, kind: "direct-value" },
    ],
  },
  {
    id: "direct-flight-delay",
    task: "Is BA117 on time?",
    steps: [{ id: "1", output: { flight: "BA117", origin: "LHR", destination: "JFK", delay_minutes: 48, gate: "B32", status: "delayed" } }],
    answer: "BA117 to JFK is delayed by 84 minutes and will board from gate B32 [s1].",
    figures: [{ text: "84 minutes", correct: false, kind: "direct-value", note: "delay_minutes is 48" }],
  },
  {
    id: "direct-uncited-step-value",
    task: "How much is overdue, and how many invoices are open?",
    steps: [
      { id: "1", output: [{ open_invoices: 64, oldest_due: "2026-09-14" }] },
      { id: "2", output: [{ overdue_total_usd: 48310.2, overdue_count: 19 }] },
    ],
    answer: "There are 64 open invoices [s1], of which $48,310.20 is overdue [s1].",
    figures: [
      { text: "64", correct: true, kind: "direct-value" },
      { text: "$48,310.20", correct: false, kind: "direct-value", note: "shown by s2, which the sentence does not cite" },
    ],
  },
];
