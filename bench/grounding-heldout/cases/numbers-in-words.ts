import type { HeldoutCase } from "../heldout-case.js";

// Numbers written in words, as reports for people often write them.
export const numberInWordsCases: HeldoutCase[] = [
  {
    id: "words-open-tickets",
    task: "How many P1 tickets are still open?",
    steps: [{ id: "1", output: { priority: "P1", open_tickets: 15, oldest_age_days: 11 } }],
    answer: "Fifteen P1 tickets are still open [s1].",
    figures: [{ text: "Fifteen", correct: true, kind: "number-in-words" }],
  },
  {
    id: "words-open-tickets-wrong",
    task: "How many P2 tickets are still open?",
    steps: [{ id: "1", output: { priority: "P2", open_tickets: 15 } }],
    answer: "There are fifty P2 tickets still open [s1].",
    figures: [{ text: "fifty", correct: false, kind: "number-in-words", note: "open_tickets is 15" }],
  },
  {
    id: "words-approved-requests",
    task: "How many access requests were approved this week?",
    steps: [
      {
        id: "1",
        output: [
          { status: "approved", count: 42 },
          { status: "denied", count: 6 },
        ],
      },
    ],
    answer: "Forty-two access requests were approved this week [s1].",
    figures: [{ text: "Forty-two", correct: true, kind: "number-in-words" }],
  },
  {
    id: "words-approved-requests-wrong",
    task: "How many expense claims were approved this week?",
    steps: [
      {
        id: "1",
        output: [
          { status: "approved", count: 42 },
          { status: "rejected", count: 9 },
        ],
      },
    ],
    answer: "Finance approved twenty-four expense claims this week [s1].",
    figures: [{ text: "twenty-four", correct: false, kind: "number-in-words", note: "42 were approved" }],
  },
  {
    id: "words-signups-million",
    task: "How many people signed up in 2026?",
    steps: [{ id: "1", output: { year: 2026, signups: 2300000 } }],
    answer: "We passed 2.3 million signups this year [s1].",
    figures: [{ text: "2.3 million", correct: true, kind: "number-in-words" }],
  },
  {
    id: "words-signups-million-wrong",
    task: "How many people installed the app in 2026?",
    steps: [{ id: "1", output: { year: 2026, installs: 2300000 } }],
    answer: "The app crossed 3.2 million installs this year [s1].",
    figures: [{ text: "3.2 million", correct: false, kind: "number-in-words", note: "installs is 2,300,000" }],
  },
  {
    id: "words-attendance-hundreds",
    task: "How many people came to the conference?",
    steps: [{ id: "1", output: { event: "DevDays Lisbon", registered: 1500, attended: 1200 } }],
    answer: "Twelve hundred people attended DevDays Lisbon [s1].",
    figures: [{ text: "Twelve hundred", correct: true, kind: "number-in-words" }],
  },
  {
    id: "words-attendance-hundreds-wrong",
    task: "How many people came to the Porto meetup series?",
    steps: [{ id: "1", output: { event: "Porto meetups", attended: 1200 } }],
    answer: "The Porto meetups drew twenty-one hundred attendees [s1].",
    figures: [{ text: "twenty-one hundred", correct: false, kind: "number-in-words", note: "attended is 1200" }],
  },
  {
    id: "words-cancelled-orders",
    task: "How many orders were cancelled today?",
    steps: [{ id: "1", output: { date: "2026-12-07", orders_cancelled: 7, orders_placed: 318 } }],
    answer: "Seven orders were cancelled today, out of 318 placed [s1].",
    figures: [
      { text: "Seven", correct: true, kind: "number-in-words" },
      { text: "318", correct: true, kind: "direct-value" },
    ],
  },
  {
    id: "words-cancelled-orders-wrong",
    task: "How many bookings were cancelled today?",
    steps: [{ id: "1", output: { date: "2026-12-07", bookings_cancelled: 7, bookings_made: 205 } }],
    answer: "Nine bookings were cancelled today [s1].",
    figures: [{ text: "Nine", correct: false, kind: "number-in-words", note: "bookings_cancelled is 7" }],
  },
  {
    id: "words-pending-approvals",
    task: "How many approvals are waiting on finance?",
    steps: [{ id: "1", output: { queue: "finance", pending_approvals: 11 } }],
    answer: "Eleven approvals are pending with finance [s1].",
    figures: [{ text: "Eleven", correct: true, kind: "number-in-words" }],
  },
  {
    id: "words-pending-approvals-wrong",
    task: "How many approvals are waiting on legal?",
    steps: [{ id: "1", output: { queue: "legal", pending_approvals: 11 } }],
    answer: "Legal has twelve approvals pending [s1].",
    figures: [{ text: "twelve", correct: false, kind: "number-in-words", note: "pending_approvals is 11" }],
  },
  {
    id: "words-employees-british",
    task: "How many people work at the Leeds site?",
    steps: [{ id: "1", output: { site: "Leeds", employees: 250 } }],
    answer: "The Leeds site employs two hundred and fifty people [s1].",
    figures: [{ text: "two hundred and fifty", correct: true, kind: "number-in-words" }],
  },
  {
    id: "words-employees-british-wrong",
    task: "How many people work at the Bristol site?",
    steps: [{ id: "1", output: { site: "Bristol", employees: 205 } }],
    answer: "Bristol employs two hundred and fifty people [s1].",
    figures: [{ text: "two hundred and fifty", correct: false, kind: "number-in-words", note: "employees is 205" }],
  },
  {
    id: "words-seats-thousand",
    task: "How many seats does the Acme contract cover?",
    steps: [{ id: "1", output: { contract: "Acme", seats: 2000, tier: "enterprise" } }],
    answer: "The Acme contract covers two thousand seats [s1].",
    figures: [{ text: "two thousand", correct: true, kind: "number-in-words" }],
  },
  {
    id: "words-seats-thousand-wrong",
    task: "How many seats does the Hooli contract cover?",
    steps: [{ id: "1", output: { contract: "Hooli", seats: 2000, tier: "enterprise" } }],
    answer: "Hooli's contract covers three thousand seats [s1].",
    figures: [{ text: "three thousand", correct: false, kind: "number-in-words", note: "seats is 2000" }],
  },
];
