import type { HeldoutCase } from "../heldout-case.js";

// Whole reports as pipelines write them (headings, bold labels, lists, tables, several steps), and
// single lookups from common API shapes; each figure labelled with the kind it tests.
export const reportCases: HeldoutCase[] = [
  {
    id: "report-weekly-ops",
    task: "Write the weekly operations report for week 49.",
    steps: [
      { id: "1", output: [{ week: "2026-W49", orders: 1287, revenue_cny: 64577.01, avg_basket_cny: 50.18 }] },
      { id: "2", output: { opened: 214, solved: 198, first_response_minutes_median: 37 } },
      { id: "3", output: { attempts: 1290, failed: 23, failure_rate: 0.0178 } },
    ],
    answer:
      "## Week 49\n\n**Sales.** 1,287 orders brought in ¥64,577.01 [s1], an average basket of ¥51.08 [s1].\n\n" +
      "**Support.** Median first response was 37 minutes [s2].\n\n**Payments.** 32 payments failed, a failure rate of 18% [s3].",
    figures: [
      { text: "1,287", correct: true, kind: "direct-value" },
      { text: "¥64,577.01", correct: true, kind: "direct-value" },
      { text: "¥51.08", correct: false, kind: "direct-value", note: "avg_basket_cny is 50.18" },
      { text: "37 minutes", correct: true, kind: "direct-value" },
      { text: "32", correct: false, kind: "direct-value", note: "failed is 23" },
      { text: "18%", correct: false, kind: "unit-percent", note: "0.0178 is 1.8%" },
    ],
  },
  {
    id: "report-stripe-charge",
    task: "What happened with the customer's last charge?",
    steps: [
      {
        id: "1",
        output: {
          id: "ch_3PqL2x",
          object: "charge",
          amount: 4999,
          amount_captured: 4999,
          amount_refunded: 1500,
          currency: "usd",
          refunded: false,
          status: "succeeded",
          outcome: { network_status: "approved_by_network", risk_level: "normal", risk_score: 23 },
        },
      },
    ],
    answer: "The charge succeeded; 2,500 cents of it have since been refunded [s1].",
    figures: [{ text: "2,500", correct: false, kind: "direct-value", note: "amount_refunded is 1500" }],
  },
  {
    id: "report-csv-export",
    task: "How many seats does the Tokyo office use?",
    steps: [{ id: "export", output: "office,seats_total,seats_used\nTokyo,120,96\nOsaka,60,41\n" }],
    answer: "Tokyo uses 69 of its 120 seats [s:export].",
    figures: [
      { text: "69", correct: false, kind: "direct-value", note: "seats_used is 96" },
      { text: "120", correct: true, kind: "direct-value" },
    ],
  },
  {
    id: "report-retail-user",
    task: "What is the gift card balance of user mei_kovacs_8020?",
    steps: [
      {
        id: "1",
        output: {
          user_id: "mei_kovacs_8020",
          name: { first_name: "Mei", last_name: "Kovacs" },
          payment_methods: {
            gift_card_1776915: { source: "gift_card", balance: 72, id: "gift_card_1776915" },
            paypal_7644869: { source: "paypal", id: "paypal_7644869" },
          },
          orders: ["#W6390527", "#W7800651"],
        },
      },
    ],
    answer: "Mei Kovacs has $27 left on her gift card [s1].",
    figures: [{ text: "$27", correct: false, kind: "direct-value", note: "balance is 72" }],
  },
  {
    id: "report-sql-top-accounts",
    task: "List the three largest accounts by contract value.",
    steps: [
      {
        id: "sql",
        output: {
          columns: ["account", "contract_value_usd", "renewal"],
          rows: [
            ["Globex", 482000, "2027-03-31"],
            ["Initech", 315500, "2027-01-15"],
            ["Umbrella", 298750, "2026-12-31"],
          ],
        },
      },
    ],
    answer: "1. **Globex** — $482,000 [s:sql]\n2. **Initech** — $351,500 [s:sql]\n3. **Umbrella** — $298,750 [s:sql]",
    figures: [
      { text: "$482,000", correct: true, kind: "direct-value" },
      { text: "$351,500", correct: false, kind: "direct-value", note: "Initech's value is 315,500" },
      { text: "$298,750", correct: true, kind: "direct-value" },
    ],
  },
  {
    id: "report-shopify-order",
    task: "What was the shipping cost on order 1043?",
    steps: [
      {
        id: "1",
        output: {
          order: {
            id: 450789469,
            name: "#1043",
            currency: "CAD",
            total_price: "212.40",
            subtotal_price: "189.00",
            total_tax: "9.45",
            shipping_lines: [{ title: "Standard", price: "13.95" }],
          },
        },
      },
    ],
    answer: "Order #1043 shipped Standard for CA$19.35 [s1].",
    figures: [{ text: "CA$19.35", correct: false, kind: "direct-value", note: "shipping is 13.95" }],
  },
  {
    id: "report-pipeline-runtime-rounded",
    task: "How long does the CI pipeline take?",
    steps: [{ id: "1", output: { workflow: "ci", runs: 50, median_duration_s: 748.6, p90_duration_s: 1012.2 } }],
    answer: "Median CI time is 12.6 minutes [s1]; at p90 a run takes over 1,012 s [s1].",
    figures: [
      { text: "12.6 minutes", correct: false, kind: "rounding", note: "748.6 s is 12.5 minutes; the report converts units itself" },
      { text: "1,012 s", correct: true, kind: "rounding" },
    ],
  },
  {
    id: "report-bps-wrong",
    task: "How did the spread change?",
    steps: [{ id: "1", output: { spread_pct: { previous: 1.25, current: 1.4 } } }],
    answer: "The spread widened by 1.5 pp to 1.4% [s1].",
    figures: [
      { text: "1.5 pp", correct: false, kind: "unit-percent", note: "1.25% to 1.4% is 0.15 pp" },
      { text: "1.4%", correct: true, kind: "unit-percent" },
    ],
  },
  {
    id: "report-github-pull",
    task: "How big is PR 1842?",
    steps: [
      {
        id: "1",
        output: {
          number: 1842,
          title: "Split the scheduler loop",
          state: "open",
          additions: 312,
          deletions: 87,
          changed_files: 14,
          comments: 9,
        },
      },
    ],
    answer: "PR #1842 adds 321 lines across the scheduler [s1].",
    figures: [{ text: "321 lines", correct: false, kind: "direct-value", note: "additions is 312" }],
  },
  {
    id: "report-monitor-disk",
    task: "Why did the disk monitor fire?",
    steps: [{ id: "1", output: { monitor: "disk usage /var", host: "db-2", value: 91.2, threshold: 90, unit: "percent" } }],
    answer: "Disk usage on db-2 hit 92.1% [s1].",
    figures: [{ text: "92.1%", correct: false, kind: "direct-value", note: "value is 91.2" }],
  },
  {
    id: "report-crm-deal",
    task: "How much is the Globex renewal worth?",
    steps: [
      {
        id: "crm",
        output: { results: [{ id: "9912", properties: { dealname: "Globex renewal", amount: "48000", dealstage: "contractsent" } }] },
      },
    ],
    answer: "The Globex renewal is worth $84,000 and the contract has been sent [s:crm].",
    figures: [{ text: "$84,000", correct: false, kind: "direct-value", note: "amount is 48000" }],
  },
  {
    id: "report-row-count",
    task: "How many rows does the users table have?",
    steps: [{ id: "1", output: [{ count: 15873 }] }],
    answer: "The users table has 15,378 rows [s1].",
    figures: [{ text: "15,378", correct: false, kind: "direct-value", note: "count is 15873" }],
  },
  {
    id: "report-forecast-high",
    task: "What's the weather tomorrow at the Zagreb depot?",
    steps: [{ id: "1", output: { city: "Zagreb", daily: [{ date: "2026-12-08", temp: { min: 3.2, max: 8.9 }, summary: "showers" }] } }],
    answer: "Showers tomorrow in Zagreb, with a high of 9.8 °C [s1].",
    figures: [{ text: "9.8 °C", correct: false, kind: "direct-value", note: "the max is 8.9" }],
  },
  {
    id: "report-revenue-rounded-wrong",
    task: "What was revenue last year?",
    steps: [{ id: "1", output: { fiscal_year: "FY2026", revenue_usd: 1234567.89 } }],
    answer: "FY2026 revenue came to $1.24M [s1].",
    figures: [{ text: "$1.24M", correct: false, kind: "rounding", note: "1,234,567.89 is 1.23M" }],
  },
  {
    id: "report-error-rate-wrong",
    task: "What is the API error rate today?",
    steps: [{ id: "1", output: { date: "2026-12-07", requests: 1532000, errors: 4749, error_rate: 0.0031 } }],
    answer: "The API's error rate is 3.1% today [s1].",
    figures: [{ text: "3.1%", correct: false, kind: "unit-percent", note: "0.0031 is 0.31%" }],
  },
];
