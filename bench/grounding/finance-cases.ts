import type { LabelledCase } from "./labelled-cases.js";

/**
 * The second suite, from a source the seeded suite does not use: public companies' annual
 * figures as their reports show them (income statements by year, segments, in their own
 * currencies and number styles), summarised as an analyst writes: years compared, margins,
 * segments named, losses, and figures in the company's locale.
 */
const apple = {
  fiscal_years: [
    { year: "2022", revenue_usd_m: 394328, net_income_usd_m: 99803, services_usd_m: 78129 },
    { year: "2023", revenue_usd_m: 383285, net_income_usd_m: 96995, services_usd_m: 85200 },
  ],
};
const sap = { revenue_2023_eur_m: 31207, revenue_2022_eur_m: 29520, operating_profit_2023_eur_m: 4514, cloud_revenue_2023_eur_m: 13664 };
const nestle = { sales_chf_m: 92998, organic_growth_pct: 7.2, trading_operating_profit_chf_m: 16053, net_profit_chf_m: 11209 };
const infosys = { revenue_inr_cr: 153670, net_profit_inr_cr: 26233, employees: 317240 };
const segments = {
  segments: {
    americas: { net_sales_usd_m: 162560, operating_income_usd_m: 60508 },
    europe: { net_sales_usd_m: 94294, operating_income_usd_m: 36098 },
    greater_china: { net_sales_usd_m: 72559, operating_income_usd_m: 30328 },
  },
};
const loss = { revenue_usd_m: 3262, net_income_usd_m: -418, operating_cash_flow_usd_m: -112, free_cash_flow_usd_m: -302 };
const quarters = [
  { quarter: "Q1", revenue_eur_m: 7441, operating_profit_eur_m: 1011 },
  { quarter: "Q2", revenue_eur_m: 7551, operating_profit_eur_m: 1192 },
  { quarter: "Q3", revenue_eur_m: 7744, operating_profit_eur_m: 1187 },
  { quarter: "Q4", revenue_eur_m: 8471, operating_profit_eur_m: 1124 },
];

export const financeCases: LabelledCase[] = [
  {
    id: "apple-1",
    steps: [{ id: 1, output: apple }],
    answer: "Revenue was {+$383,285} million in 2023, down {+2.8%} from {+$394,328} million in 2022 [s1].",
  },
  { id: "apple-2", steps: [{ id: 1, output: apple }], answer: "Revenue was {-$383,825} million in 2023, up {-2.8%} from 2022 [s1]." },
  { id: "apple-3", steps: [{ id: 1, output: apple }], answer: "Net income fell by {+$2,808} million to {+$96,995} million [s1]." },
  { id: "apple-4", steps: [{ id: 1, output: apple }], answer: "Net income rose by {-$2,808} million [s1]." },
  { id: "apple-5", steps: [{ id: 1, output: apple }], answer: "Services grew {+9.1%} to {+$85.2} billion in 2023 [s1]." },
  { id: "apple-6", steps: [{ id: 1, output: apple }], answer: "Services grew {-12.1%} in 2023 [s1]." },
  { id: "apple-7", steps: [{ id: 1, output: apple }], answer: "The net margin was {+25.3%} in 2023 [s1]." },
  { id: "apple-8", steps: [{ id: 1, output: apple }], answer: "The net margin was {-27.3%} in 2023 [s1]." },
  {
    id: "sap-1",
    steps: [{ id: 1, output: sap }],
    answer: "SAP steigerte den Umsatz 2023 auf {+31.207} Mio. € (Vorjahr: {+29.520} Mio. €), ein Plus von {+5,7 %} [s1].",
  },
  { id: "sap-2", steps: [{ id: 1, output: sap }], answer: "SAP steigerte den Umsatz 2023 auf {-32.107} Mio. € [s1]." },
  { id: "sap-3", steps: [{ id: 1, output: sap }], answer: "Cloud revenue was {+€13.7} billion, {+43.8%} of total revenue [s1]." },
  { id: "sap-4", steps: [{ id: 1, output: sap }], answer: "Cloud revenue was {-53.8%} of total revenue [s1]." },
  {
    id: "nestle-1",
    steps: [{ id: 1, output: nestle }],
    answer: "Sales reached {+CHF 92'998} million with organic growth of {+7.2%} [s1].",
  },
  {
    id: "nestle-2",
    steps: [{ id: 1, output: nestle }],
    answer: "Sales reached {-CHF 93'998} million with organic growth of {-8.2%} [s1].",
  },
  { id: "nestle-3", steps: [{ id: 1, output: nestle }], answer: "The trading operating margin was {+17.3%} [s1]." },
  { id: "infosys-1", steps: [{ id: 1, output: infosys }], answer: "Revenue was {+₹1,53,670} crore and net profit {+₹26,233} crore [s1]." },
  { id: "infosys-2", steps: [{ id: 1, output: infosys }], answer: "Revenue was {-₹1,35,670} crore [s1]." },
  { id: "infosys-3", steps: [{ id: 1, output: infosys }], answer: "It employed {+3,17,240} people [s1]." },
  { id: "segments-1", steps: [{ id: 1, output: segments }], answer: "Europe's net sales were {+$94,294} million [s1]." },
  { id: "segments-2", steps: [{ id: 1, output: segments }], answer: "Europe's net sales were {-$72,559} million [s1]." },
  { id: "segments-3", steps: [{ id: 1, output: segments }], answer: "Greater China's operating income was {-$36,098} million [s1]." },
  { id: "segments-4", steps: [{ id: 1, output: segments }], answer: "The Americas and Europe together sold {+$256,854} million [s1]." },
  { id: "loss-1", steps: [{ id: 1, output: loss }], answer: "The company lost {+$418} million on revenue of {+$3,262} million [s1]." },
  { id: "loss-2", steps: [{ id: 1, output: loss }], answer: "Net income was {-$418} million on revenue of $3,262 million [s1]." },
  { id: "loss-3", steps: [{ id: 1, output: loss }], answer: "Free cash flow was {+($302)} million [s1]." },
  { id: "loss-4", steps: [{ id: 1, output: loss }], answer: "Free cash flow was {-$302} million [s1]." },
  { id: "quarters-1", steps: [{ id: 1, output: quarters }], answer: "Q4 revenue was {+€8,471} million, the highest of the year [s1]." },
  { id: "quarters-2", steps: [{ id: 1, output: quarters }], answer: "The highest quarterly operating profit was {-€1,124} million [s1]." },
  { id: "quarters-3", steps: [{ id: 1, output: quarters }], answer: "Full-year revenue was {+€31,207} million [s1]." },
  { id: "quarters-4", steps: [{ id: 1, output: quarters }], answer: "Full-year revenue was {-€31,270} million [s1]." },
];
