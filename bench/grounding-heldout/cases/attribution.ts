import type { HeldoutCase } from "../heldout-case.js";

// A figure claimed for an entity the sentence names must sit in that entity's object or row.
const regionsReport = {
  month: "2026-11",
  regions: {
    north: { revenue: 1240.0, orders: 31, returns: 2 },
    south: { revenue: 980.0, orders: 27, returns: 4 },
    east: { revenue: 1515.5, orders: 40, returns: 1 },
  },
};
const byCountry = {
  by_country: {
    DE: { sessions: 18200, bounce_rate: 0.41, revenue_eur: 20410.0 },
    FR: { sessions: 12950, bounce_rate: 0.38, revenue_eur: 14385.5 },
    ES: { sessions: 7310, bounce_rate: 0.45, revenue_eur: 6120.75 },
  },
};
const customers = {
  customers: [
    { name: "Zhou Tao", customer_id: "C-10442", orders: 4, spent_cny: 312.4 },
    { name: "Li Wei", customer_id: "C-10871", orders: 6, spent_cny: 540.1 },
    { name: "Wang Fang", customer_id: "C-11003", orders: 2, spent_cny: 128.0 },
  ],
};
const services = {
  services: {
    checkout: { error_rate: 0.012, p99_ms: 640, requests: 182000 },
    search: { error_rate: 0.004, p99_ms: 210, requests: 940000 },
    auth: { error_rate: 0.001, p99_ms: 95, requests: 415000 },
  },
};
const teams = { teams: { platform: { headcount: 14, open_roles: 3 }, growth: { headcount: 9, open_roles: 5 } } };
const footfall = { week: "2026-W49", stores: { Lyon: { visitors: 5120, conversion: 0.21 }, Nantes: { visitors: 4380, conversion: 0.18 } } };

export const attributionCases: HeldoutCase[] = [
  {
    id: "attribution-region-revenue",
    task: "What did the South region bring in?",
    steps: [{ id: "1", output: regionsReport }],
    answer: "South's revenue was 980.00 in November, on 27 orders [s1].",
    figures: [
      { text: "980.00", correct: true, kind: "entity-attribution" },
      { text: "27 orders", correct: true, kind: "entity-attribution" },
    ],
  },
  {
    id: "attribution-region-revenue-wrong",
    task: "What did the North region bring in?",
    steps: [{ id: "1", output: regionsReport }],
    answer: "North's revenue was 980.00 for the month [s1].",
    figures: [{ text: "980.00", correct: false, kind: "entity-attribution", note: "980 is South's; North made 1,240" }],
  },
  {
    id: "attribution-country-sessions",
    task: "How much traffic came from France and Spain?",
    steps: [{ id: "ga", output: byCountry }],
    answer: "FR sent 12,950 sessions [s:ga]. ES sent 18,200 [s:ga].",
    figures: [
      { text: "12,950", correct: true, kind: "entity-attribution" },
      { text: "18,200", correct: false, kind: "entity-attribution", note: "18,200 is DE's; ES had 7,310" },
    ],
  },
  {
    id: "attribution-customer-spend",
    task: "Who are our top customers and what did they spend?",
    steps: [{ id: "1", output: customers }],
    answer: "Li Wei placed 6 orders and spent ¥540.10 [s1]. Zhou Tao spent ¥540.10 as well [s1].",
    figures: [
      { text: "¥540.10", occurrence: 0, correct: true, kind: "entity-attribution" },
      { text: "¥540.10", occurrence: 1, correct: false, kind: "entity-attribution", note: "Zhou Tao spent 312.40" },
      { text: "6 orders", correct: true, kind: "entity-attribution" },
    ],
  },
  {
    id: "attribution-service-latency",
    task: "How are checkout and search performing?",
    steps: [{ id: "1", output: services }],
    answer: "- checkout: p99 640 ms [s1]\n- search: p99 640 ms [s1]",
    figures: [
      { text: "640 ms", occurrence: 0, correct: true, kind: "entity-attribution" },
      { text: "640 ms", occurrence: 1, correct: false, kind: "entity-attribution", note: "search's p99 is 210" },
    ],
  },
  {
    id: "attribution-team-roles",
    task: "Where are we hiring?",
    steps: [{ id: "1", output: teams }],
    answer: "Growth has 5 open roles; Platform has 5 as well [s1].",
    figures: [
      { text: "5 open roles", correct: true, kind: "entity-attribution" },
      { text: "5 as well", correct: false, kind: "entity-attribution", note: "Platform has 3" },
    ],
  },
  {
    id: "attribution-store-footfall",
    task: "How many visitors did the Nantes store get this week?",
    steps: [{ id: "1", output: footfall }],
    answer: "Nantes saw 4,380 visitors this week [s1].",
    figures: [{ text: "4,380", correct: true, kind: "entity-attribution" }],
  },
  {
    id: "attribution-store-footfall-wrong",
    task: "How many visitors did the Lyon store get this week?",
    steps: [{ id: "1", output: footfall }],
    answer: "The Lyon store welcomed 4,380 visitors this week [s1].",
    figures: [{ text: "4,380", correct: false, kind: "entity-attribution", note: "Lyon had 5,120" }],
  },
  {
    id: "attribution-country-revenue-wrong",
    task: "What did Spain bring in?",
    steps: [{ id: "ga", output: byCountry }],
    answer: "Revenue from ES was €14,385.50 [s:ga].",
    figures: [{ text: "€14,385.50", correct: false, kind: "entity-attribution", note: "that is FR's; ES made 6,120.75" }],
  },
  {
    id: "attribution-service-errors-wrong",
    task: "How reliable is auth?",
    steps: [{ id: "1", output: services }],
    answer: "Auth's error rate was 0.4% over the period [s1].",
    figures: [{ text: "0.4%", correct: false, kind: "entity-attribution", note: "0.4% is search's; auth's is 0.1%" }],
  },
  {
    id: "attribution-customer-spend-single",
    task: "What did Wang Fang spend with us?",
    steps: [{ id: "1", output: customers }],
    answer: "Wang Fang spent ¥128.00 in total [s1].",
    figures: [{ text: "¥128.00", correct: true, kind: "entity-attribution" }],
  },
  {
    id: "attribution-country-bounce",
    task: "How engaged is German traffic?",
    steps: [{ id: "ga", output: byCountry }],
    answer: "DE's bounce rate was 41% [s:ga].",
    figures: [{ text: "41%", correct: true, kind: "entity-attribution" }],
  },
  {
    id: "attribution-country-bounce-wrong",
    task: "How engaged is French traffic?",
    steps: [{ id: "ga", output: byCountry }],
    answer: "Visitors from FR bounced at a 45% rate [s:ga].",
    figures: [{ text: "45%", correct: false, kind: "entity-attribution", note: "45% is ES's; FR's is 38%" }],
  },
  {
    id: "attribution-region-returns-wrong",
    task: "How many returns did East have?",
    steps: [{ id: "1", output: regionsReport }],
    answer: "East logged 4 returns in November [s1].",
    figures: [{ text: "4 returns", correct: false, kind: "entity-attribution", note: "4 is South's; East had 1" }],
  },
];
