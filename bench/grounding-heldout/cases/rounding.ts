import type { HeldoutCase } from "../heldout-case.js";

// Values rounded or cut to the precision the answer wrote, with k/M/B scales and "about".
export const roundingCases: HeldoutCase[] = [
  {
    id: "rounding-arr-millions",
    task: "What is our annual recurring revenue?",
    steps: [{ id: "1", output: [{ plan: "all", arr_usd: 1284550.4, customers: 913 }] }],
    answer: "ARR reached $1.28M across 913 customers [s1].",
    figures: [
      { text: "$1.28M", correct: true, kind: "rounding" },
      { text: "913", correct: true, kind: "direct-value" },
    ],
  },
  {
    id: "rounding-arr-millions-up",
    task: "What is ARR for the enterprise plan?",
    steps: [{ id: "1", output: [{ plan: "enterprise", arr_usd: 1284550.4 }] }],
    answer: "Enterprise ARR is roughly $1.29M [s1].",
    figures: [{ text: "$1.29M", correct: false, kind: "rounding", note: "1,284,550.40 rounds to 1.28M" }],
  },
  {
    id: "rounding-market-cap-billions",
    task: "How large is the company by market value?",
    steps: [{ id: "quote", output: { symbol: "ACME", price: 48.12, shares_outstanding: 48856000, market_cap: 2351000000 } }],
    answer: "ACME is valued at $2.4B [s:quote].",
    figures: [{ text: "$2.4B", correct: true, kind: "rounding" }],
  },
  {
    id: "rounding-market-cap-billions-wrong",
    task: "How large is Globex by market value?",
    steps: [{ id: "quote", output: { symbol: "GLBX", price: 17.4, market_cap: 2351000000, currency: "USD" } }],
    answer: "Globex's market cap is $2.5B at the latest close [s:quote].",
    figures: [{ text: "$2.5B", correct: false, kind: "rounding", note: "2.351B rounds to 2.4B" }],
  },
  {
    id: "rounding-grant-thousands",
    task: "How much of the grant has been spent?",
    steps: [{ id: "1", output: { grant_id: "EU-HZ-22817", spent_eur: 37640.18, budget_eur: 120000 } }],
    answer: "We have spent €38k of the €120k budget so far [s1].",
    figures: [
      { text: "€38k", correct: true, kind: "rounding" },
      { text: "€120k", correct: true, kind: "rounding" },
    ],
  },
  {
    id: "rounding-visitors-thousands-wrong",
    task: "How many visitors did the docs site get yesterday?",
    steps: [{ id: "1", output: { date: "2026-12-06", visitors: 4612, pageviews: 15877, avg_session_s: 94 } }],
    answer: "The docs site had 4.7k visitors yesterday [s1].",
    figures: [{ text: "4.7k", correct: false, kind: "rounding", note: "4,612 is 4.6k" }],
  },
  {
    id: "rounding-gbp-one-decimal",
    task: "What did the London office spend on travel?",
    steps: [{ id: "1", output: [{ office: "London", category: "travel", amount_gbp: 812.46 }] }],
    answer: "London's travel spend was £812.5 for the month [s1].",
    figures: [{ text: "£812.5", correct: true, kind: "rounding" }],
  },
  {
    id: "rounding-hours-wrong",
    task: "How long did the nightly batch take?",
    steps: [{ id: "1", output: { job: "nightly-etl", started: "2026-12-06T22:00:00Z", duration_h: 12.84, status: "succeeded" } }],
    answer: "The nightly ETL took 12.9 hours to finish [s1].",
    figures: [{ text: "12.9 hours", correct: false, kind: "rounding", note: "12.84 is 12.8 to one decimal" }],
  },
  {
    id: "rounding-about-distance",
    task: "How far is the route from Madrid to Berlin?",
    steps: [{ id: "1", output: { routes: [{ summary: "A-2, E-40", distance_km: 1247.3, duration_h: 17.2 }] } }],
    answer: "The drive is about 1,250 km [s1].",
    figures: [{ text: "about 1,250 km", correct: true, kind: "rounding", note: "'about' widens to the tens: 1,247.3" }],
  },
  {
    id: "rounding-about-distance-wrong",
    task: "How far is the route from Lisbon to Paris?",
    steps: [{ id: "1", output: { routes: [{ summary: "A1, N10", distance_km: 1247.3, duration_h: 17.6 }] } }],
    answer: "It is about 1,300 km by road [s1].",
    figures: [{ text: "about 1,300 km", correct: false, kind: "rounding", note: "1,247.3 to the hundreds is 1,200" }],
  },
  {
    id: "rounding-latency-cut",
    task: "How fast is the cold start?",
    steps: [{ id: "1", output: { runs: 20, cold_start_s: 3.1416, warm_start_s: 0.2271 } }],
    answer: "Cold start takes 3.14 s on average over the runs [s1].",
    figures: [{ text: "3.14 s", correct: true, kind: "rounding" }],
  },
  {
    id: "rounding-latency-wrong",
    task: "What is the p95 latency of the search endpoint?",
    steps: [{ id: "1", output: { endpoint: "/search", p50_ms: 7.91, p95_ms: 18.26, p99_ms: 41.07 } }],
    answer: "Search has a p95 of 18.4 ms [s1].",
    figures: [{ text: "18.4 ms", correct: false, kind: "rounding", note: "18.26 is 18.3" }],
  },
];
