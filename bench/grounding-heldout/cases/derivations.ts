import type { HeldoutCase } from "../heldout-case.js";

// The docs' derivations (sum, difference, ratio, share, % change, pp) between two fields whose keys differ.
export const derivationCases: HeldoutCase[] = [
  {
    id: "derive-sum-two-steps",
    task: "How many orders and returns did we process this week?",
    steps: [
      { id: "1", output: [{ orders: 1287 }] },
      { id: "2", output: [{ returns: 125 }] },
    ],
    answer: "Orders and returns together came to 1,412 this week [s1, s2].",
    figures: [{ text: "1,412", correct: true, kind: "derivation-across-keys", note: "1287 + 125" }],
  },
  {
    id: "derive-sum-two-steps-wrong",
    task: "How many parcels went out and came back this week?",
    steps: [
      { id: "1", output: { shipped_parcels: 1287, carrier: "DPD" } },
      { id: "2", output: { returned_parcels: 125, carrier: "DPD" } },
    ],
    answer: "In all, 1,421 parcels moved through the depot [s1, s2].",
    figures: [{ text: "1,421", correct: false, kind: "derivation-across-keys", note: "1287 + 125 is 1412" }],
  },
  {
    id: "derive-difference-tickets",
    task: "Did support keep up with incoming tickets this week?",
    steps: [{ id: "1", output: { week: "2026-W49", tickets_opened: 214, tickets_resolved: 252, backlog: 96 } }],
    answer: "Yes: the team resolved 38 more tickets than were opened, bringing the backlog to 96 [s1].",
    figures: [
      { text: "38", correct: true, kind: "derivation-across-keys", note: "252 - 214" },
      { text: "96", correct: true, kind: "direct-value" },
    ],
  },
  {
    id: "derive-difference-tickets-wrong",
    task: "Did support keep up with incoming tickets last week?",
    steps: [{ id: "1", output: { week: "2026-W48", tickets_opened: 198, tickets_resolved: 231 } }],
    answer: "The team closed 43 more tickets than came in last week [s1].",
    figures: [{ text: "43", correct: false, kind: "derivation-across-keys", note: "231 - 198 is 33" }],
  },
  {
    id: "derive-ratio-aov",
    task: "What was the average order value in November?",
    steps: [{ id: "1", output: [{ month: "2026-11", gross_revenue_usd: 78592.0, order_count: 1280 }] }],
    answer: "Average order value was $61.40 in November [s1].",
    figures: [{ text: "$61.40", correct: true, kind: "derivation-across-keys", note: "78592 / 1280" }],
  },
  {
    id: "derive-ratio-aov-wrong",
    task: "What was the UK store's average order value?",
    steps: [{ id: "1", output: [{ store: "UK", net_sales_gbp: 51840, orders_placed: 960 }] }],
    answer: "The UK store's average order came to £45.00 [s1].",
    figures: [{ text: "£45.00", correct: false, kind: "derivation-across-keys", note: "51840 / 960 is 54.00" }],
  },
  {
    id: "derive-share-refunds",
    task: "How big were refunds relative to revenue?",
    steps: [{ id: "1", output: { period: "2026-11", revenue_eur: 412300, refunds_eur: 9483 } }],
    answer: "Refunds were 2.3% of revenue in November [s1].",
    figures: [{ text: "2.3%", correct: true, kind: "derivation-across-keys", note: "9483 / 412300" }],
  },
  {
    id: "derive-share-chargebacks-wrong",
    task: "How big were chargebacks relative to sales?",
    steps: [{ id: "1", output: { period: "2026-11", sales_total: 88000, chargebacks_total: 1232 } }],
    answer: "Chargebacks amounted to 1.6% of sales [s1].",
    figures: [{ text: "1.6%", correct: false, kind: "derivation-across-keys", note: "1232 / 88000 is 1.4%" }],
  },
  {
    id: "derive-pct-change-signups",
    task: "How did signups do week on week?",
    steps: [{ id: "1", output: { signups_this_week: 1350, signups_last_week: 1200 } }],
    answer: "Signups grew 12.5% week on week [s1].",
    figures: [{ text: "12.5%", correct: true, kind: "derivation-across-keys", note: "1350 / 1200 - 1" }],
  },
  {
    id: "derive-pct-change-trials-wrong",
    task: "How did trial starts do week on week?",
    steps: [{ id: "1", output: { trials_this_week: 1380, trials_prior_week: 1200 } }],
    answer: "Trial starts were up 18% on the prior week [s1].",
    figures: [{ text: "18%", correct: false, kind: "derivation-across-keys", note: "1380 / 1200 is up 15%" }],
  },
  {
    id: "derive-ratio-cpl-two-steps",
    task: "What did a lead cost us in the November campaign?",
    steps: [
      { id: "ads", output: { campaign: "nov-push", spend_usd: 15000, impressions: 1840000 } },
      { id: "crm", output: { campaign: "nov-push", leads: 800 } },
    ],
    answer: "The November push cost $18.75 per lead [s:ads, s:crm].",
    figures: [{ text: "$18.75", correct: true, kind: "derivation-across-keys", note: "15000 / 800" }],
  },
  {
    id: "derive-ratio-cpl-two-steps-wrong",
    task: "What did a qualified lead cost in the webinar campaign?",
    steps: [
      { id: "ads", output: { campaign: "webinar", ad_spend: 9200 } },
      { id: "crm", output: { campaign: "webinar", qualified_leads: 400 } },
    ],
    answer: "Each qualified lead from the webinar cost $32.00 [s:ads, s:crm].",
    figures: [{ text: "$32.00", correct: false, kind: "derivation-across-keys", note: "9200 / 400 is 23.00" }],
  },
  {
    id: "derive-ratio-days-cover",
    task: "How many days of stock do we have for SKU A-100?",
    steps: [{ id: "1", output: [{ sku: "A-100", units_on_hand: 8400, avg_daily_units_sold: 700 }] }],
    answer: "At the current sales pace, A-100's stock covers 12 days [s1].",
    figures: [{ text: "12 days", correct: true, kind: "derivation-across-keys", note: "8400 / 700" }],
  },
  {
    id: "derive-ratio-days-cover-wrong",
    task: "How many days of stock do we have for SKU B-220?",
    steps: [{ id: "1", output: [{ sku: "B-220", stock_units: 5400, daily_demand: 450 }] }],
    answer: "B-220 has about 15 days of cover left [s1].",
    figures: [{ text: "about 15 days", correct: false, kind: "derivation-across-keys", note: "5400 / 450 is 12" }],
  },
  {
    id: "derive-share-trial-conversion",
    task: "How many trials converted to paid in November?",
    steps: [{ id: "1", output: { month: "2026-11", trials_started: 400, paid_conversions: 94 } }],
    answer: "Trial-to-paid conversion was 23.5% in November [s1].",
    figures: [{ text: "23.5%", correct: true, kind: "derivation-across-keys", note: "94 / 400" }],
  },
  {
    id: "derive-share-trial-conversion-wrong",
    task: "How many trials converted to paid in October?",
    steps: [{ id: "1", output: { month: "2026-10", trials_started: 520, paid_conversions: 117 } }],
    answer: "In October, 25.2% of trials converted to paid [s1].",
    figures: [{ text: "25.2%", correct: false, kind: "derivation-across-keys", note: "117 / 520 is 22.5%" }],
  },
  {
    id: "derive-difference-budget-two-steps",
    task: "How much of the platform budget is left?",
    steps: [
      { id: "1", output: { cost_center: "platform", budget_usd: 250000 } },
      { id: "2", output: [{ cost_center: "platform", spent_to_date_usd: 187400 }] },
    ],
    answer: "$62,600 of the platform budget remains [s1, s2].",
    figures: [{ text: "$62,600", correct: true, kind: "derivation-across-keys", note: "250000 - 187400" }],
  },
  {
    id: "derive-difference-hiring-two-steps-wrong",
    task: "How far behind the hiring plan are we?",
    steps: [
      { id: "1", output: { year: 2026, headcount_plan: 140 } },
      { id: "2", output: { as_of: "2026-12-01", headcount_actual: 128 } },
    ],
    answer: "We are 14 hires short of plan [s1, s2].",
    figures: [{ text: "14 hires", correct: false, kind: "derivation-across-keys", note: "140 - 128 is 12" }],
  },
];
