import type { HeldoutCase } from "../heldout-case.js";

// Negatives as reports write them (-, −, parentheses, "loss"), and signs dropped or added.
export const signCases: HeldoutCase[] = [
  {
    id: "sign-net-income-negative",
    task: "What was net income in November?",
    steps: [{ id: "1", output: [{ month: "2026-11", net_income_usd: -1200, revenue_usd: 48200 }] }],
    answer: "Net income was -$1,200 on revenue of $48,200 [s1].",
    figures: [
      { text: "-$1,200", correct: true, kind: "sign" },
      { text: "$48,200", correct: true, kind: "direct-value" },
    ],
  },
  {
    id: "sign-net-income-dropped",
    task: "What was net income in October?",
    steps: [{ id: "1", output: [{ month: "2026-10", net_income_usd: -1200 }] }],
    answer: "Net income was 1,200 for October [s1].",
    figures: [{ text: "1,200", correct: false, kind: "sign", note: "net_income_usd is -1200" }],
  },
  {
    id: "sign-loss-in-words",
    task: "Did the Berlin store make money in November?",
    steps: [{ id: "1", output: { store: "Berlin", month: "2026-11", operating_profit_eur: -18450 } }],
    answer: "No — Berlin posted an operating loss of €18,450 in November [s1].",
    figures: [{ text: "€18,450", correct: true, kind: "sign", note: "'a loss of' carries the sign" }],
  },
  {
    id: "sign-margin-dropped",
    task: "What is the operating margin?",
    steps: [{ id: "1", output: { fiscal_year: 2026, operating_margin: -0.042, revenue_usd: 8120000 } }],
    answer: "Operating margin came in at 4.2% for the year [s1].",
    figures: [{ text: "4.2%", correct: false, kind: "sign", note: "operating_margin is -4.2%" }],
  },
  {
    id: "sign-parentheses",
    task: "What was operating cash flow in Q3?",
    steps: [{ id: "1", output: { statement: "cash_flow", quarter: "Q3", cash_flow_ops: -48300, capex: -12100 } }],
    answer: "| Line | Q3 |\n| --- | --- |\n| Operating cash flow | (48,300) [s1] |",
    figures: [{ text: "(48,300)", correct: true, kind: "sign" }],
  },
  {
    id: "sign-parentheses-wrong",
    task: "What was investing cash flow in Q3?",
    steps: [{ id: "1", output: { statement: "cash_flow", quarter: "Q3", cash_flow_investing: 48300 } }],
    answer: "| Line | Q3 |\n| --- | --- |\n| Investing cash flow | (48,300) [s1] |",
    figures: [{ text: "(48,300)", correct: false, kind: "sign", note: "it was an inflow of 48,300" }],
  },
  {
    id: "sign-unicode-minus",
    task: "How cold is it at the Tromsø site?",
    steps: [{ id: "1", output: { site: "Tromsø", temperature_c: -7.5, wind_ms: 9.1 } }],
    answer: "It is −7.5 °C at the Tromsø site, with wind at 9.1 m/s [s1].",
    figures: [
      { text: "−7.5", correct: true, kind: "sign" },
      { text: "9.1", correct: true, kind: "direct-value" },
    ],
  },
  {
    id: "sign-unicode-minus-wrong",
    task: "How cold is it at the Bergen site?",
    steps: [{ id: "1", output: { site: "Bergen", temperature_c: 7.5 } }],
    answer: "Bergen is at −7.5 °C this morning [s1].",
    figures: [{ text: "−7.5", correct: false, kind: "sign", note: "it is +7.5" }],
  },
  {
    id: "sign-balance-positive",
    task: "What is the operating account's balance?",
    steps: [{ id: "1", output: { account: { id: "acct_1Q9", name: "Operating", balance: { amount: 2350.75, currency: "USD" } } } }],
    answer: "The operating account holds $2,350.75 [s1].",
    figures: [{ text: "$2,350.75", correct: true, kind: "sign" }],
  },
  {
    id: "sign-balance-overdrawn",
    task: "What is the payroll account's balance?",
    steps: [{ id: "1", output: { account: { id: "acct_7Z2", name: "Payroll", balance: { amount: -2350.75, currency: "USD" } } } }],
    answer: "The payroll account has a balance of $2,350.75 [s1].",
    figures: [{ text: "$2,350.75", correct: false, kind: "sign", note: "the account is overdrawn: -2350.75" }],
  },
  {
    id: "sign-variance-negative",
    task: "How did marketing spend compare with budget?",
    steps: [{ id: "1", output: { department: "Marketing", variance_to_budget_pct: -3.2 } }],
    answer: "Marketing came in at -3.2% against budget [s1].",
    figures: [{ text: "-3.2%", correct: true, kind: "sign" }],
  },
  {
    id: "sign-eps-dropped",
    task: "What was diluted EPS?",
    steps: [{ id: "1", output: { quarter: "Q3 FY26", eps_diluted: -0.18, shares_diluted_m: 212.4 } }],
    answer: "Diluted EPS was $0.18 for the quarter [s1].",
    figures: [{ text: "$0.18", correct: false, kind: "sign", note: "eps_diluted is -0.18" }],
  },
  {
    id: "sign-growth-fraction-negative",
    task: "How did unit sales do year on year?",
    steps: [{ id: "1", output: { metric: "units_sold", yoy_growth: -0.124 } }],
    answer: "Unit sales show growth of −12.4% year on year [s1].",
    figures: [{ text: "−12.4%", correct: true, kind: "sign" }],
  },
  {
    id: "sign-growth-fraction-added-wrong",
    task: "How did subscriptions do year on year?",
    steps: [{ id: "1", output: { metric: "subscriptions", yoy_growth: 0.124 } }],
    answer: "Year-on-year subscription growth was -12.4% [s1].",
    figures: [{ text: "-12.4%", correct: false, kind: "sign", note: "growth is +12.4%" }],
  },
  {
    id: "sign-desk-lost",
    task: "How did the Rates desk do today?",
    steps: [
      {
        id: "risk",
        output: {
          date: "2026-12-07",
          pnl: [
            { desk: "Rates", pnl_usd: -240000 },
            { desk: "FX", pnl_usd: 310000 },
          ],
        },
      },
    ],
    answer: "The Rates desk lost $240k today [s:risk].",
    figures: [{ text: "$240k", correct: true, kind: "sign", note: "'lost' carries the sign" }],
  },
  {
    id: "sign-desk-lost-wrong",
    task: "How did the FX desk do today?",
    steps: [
      {
        id: "risk",
        output: {
          date: "2026-12-07",
          pnl: [
            { desk: "Rates", pnl_usd: -240000 },
            { desk: "FX", pnl_usd: 310000 },
          ],
        },
      },
    ],
    answer: "The FX desk lost $310k on the day [s:risk].",
    figures: [{ text: "$310k", correct: false, kind: "sign", note: "FX made 310k" }],
  },
  {
    id: "sign-cash-parentheses",
    task: "What was the net change in cash?",
    steps: [{ id: "1", output: { statement: "cash_flow", period: "2026-11", net_change_in_cash: -15230 } }],
    answer: "Net change in cash for November: $(15,230) [s1].",
    figures: [{ text: "$(15,230)", correct: true, kind: "sign" }],
  },
  {
    id: "sign-deferred-parentheses-wrong",
    task: "How did deferred revenue change?",
    steps: [{ id: "1", output: { statement: "balance_sheet", period: "2026-11", deferred_revenue_change: 15230 } }],
    answer: "Deferred revenue changed by $(15,230) in November [s1].",
    figures: [{ text: "$(15,230)", correct: false, kind: "sign", note: "it grew by 15,230" }],
  },
];
