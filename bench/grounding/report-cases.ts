import { generateDemoData, type DemoData } from "../../src/demo/demo-data.js";
import { seededRandom } from "../../src/core/seeded-random.js";
import type { SuiteWriter } from "./suite-writer.js";

/**
 * Weekly reports over the demo's shop data (a new week for every seed): the steps a report
 * pipeline runs (rows, metrics, a daily rollup, last week's metrics, tickets by category) and
 * an answer of sentences a solver would write from them, each figure recorded as a slot.
 */

const week = { start: "2026-11-16", end: "2026-11-22" };
const days = Array.from({ length: 7 }, (_, index) => `2026-11-${String(16 + index).padStart(2, "0")}`);
const inWeek = (at: string) => at.slice(0, 10) >= week.start && at.slice(0, 10) <= week.end;
const round2 = (value: number) => Math.round(value * 100) / 100;
const sum = (values: number[]) => round2(values.reduce((total, value) => total + value, 0));

interface Week {
  orders: DemoData["orders"];
  refunds: Array<{ id: number; order_id: number; refund_amount: number; currency: string; reason: string; created_at: string }>;
  tickets: DemoData["tickets"];
  metrics: { orders: number; revenue_cny: number; refunds: number; refund_total_cny: number; refund_rate: number; tickets: number };
  daily: Array<{ day: string; orders: number; revenue_cny: number }>;
  categories: Array<{ category: string; tickets: number }>;
}

function weekOf(seed: number): Week {
  const data = generateDemoData(seed);
  const orders = data.orders.filter((order) => inWeek(order.created_at));
  const refunds = data.refunds
    .filter((refund) => inWeek(refund.created_at))
    .map((refund) => ({
      ...refund,
      refund_amount: refund.currency === "USD" ? round2(refund.refund_amount * 7.1) : refund.refund_amount,
      currency: "CNY",
    }));
  const tickets = data.tickets.filter((ticket) => inWeek(ticket.created_at));
  const revenue = sum(orders.map((order) => order.total_cny));
  const refundTotal = sum(refunds.map((refund) => refund.refund_amount));
  const counts = new Map<string, number>();
  for (const ticket of tickets) counts.set(ticket.category, (counts.get(ticket.category) ?? 0) + 1);
  return {
    orders,
    refunds,
    tickets,
    metrics: {
      orders: orders.length,
      revenue_cny: revenue,
      refunds: refunds.length,
      refund_total_cny: refundTotal,
      refund_rate: Math.round((refundTotal / revenue) * 10_000) / 10_000,
      tickets: tickets.length,
    },
    daily: days.map((day) => {
      const on = orders.filter((order) => order.created_at.startsWith(day));
      return { day, orders: on.length, revenue_cny: sum(on.map((order) => order.total_cny)) };
    }),
    categories: [...counts].map(([category, count]) => ({ category, tickets: count })).sort((a, b) => b.tickets - a.tickets),
  };
}

/** One weekly report: its steps and an answer whose every figure is a slot. */
export function weeklyReportCase(writer: SuiteWriter, seed: number): void {
  const random = seededRandom(seed * 7 + 1);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  const now = weekOf(seed);
  const last = weekOf(seed + 10_000);
  const m = now.metrics;
  const p = last.metrics;
  writer.start(
    `weekly-${seed}`,
    `Write the weekly report for ${week.start} to ${week.end}: orders, revenue, refunds, tickets, compared with last week.`,
  );
  writer.step(1, "sql", now.orders);
  writer.step(2, "sql", now.refunds);
  writer.step(3, "sql", now.tickets);
  writer.step(4, "compute_metrics", m);
  writer.step(5, "daily_rollup", now.daily);
  writer.step(6, "compute_metrics", p);
  writer.step(7, "group_tickets", now.categories);
  const cite = (ids: string) => (random() < 0.12 ? "" : ` [${ids}]`);
  const change = ((m.revenue_cny - p.revenue_cny) / p.revenue_cny) * 100;
  const sentences: Array<() => void> = [
    () =>
      writer.say`The week of ${{ date: week.start }} to ${{ date: week.end }} had ${{ count: m.orders }} orders worth ${{ money: m.revenue_cny }}${cite("s4")}.`,
    () =>
      writer.say`Revenue ${change >= 0 ? "rose" : "fell"} ${{ percent: Math.abs(change), digits: 1 }} from ${{ money: p.revenue_cny }} last week${cite("s4, s6")}.`,
    () => writer.say`Revenue came to about ${{ rounded: m.revenue_cny, to: 1000, prefix: "¥" }}${cite("s4")}.`,
    () =>
      writer.say`Refunds totalled ${{ money: m.refund_total_cny }} across ${{ count: m.refunds }} refunds, a refund rate of ${{ percent: m.refund_rate * 100, digits: 2 }}${cite("s4")}.`,
    () => {
      const points = (m.refund_rate - p.refund_rate) * 100;
      writer.say`The refund rate moved ${points >= 0 ? "up" : "down"} ${{ points: Math.abs(points), digits: 2 }} against last week's ${{ percent: p.refund_rate * 100, digits: 2 }}${cite("s4, s6")}.`;
    },
    () => writer.say`The average order was ${{ money: m.revenue_cny / m.orders }}${cite("s1")}.`,
    () => writer.say`The largest single order was ${{ money: Math.max(...now.orders.map((order) => order.total_cny)) }}${cite("s1")}.`,
    () => {
      const best = [...now.daily].sort((a, b) => b.revenue_cny - a.revenue_cny)[0]!;
      writer.say`The busiest day was ${{ date: best.day, row: true }}, with ${{ count: best.orders, others: now.daily.map((day) => day.orders) }} orders and ${{ money: best.revenue_cny, others: now.daily.map((day) => day.revenue_cny) }}${cite("s5")}.`;
    },
    () => {
      const [first, second] = [pick(now.daily.slice(0, 3)), pick(now.daily.slice(3))];
      const diff = ((second.revenue_cny - first.revenue_cny) / first.revenue_cny) * 100;
      writer.say`Revenue on ${{ date: second.day, row: true }} was ${{ percent: Math.abs(diff), digits: 1 }} ${diff >= 0 ? "above" : "below"} ${{ date: first.day, row: true }}${cite("s5")}.`;
    },
    () => {
      const top = now.categories[0]!;
      writer.say`Support handled ${{ count: m.tickets }} tickets; ${{ count: top.tickets, others: now.categories.map((row) => row.tickets) }} were about ${{ name: top.category, wrong: now.categories.length > 1 ? ["billing error", "lost parcel"] : ["billing error"] }}, ${{ percent: (top.tickets / m.tickets) * 100, digits: 0 }} of the total${cite("s7")}.`;
    },
    () => {
      const diff = m.tickets - p.tickets;
      writer.say`That is ${{ count: Math.abs(diff) }} ${diff >= 0 ? "more" : "fewer"} tickets than last week's ${{ count: p.tickets }}${cite("s4, s6")}.`;
    },
    () => {
      const reason = pick([...new Set(now.refunds.map((refund) => refund.reason))]);
      const matching = now.refunds.filter((refund) => refund.reason === reason);
      writer.say`Refunds for ${{ name: reason }} came to ${{ money: sum(matching.map((refund) => refund.refund_amount)) }} over ${{ count: matching.length }} refunds${cite("s2")}.`;
    },
    () => {
      const counts = new Map<string, number>();
      for (const order of now.orders) counts.set(order.customer, (counts.get(order.customer) ?? 0) + 1);
      const [customer, count] = [...counts].sort((a, b) => b[1] - a[1])[0]!;
      writer.say`${{ name: customer, bare: true, wrong: ["Ma Rui", "Gao Yan", "Hu Bin"] }} placed the most orders, ${{ count }}${cite("s1")}.`;
    },
  ];
  for (const sentence of sentences) if (random() < 0.85) sentence();
  writer.end();
}
