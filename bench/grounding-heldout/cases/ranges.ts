import type { HeldoutCase } from "../heldout-case.js";

// Ranges whose ends are the cited minimum and maximum (or a stated low and high).
const dailyOrders = [
  { day: "2026-11-30", orders: 112 },
  { day: "2026-12-01", orders: 98 },
  { day: "2026-12-02", orders: 131 },
  { day: "2026-12-03", orders: 120 },
  { day: "2026-12-04", orders: 117 },
];
const hourlyTemps = [
  { hour: "06:00", temp_c: 11.4 },
  { hour: "09:00", temp_c: 13.2 },
  { hour: "12:00", temp_c: 17.9 },
  { hour: "15:00", temp_c: 16.8 },
  { hour: "18:00", temp_c: 14.1 },
];

export const rangeCases: HeldoutCase[] = [
  {
    id: "range-daily-orders",
    task: "How steady were daily orders this week?",
    steps: [{ id: "1", output: dailyOrders }],
    answer: "Daily orders ranged from 98 to 131 [s1].",
    figures: [{ text: "98 to 131", correct: true, kind: "range" }],
  },
  {
    id: "range-daily-orders-wrong",
    task: "What was the spread of daily orders this week?",
    steps: [{ id: "1", output: dailyOrders }],
    answer: "Orders per day varied between 89 and 131 [s1].",
    figures: [{ text: "89 and 131", correct: false, kind: "range", note: "the lowest day had 98" }],
  },
  {
    id: "range-plan-prices",
    task: "What do our plans cost?",
    steps: [
      {
        id: "pricing",
        output: {
          plans: [
            { name: "Starter", monthly_usd: 19 },
            { name: "Team", monthly_usd: 29 },
            { name: "Business", monthly_usd: 49 },
          ],
        },
      },
    ],
    answer: "Plans cost $19–$49 a month [s:pricing].",
    figures: [{ text: "$19–$49", correct: true, kind: "range" }],
  },
  {
    id: "range-plan-prices-wrong",
    task: "What do the competitor's plans cost?",
    steps: [
      {
        id: "pricing",
        output: {
          vendor: "Initech",
          plans: [
            { name: "Basic", monthly_usd: 19 },
            { name: "Pro", monthly_usd: 39 },
            { name: "Scale", monthly_usd: 49 },
          ],
        },
      },
    ],
    answer: "Initech's plans run from $19 to $59 per month [s:pricing].",
    figures: [{ text: "$19 to $59", correct: false, kind: "range", note: "the top plan is $49" }],
  },
  {
    id: "range-latency-percentiles",
    task: "What response times do users see?",
    steps: [{ id: "1", output: { service: "api", latency_ms: { p50: 82, p90: 190, p99: 340 } } }],
    answer: "Response times run from 82 ms at p50 to 340 ms at p99 [s1].",
    figures: [{ text: "82 ms at p50 to 340 ms", correct: true, kind: "range" }],
  },
  {
    id: "range-latency-percentiles-wrong",
    task: "What response times do users of the upload service see?",
    steps: [{ id: "1", output: { service: "upload", latency_ms: { p50: 82, p90: 190, p99: 340 } } }],
    answer: "Uploads take between 82 and 430 ms (p50 to p99) [s1].",
    figures: [{ text: "82 and 430 ms", correct: false, kind: "range", note: "p99 is 340" }],
  },
  {
    id: "range-forecast",
    task: "What is the Q1 revenue forecast?",
    steps: [{ id: "1", output: { quarter: "2027-Q1", forecast: { low_usd: 1800000, mid_usd: 2000000, high_usd: 2200000 } } }],
    answer: "We forecast $1.8–2.2M for Q1 [s1].",
    figures: [{ text: "$1.8–2.2M", correct: true, kind: "range" }],
  },
  {
    id: "range-forecast-wrong",
    task: "What is the Q2 bookings forecast?",
    steps: [{ id: "1", output: { quarter: "2027-Q2", forecast: { low_usd: 1800000, high_usd: 2200000 } } }],
    answer: "Q2 bookings are forecast at $1.8M-$2.4M [s1].",
    figures: [{ text: "$1.8M-$2.4M", correct: false, kind: "range", note: "the high case is 2.2M" }],
  },
  {
    id: "range-temperatures-rounded",
    task: "What were temperatures like at the vineyard today?",
    steps: [{ id: "1", output: hourlyTemps }],
    answer: "Temperatures stayed between 11 and 18 °C [s1].",
    figures: [{ text: "11 and 18 °C", correct: true, kind: "range", note: "11.4 and 17.9 to whole degrees" }],
  },
  {
    id: "range-temperatures-wrong",
    task: "What were temperatures like at the orchard today?",
    steps: [{ id: "1", output: hourlyTemps }],
    answer: "The orchard saw 11–21 °C today [s1].",
    figures: [{ text: "11–21 °C", correct: false, kind: "range", note: "the high was 17.9" }],
  },
  {
    id: "range-salary-band",
    task: "What does the L4 band pay?",
    steps: [
      {
        id: "hr",
        output: {
          bands: [
            { band: "L4", min_eur: 62000, max_eur: 78000 },
            { band: "L5", min_eur: 74000, max_eur: 92000 },
          ],
        },
      },
    ],
    answer: "The L4 band pays €62,000–€78,000 [s:hr].",
    figures: [{ text: "€62,000–€78,000", correct: true, kind: "range" }],
  },
  {
    id: "range-salary-band-wrong",
    task: "What does the L5 band pay?",
    steps: [
      {
        id: "hr",
        output: {
          bands: [
            { band: "L4", min_eur: 62000, max_eur: 78000 },
            { band: "L5", min_eur: 74000, max_eur: 92000 },
          ],
        },
      },
    ],
    answer: "L5 pays between €74,000 and €96,000 [s:hr].",
    figures: [{ text: "€74,000 and €96,000", correct: false, kind: "range", note: "L5 tops out at 92,000" }],
  },
  {
    id: "range-hotel-prices",
    task: "What will a hotel in Porto cost us?",
    steps: [
      {
        id: "1",
        output: [
          { hotel: "Ribeira Inn", nightly_usd: 139 },
          { hotel: "Hotel Aliados", nightly_usd: 182 },
          { hotel: "Douro Palace", nightly_usd: 215 },
        ],
      },
    ],
    answer: "Rooms run $139 to $215 a night [s1].",
    figures: [{ text: "$139 to $215", correct: true, kind: "range" }],
  },
  {
    id: "range-hotel-prices-wrong",
    task: "What will a hotel in Braga cost us?",
    steps: [
      {
        id: "1",
        output: [
          { hotel: "Sé Guesthouse", nightly_usd: 139 },
          { hotel: "Bom Jesus Hotel", nightly_usd: 182 },
          { hotel: "Braga Grand", nightly_usd: 215 },
        ],
      },
    ],
    answer: "All three hotels cost between $139 and $182 a night [s1].",
    figures: [{ text: "$139 and $182", correct: false, kind: "range", note: "Braga Grand is $215" }],
  },
  {
    id: "range-delivery-days",
    task: "How long does standard delivery take?",
    steps: [{ id: "1", output: { service: "standard", eta_business_days: { min: 3, max: 5 } } }],
    answer: "Standard delivery takes 3–5 business days [s1].",
    figures: [{ text: "3–5", correct: true, kind: "range" }],
  },
  {
    id: "range-delivery-days-wrong",
    task: "How long does express delivery take?",
    steps: [{ id: "1", output: { service: "express", eta_business_days: { min: 1, max: 2 } } }],
    answer: "Express delivery takes 2-4 business days [s1].",
    figures: [{ text: "2-4", correct: false, kind: "range", note: "express takes 1 to 2 days" }],
  },
];
