import type { HeldoutCase } from "../heldout-case.js";

// Fractions read as percents, pct fields as they stand, percentage points, multiples and scales.
export const unitPercentCases: HeldoutCase[] = [
  {
    id: "percent-conversion-fraction",
    task: "What was the checkout conversion rate last week?",
    steps: [{ id: "1", output: { week: "2026-W48", sessions: 88210, orders: 3017, conversion_rate: 0.0342 } }],
    answer: "Checkout converted at 3.4% last week [s1].",
    figures: [{ text: "3.4%", correct: true, kind: "unit-percent" }],
  },
  {
    id: "percent-conversion-fraction-wrong",
    task: "What was the mobile conversion rate last week?",
    steps: [{ id: "1", output: { week: "2026-W48", platform: "mobile", conversion_rate: 0.0342 } }],
    answer: "Mobile conversion came in at 34% for the week [s1].",
    figures: [{ text: "34%", correct: false, kind: "unit-percent", note: "0.0342 is 3.4%" }],
  },
  {
    id: "percent-churn-pct-field",
    task: "What is monthly churn?",
    steps: [{ id: "1", output: [{ month: "2026-11", churn_pct: 2.1, churned_accounts: 38 }] }],
    answer: "Monthly churn held at 2.1% in November [s1].",
    figures: [{ text: "2.1%", correct: true, kind: "unit-percent" }],
  },
  {
    id: "percent-bounce-fraction-as-percent-wrong",
    task: "What is the landing page's bounce rate?",
    steps: [{ id: "1", output: { page: "/pricing", bounce_rate: 0.47, avg_time_on_page_s: 38 } }],
    answer: "The pricing page's bounce rate is 0.47% [s1].",
    figures: [{ text: "0.47%", correct: false, kind: "unit-percent", note: "0.47 is a fraction: 47%" }],
  },
  {
    id: "scale-arr-millions",
    task: "What was ARR at quarter end?",
    steps: [{ id: "1", output: { quarter: "2026-Q3", arr_usd: 3200000, net_new_arr_usd: 410000 } }],
    answer: "We closed the quarter at $3.2M ARR [s1].",
    figures: [{ text: "$3.2M", correct: true, kind: "unit-percent" }],
  },
  {
    id: "scale-arr-millions-wrong",
    task: "What was ARR at the end of Q2?",
    steps: [{ id: "1", output: { quarter: "2026-Q2", arr_usd: 3200000 } }],
    answer: "Q2 ended with $32M in ARR [s1].",
    figures: [{ text: "$32M", correct: false, kind: "unit-percent", note: "3,200,000 is $3.2M" }],
  },
  {
    id: "pp-margin-change",
    task: "How did gross margin move this quarter?",
    steps: [{ id: "1", output: { gross_margin: { "2026-Q2": 0.397, "2026-Q3": 0.412 } } }],
    answer: "Gross margin widened by 1.5 pp to 41.2% in Q3 [s1].",
    figures: [
      { text: "1.5 pp", correct: true, kind: "unit-percent" },
      { text: "41.2%", correct: true, kind: "unit-percent" },
    ],
  },
  {
    id: "pp-margin-change-wrong",
    task: "How did operating margin move this quarter?",
    steps: [{ id: "1", output: { operating_margin: { "2026-Q2": 0.118, "2026-Q3": 0.133 } } }],
    answer: "Operating margin improved 15 pp quarter on quarter [s1].",
    figures: [{ text: "15 pp", correct: false, kind: "unit-percent", note: "11.8% to 13.3% is 1.5 pp" }],
  },
  {
    id: "multiple-latency-wrong",
    task: "How much slower is p99 since the release?",
    steps: [{ id: "1", output: { before_release: { p99_ms: 205 }, after_release: { p99_ms: 410 } } }],
    answer: "p99 latency is 2.5x what it was before the release [s1].",
    figures: [{ text: "2.5x", correct: false, kind: "unit-percent", note: "410 / 205 is 2x" }],
  },
  {
    id: "percent-disk-fraction",
    task: "How full is the database volume?",
    steps: [{ id: "1", output: { volume: "pg-data-0", size_gib: 500, used_fraction: 0.8694 } }],
    answer: "The Postgres volume is 87% full [s1].",
    figures: [{ text: "87%", correct: true, kind: "unit-percent" }],
  },
  {
    id: "scale-requests-wrong",
    task: "How many API requests did we serve yesterday?",
    steps: [{ id: "1", output: { date: "2026-12-06", requests: 1200000, errors_5xx: 311 } }],
    answer: "The API served 120k requests yesterday [s1].",
    figures: [{ text: "120k", correct: false, kind: "unit-percent", note: "1,200,000 is 1.2M" }],
  },
  {
    id: "scale-requests-millions",
    task: "How many requests did the gateway serve?",
    steps: [{ id: "1", output: { gateway: "edge-eu", requests: 1184220, cache_hit_ratio: 0.63 } }],
    answer: "The EU gateway served 1.2M requests with a 63% cache hit ratio [s1].",
    figures: [
      { text: "1.2M", correct: true, kind: "unit-percent" },
      { text: "63%", correct: true, kind: "unit-percent" },
    ],
  },
];
