import type { LabelledCase } from "./labelled-cases.js";

/**
 * The report-shapes suite's later batches (fourth to seventh), each written after the one
 * before it was fixed: SaaS metrics, results in millions, accounts, weeks, operations,
 * depots, Swiss and Indian money, year-on-year changes, segments, German reports, and
 * probes of the docs' pairings. See report-shapes-cases.ts.
 */
const saas = {
  mrr_usd: 84200,
  mrr_last_month_usd: 79800,
  new_mrr_usd: 6900,
  churned_mrr_usd: 2500,
  customers: 412,
  customers_last_month: 398,
};
const pnl = { revenue_2025: 12.4, revenue_2024: 13.1, ebitda_2025: -0.8, ebitda_2024: 0.6, net_debt_2025: 3.2 };
const accounts = {
  accounts: {
    northwind: { arr_usd: 120000, seats: 340, tickets: 18 },
    contoso: { arr_usd: 98000, seats: 410, tickets: 31 },
  },
};
const weekly = [
  { week: "2026-W44", signups: 310, activations: 124 },
  { week: "2026-W45", signups: 355, activations: 149 },
  { week: "2026-W46", signups: 298, activations: 131 },
];
const ops = {
  tickets_resolved: 540,
  tickets_escalated: 60,
  avg_handle_time_min: 7.5,
  avg_handle_time_min_prev: 8.25,
  sla_breaches: 12,
  sla_breaches_prev: 20,
};
const fleet = {
  depots: {
    leeds: { vans: 24, deliveries: 3120, late: 94 },
    bristol: { vans: 18, deliveries: 2490, late: 137 },
    glasgow: { vans: 15, deliveries: 1880, late: 41 },
  },
};
const fx = { revenue_chf: 1234567.8, costs_chf: -987654.3, revenue_inr: 8450000, margin: 0.2 };
const yoy = {
  bookings_2025: 48100,
  bookings_2024: 52300,
  churn_rate_2025: 0.061,
  churn_rate_2024: 0.048,
  headcount_2025: 212,
  headcount_2024: 188,
};
const company = {
  company: {
    segments: {
      cloud: { revenue_eur_m: 412.5, operating_margin_pct: 18.2 },
      licences: { revenue_eur_m: 288.1, operating_margin_pct: 31.4 },
      services: { revenue_eur_m: 97.4, operating_margin_pct: -4.6 },
    },
  },
};
const de = { umsatz_eur: 1234567.89, gewinn_eur: -45210.5, mitarbeiter: 21 };

export const laterReportShapes: LabelledCase[] = [
  // A fourth batch, written after the third was fixed.
  { id: "saas-1", steps: [{ id: 1, output: saas }], answer: "MRR grew {+5.5%} month on month to {+$84.2k} [s1]." },
  { id: "saas-2", steps: [{ id: 1, output: saas }], answer: "MRR shrank {-5.5%} month on month [s1]." },
  { id: "saas-3", steps: [{ id: 1, output: saas }], answer: "Net new MRR was {+$4,400} ({+$6,900} new less {+$2,500} churned) [s1]." },
  { id: "saas-4", steps: [{ id: 1, output: saas }], answer: "Net new MRR was {-$9,400} [s1]." },
  { id: "saas-5", steps: [{ id: 1, output: saas }], answer: "We added {+14} customers, ending at {+412} [s1]." },
  { id: "saas-6", steps: [{ id: 1, output: saas }], answer: "We lost {-14} customers, ending at 412 [s1]." },
  { id: "saas-7", steps: [{ id: 1, output: saas }], answer: "Average revenue per customer was {+$204} [s1]." },
  { id: "pnl-1", steps: [{ id: 1, output: pnl }], answer: "Revenue declined {+5.3%} to {+$12.4m} in 2025 [s1]." },
  { id: "pnl-2", steps: [{ id: 1, output: pnl }], answer: "Revenue grew {-5.3%} in 2025 [s1]." },
  { id: "pnl-3", steps: [{ id: 1, output: pnl }], answer: "EBITDA swung to a loss of {+$0.8m} from a profit of {+$0.6m} [s1]." },
  { id: "pnl-4", steps: [{ id: 1, output: pnl }], answer: "EBITDA was a profit of {-$0.8m} in 2025 [s1]." },
  { id: "pnl-5", steps: [{ id: 1, output: pnl }], answer: "EBITDA was {+-$0.8m} in 2025, against {+$0.6m} in 2024 [s1]." },
  { id: "pnl-6", steps: [{ id: 1, output: pnl }], answer: "Net debt stood at {+$3.2m} [s1]." },
  { id: "acct-1", steps: [{ id: 1, output: accounts }], answer: "Northwind pays {+$120k} a year for {+340} seats [s1]." },
  { id: "acct-2", steps: [{ id: 1, output: accounts }], answer: "Northwind pays {-$98k} a year [s1]." },
  { id: "acct-3", steps: [{ id: 1, output: accounts }], answer: "Contoso opened {+31} tickets, {+13} more than Northwind [s1]." },
  { id: "acct-4", steps: [{ id: 1, output: accounts }], answer: "Contoso opened {-18} tickets [s1]." },
  { id: "acct-5", steps: [{ id: 1, output: accounts }], answer: "Together the two accounts are worth {+$218k} in ARR [s1]." },
  { id: "week-1", steps: [{ id: 1, output: weekly }], answer: "Signups peaked at {+355} in week 45, then fell {+16%} [s1]." },
  { id: "week-2", steps: [{ id: 1, output: weekly }], answer: "Signups peaked at {-310} in week 44 [s1]." },
  { id: "week-3", steps: [{ id: 1, output: weekly }], answer: "Activation was {+42%} of signups in week 45 [s1]." },
  { id: "week-4", steps: [{ id: 1, output: weekly }], answer: "Over the three weeks, {+963} people signed up and {+404} activated [s1]." },
  { id: "week-5", steps: [{ id: 1, output: weekly }], answer: "Over the three weeks, {-936} people signed up [s1]." },
  { id: "week-6", steps: [{ id: 1, output: weekly }], answer: "{+Three hundred and ten} people signed up in the first week [s1]." },
  // A fifth batch, written after the fourth was fixed.
  { id: "ops-1", steps: [{ id: 1, output: ops }], answer: "We resolved {+540} tickets and escalated {+60}, {+600} in all [s1]." },
  { id: "ops-2", steps: [{ id: 1, output: ops }], answer: "Escalations were {+10%} of all tickets handled [s1]." },
  { id: "ops-3", steps: [{ id: 1, output: ops }], answer: "Escalations were {-12%} of all tickets handled [s1]." },
  { id: "ops-4", steps: [{ id: 1, output: ops }], answer: "Average handle time improved by {+45 seconds} to {+7.5 minutes} [s1]." },
  { id: "ops-5", steps: [{ id: 1, output: ops }], answer: "SLA breaches fell from {+20} to {+12}, a {+40%} drop [s1]." },
  { id: "ops-6", steps: [{ id: 1, output: ops }], answer: "SLA breaches rose {-40%} [s1]." },
  { id: "ops-7", steps: [{ id: 1, output: ops }], answer: "Handle time fell {+9.1%} [s1]." },
  {
    id: "fleet-1",
    steps: [{ id: 1, output: fleet }],
    answer: "Bristol had the most late deliveries, {+137}, or {+5.5%} of its {+2,490} [s1].",
  },
  { id: "fleet-2", steps: [{ id: 1, output: fleet }], answer: "Leeds had the most late deliveries, {-137} [s1]." },
  { id: "fleet-3", steps: [{ id: 1, output: fleet }], answer: "Glasgow's {+15} vans made {+1,880} deliveries, about {+125} per van [s1]." },
  { id: "fleet-4", steps: [{ id: 1, output: fleet }], answer: "Glasgow's vans made {-2,490} deliveries [s1]." },
  { id: "fleet-5", steps: [{ id: 1, output: fleet }], answer: "Across the {+57} vans, deliveries totalled {+7,490} [s1]." },
  { id: "fleet-6", steps: [{ id: 1, output: fleet }], answer: "Across the depots, deliveries totalled {-7,940} [s1]." },
  { id: "fleet-7", steps: [{ id: 1, output: fleet }], answer: "The lowest late rate was Glasgow's {+2.2%} [s1]." },
  { id: "fx-1", steps: [{ id: 1, output: fx }], answer: "Umsatz {+CHF 1’234’567.80}, Kosten {+CHF -987’654.30} [s1]." },
  { id: "fx-2", steps: [{ id: 1, output: fx }], answer: "Umsatz {-CHF 1’243’567.80} [s1]." },
  { id: "fx-3", steps: [{ id: 1, output: fx }], answer: "Costs came to {+CHF 987,654.30} [s1]." },
  { id: "fx-4", steps: [{ id: 1, output: fx }], answer: "Revenue in India was {+₹84.5 lakh} [s1]." },
  { id: "fx-5", steps: [{ id: 1, output: fx }], answer: "Revenue in India was {-₹48.5 lakh} [s1]." },
  { id: "fx-6", steps: [{ id: 1, output: fx }], answer: "The margin was {+20 per cent}, or {+one fifth} of revenue [s1]." },
  // A sixth batch, written after the fifth was fixed.
  { id: "yoy-1", steps: [{ id: 1, output: yoy }], answer: "Bookings were {+$48.1k}, down {+8%} year over year [s1]." },
  { id: "yoy-2", steps: [{ id: 1, output: yoy }], answer: "Bookings were {+$48.1k}, up {-8%} year over year [s1]." },
  { id: "yoy-3", steps: [{ id: 1, output: yoy }], answer: "Churn rose {+1.3 percentage points} to {+6.1%} versus 2024 [s1]." },
  { id: "yoy-4", steps: [{ id: 1, output: yoy }], answer: "Churn rose {+27%} in relative terms [s1]." },
  { id: "yoy-5", steps: [{ id: 1, output: yoy }], answer: "Churn fell {-1.3 percentage points} [s1]." },
  { id: "yoy-6", steps: [{ id: 1, output: yoy }], answer: "Headcount was {+212}, up from {+188} a year earlier ({+24} more) [s1]." },
  { id: "yoy-7", steps: [{ id: 1, output: yoy }], answer: "Headcount was {+212}, {-22} more than a year earlier [s1]." },
  { id: "seg-1", steps: [{ id: 1, output: company }], answer: "Cloud revenue was {+€412.5m} at an {+18.2%} operating margin [s1]." },
  { id: "seg-2", steps: [{ id: 1, output: company }], answer: "Cloud revenue was {-€288.1m} [s1]." },
  { id: "seg-3", steps: [{ id: 1, output: company }], answer: "Services ran at a {+-4.6%} margin, a loss [s1]." },
  { id: "seg-4", steps: [{ id: 1, output: company }], answer: "Services ran at a {-4.6%} margin [s1]." },
  { id: "seg-5", steps: [{ id: 1, output: company }], answer: "Licences had the highest margin, {+31.4%} [s1]." },
  { id: "seg-6", steps: [{ id: 1, output: company }], answer: "Services had the highest margin, {-18.2%} [s1]." },
  { id: "seg-7", steps: [{ id: 1, output: company }], answer: "The three segments made {+€798.0m} in revenue, cloud {+52%} of it [s1]." },
  { id: "de-1", steps: [{ id: 1, output: de }], answer: "Der Umsatz lag bei {+1.234.567,89 €}, der Verlust bei {+45.210,50 €} [s1]." },
  { id: "de-2", steps: [{ id: 1, output: de }], answer: "Der Umsatz lag bei {-1.243.567,89 €} [s1]." },
  { id: "de-3", steps: [{ id: 1, output: de }], answer: "Umsatz: {+€ 1,23 Mio.} mit {+21} Mitarbeitern [s1]." },
  { id: "de-4", steps: [{ id: 1, output: de }], answer: "We have {+twenty-one} staff, not {-two dozen} [s1]." },
  // Written with the fix for superlatives over nested entities and change fields (not before it).
  { id: "nested-sup-1", steps: [{ id: 1, output: fleet }], answer: "Leeds made the most deliveries, {+3,120} [s1]." },
  { id: "nested-sup-2", steps: [{ id: 1, output: fleet }], answer: "Bristol made the most deliveries, {-2,490} [s1]." },
  { id: "nested-sup-3", steps: [{ id: 1, output: fleet }], answer: "The fewest late deliveries were Glasgow's {+41} [s1]." },
  { id: "change-field-1", steps: [{ id: 1, output: { revenue_change_pct: 5 } }], answer: "Revenue fell {-5%} [s1]." },
  { id: "change-field-2", steps: [{ id: 1, output: { revenue_change_pct: 5 } }], answer: "Revenue grew {+5%} [s1]." },
  // A seventh batch, probes of the docs' pairings written before their fixes (3 of their 34 correct figures were flagged then:
  // a month written as digits, "exceeded by", "did not").
  { id: "pair-1", steps: [{ id: 1, output: { q3_revenue: 1250, q2_revenue: 1100 } }], answer: "Q3 revenue rose {+13.6%} over Q2 [s1]." },
  { id: "pair-2", steps: [{ id: 1, output: { q3_revenue: 1250, q2_revenue: 1100 } }], answer: "Q3 revenue fell {-13.6%} from Q2 [s1]." },
  {
    id: "pair-3",
    steps: [{ id: 1, output: { revenue_october: 8000, revenue_november: 9200 } }],
    answer: "November revenue was {+1,200} higher than October's [s1].",
  },
  {
    id: "pair-4",
    steps: [{ id: 1, output: { revenue_october: 8000, revenue_november: 9200 } }],
    answer: "November revenue was {-1,200} lower than October's [s1].",
  },
  {
    id: "pair-5",
    steps: [{ id: 1, output: { this_week: { orders: 150 }, last_week: { orders: 120 } } }],
    answer: "Orders were up {+30} on last week, {+25%} [s1].",
  },
  {
    id: "pair-6",
    steps: [
      {
        id: 1,
        output: [
          { month: "2026-10", orders: 120 },
          { month: "2026-11", orders: 150 },
        ],
      },
    ],
    answer: "Orders rose {+25%} in November [s1].",
  },
  {
    id: "pair-7",
    steps: [
      {
        id: 1,
        output: [
          { month: "2026-10", orders: 120 },
          { month: "2026-11", orders: 150 },
        ],
      },
    ],
    answer: "Orders fell {-20%} in November [s1].",
  },
  {
    id: "pair-8",
    steps: [{ id: 1, output: { revenue_this_week: 900, revenue_last_week: 1000 } }],
    answer: "Revenue: {+900}, versus {+1,000} last week ({+-10%}) [s1].",
  },
  {
    id: "pair-9",
    steps: [{ id: 1, output: { revenue_this_week: 900, revenue_last_week: 1000 } }],
    answer: "Revenue decreased by {+100} ({+10%}) from last week [s1].",
  },
  { id: "pair-10", steps: [{ id: 1, output: { revenue: 5000, costs: 3800 } }], answer: "Revenue exceeded costs by {+1,200} [s1]." },
  { id: "pair-11", steps: [{ id: 1, output: { revenue: 5000, costs: 3800 } }], answer: "Costs exceeded revenue by {-1,200} [s1]." },
  { id: "pair-12", steps: [{ id: 1, output: { revenue: 5000, costs: 3800 } }], answer: "Costs were {+76%} of revenue [s1]." },
  {
    id: "pair-13",
    steps: [{ id: 1, output: { signups: 300, activated: 120 } }],
    answer: "Of the {+300} signups, {+180} did not activate [s1].",
  },
  {
    id: "pair-14",
    steps: [{ id: 1, output: { revenue_usd: 64577, orders: 127 } }],
    answer: "The average order was worth {+$508.48} [s1].",
  },
];
