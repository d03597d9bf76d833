import type { HeldoutCase } from "../heldout-case.js";

// Changes between two labelled values, whose direction words must agree with the sign.
export const changeCases: HeldoutCase[] = [
  {
    id: "change-revenue-fell",
    task: "How did revenue do this week?",
    steps: [{ id: "1", output: { revenue_this_week: 900, revenue_last_week: 1000, currency: "USD" } }],
    answer: "Revenue fell 10% on last week [s1].",
    figures: [{ text: "10%", correct: true, kind: "change-with-direction" }],
  },
  {
    id: "change-revenue-fell-wrong-direction",
    task: "How did revenue do this week in Canada?",
    steps: [{ id: "1", output: { revenue_this_week: 1100, revenue_last_week: 1000, currency: "CAD" } }],
    answer: "Canadian revenue fell 10% versus last week [s1].",
    figures: [{ text: "10%", correct: false, kind: "change-with-direction", note: "it rose 10%" }],
  },
  {
    id: "change-active-users-rose",
    task: "How did weekly active users move?",
    steps: [
      {
        id: "1",
        output: [
          { week: "2026-W46", active_users: 8200 },
          { week: "2026-W47", active_users: 8610 },
        ],
      },
    ],
    answer: "Weekly actives rose 5% from W46 to W47 [s1].",
    figures: [{ text: "5%", correct: true, kind: "change-with-direction", note: "8610 / 8200 = 1.05" }],
  },
  {
    id: "change-active-users-rose-wrong-direction",
    task: "How did weekly active users move on Android?",
    steps: [
      {
        id: "1",
        output: [
          { week: "2026-W46", platform: "android", active_users: 8610 },
          { week: "2026-W47", platform: "android", active_users: 8200 },
        ],
      },
    ],
    answer: "Android weekly actives were up 4.8% in W47 compared with W46 [s1].",
    figures: [{ text: "4.8%", correct: false, kind: "change-with-direction", note: "8610 to 8200 is down 4.8%" }],
  },
  {
    id: "change-net-revenue-grew",
    task: "How did net revenue change quarter over quarter?",
    steps: [
      {
        id: "1",
        output: {
          periods: [
            { period: "Q3 2026", net_revenue_usd: 2410000 },
            { period: "Q4 2026", net_revenue_usd: 2650000 },
          ],
        },
      },
    ],
    answer: "Net revenue grew by $240k from Q3 to Q4 [s1].",
    figures: [{ text: "$240k", correct: true, kind: "change-with-direction" }],
  },
  {
    id: "change-net-revenue-grew-wrong-direction",
    task: "How did EMEA net revenue change quarter over quarter?",
    steps: [
      {
        id: "1",
        output: {
          region: "EMEA",
          periods: [
            { period: "Q3 2026", net_revenue_usd: 2650000 },
            { period: "Q4 2026", net_revenue_usd: 2410000 },
          ],
        },
      },
    ],
    answer: "EMEA net revenue grew by $240k quarter over quarter, Q3 to Q4 [s1].",
    figures: [{ text: "$240k", correct: false, kind: "change-with-direction", note: "it shrank by 240k" }],
  },
  {
    id: "change-latency-dropped",
    task: "Did the deploy help latency?",
    steps: [{ id: "deploy", output: { service: "checkout", p95_ms_before: 420, p95_ms_after: 315 } }],
    answer: "Yes — checkout p95 latency dropped 25% after the deploy [s:deploy].",
    figures: [{ text: "25%", correct: true, kind: "change-with-direction", note: "420 to 315" }],
  },
  {
    id: "change-latency-dropped-wrong",
    task: "Did the deploy help the search service's latency?",
    steps: [{ id: "deploy", output: { service: "search", p95_ms_before: 315, p95_ms_after: 420 } }],
    answer: "Search p95 dropped 25% after the deploy [s:deploy].",
    figures: [{ text: "25%", correct: false, kind: "change-with-direction", note: "315 to 420 is up 33%" }],
  },
  {
    id: "change-stock-down",
    task: "How has SKU 6042271's stock moved since Monday?",
    steps: [{ id: "1", output: { item_id: "6042271", stock_start_of_week: 500, stock_now: 430 } }],
    answer: "Stock is down 70 units since Monday [s1].",
    figures: [{ text: "70 units", correct: true, kind: "change-with-direction" }],
  },
  {
    id: "change-stock-down-wrong",
    task: "How has SKU 1177803's stock moved since Monday?",
    steps: [{ id: "1", output: { item_id: "1177803", stock_start_of_week: 430, stock_now: 500 } }],
    answer: "Item 1177803 is down 70 units on the week after Monday's count [s1].",
    figures: [{ text: "70 units", correct: false, kind: "change-with-direction", note: "stock went up 70" }],
  },
  {
    id: "change-churn-fewer",
    task: "Did churn improve in November?",
    steps: [{ id: "1", output: { churned_customers_oct: 41, churned_customers_nov: 33 } }],
    answer: "It did: 8 fewer customers churned in November than in October [s1].",
    figures: [{ text: "8", correct: true, kind: "change-with-direction" }],
  },
  {
    id: "change-churn-fewer-wrong",
    task: "Did churn improve in November for the SMB plan?",
    steps: [{ id: "1", output: { plan: "smb", churned_customers_oct: 41, churned_customers_nov: 33 } }],
    answer: "SMB churn improved, with 11 fewer customers lost in November than in October [s1].",
    figures: [{ text: "11", correct: false, kind: "change-with-direction", note: "41 - 33 is 8" }],
  },
  {
    id: "change-tickets-more",
    task: "How busy was support this week?",
    steps: [{ id: "1", output: { tickets_this_week: 30, tickets_last_week: 27 } }],
    answer: "Support got 30 tickets, 3 more than last week [s1].",
    figures: [
      { text: "30", correct: true, kind: "direct-value" },
      { text: "3", correct: true, kind: "change-with-direction" },
    ],
  },
  {
    id: "change-tickets-fewer-wrong",
    task: "How busy was the billing queue this week?",
    steps: [{ id: "1", output: { queue: "billing", tickets_this_week: 30, tickets_last_week: 27 } }],
    answer: "Billing saw 3 fewer tickets than last week [s1].",
    figures: [{ text: "3", correct: false, kind: "change-with-direction", note: "30 against 27 is 3 more" }],
  },
  {
    id: "change-revenue-by-period-key",
    task: "How did revenue move in November?",
    steps: [{ id: "1", output: { revenue: { "2026-10": 41200, "2026-11": 38110 } } }],
    answer: "Revenue slipped 7.5% in November from October [s1].",
    figures: [{ text: "7.5%", correct: true, kind: "change-with-direction", note: "38110 / 41200 is down 7.5%" }],
  },
  {
    id: "change-revenue-by-period-key-wrong",
    task: "How did marketplace revenue move in November?",
    steps: [{ id: "1", output: { channel: "marketplace", revenue: { "2026-10": 41200, "2026-11": 38110 } } }],
    answer: "Marketplace revenue grew 7.5% month over month, October to November [s1].",
    figures: [{ text: "7.5%", correct: false, kind: "change-with-direction", note: "it fell 7.5%" }],
  },
  {
    id: "change-nps-points",
    task: "How did product NPS move this quarter?",
    steps: [{ id: "1", output: { survey: "product", nps_previous: 41, nps_current: 47 } }],
    answer: "Product NPS climbed 6 points this quarter [s1].",
    figures: [{ text: "6 points", correct: true, kind: "change-with-direction" }],
  },
  {
    id: "change-nps-points-wrong",
    task: "How did support NPS move this quarter?",
    steps: [{ id: "1", output: { survey: "support", nps_previous: 47, nps_current: 41 } }],
    answer: "Support NPS climbed 6 points this quarter [s1].",
    figures: [{ text: "6 points", correct: false, kind: "change-with-direction", note: "it fell 6 points" }],
  },
];
