import { seededRandom } from "../core/seeded-random.js";

/** The demo's week: seven days of a small online shop, the same on every run. */
export const demoWeek = { start: "2026-11-16", end: "2026-11-22" };

export interface DemoData {
  orders: Array<{ id: number; customer: string; total_cny: number; created_at: string }>;
  refunds: Array<{ id: number; order_id: number; refund_amount: number; currency: string; reason: string; created_at: string }>;
  tickets: Array<{ id: number; order_id: number; category: string; created_at: string }>;
  fxRates: Array<{ currency: string; rate_to_cny: number }>;
}

const customers = ["Li Wei", "Zhang Min", "Wang Fang", "Chen Jie", "Liu Yang", "Zhao Lei", "Sun Li", "Zhou Tao", "Wu Hui", "Xu Jing"];
const ticketCategories = [
  "late delivery",
  "late delivery",
  "late delivery",
  "damaged item",
  "wrong size",
  "payment",
  "late delivery",
  "refund status",
];
const refundReasons = ["damaged item", "wrong size", "changed mind", "late delivery"];

/**
 * A week of orders, refunds and support tickets (plus a few rows from the weeks around it),
 * from a fixed seed. Some refunds were paid in USD; complaints cluster around late delivery.
 */
export function generateDemoData(seed = 20261116): DemoData {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  const timeOn = (day: string) =>
    `${day} ${String(8 + Math.floor(random() * 14)).padStart(2, "0")}:${String(Math.floor(random() * 60)).padStart(2, "0")}:00`;
  const days = ["2026-11-14", "2026-11-15", ...weekDays(), "2026-11-23"];
  const orders: DemoData["orders"] = [];
  for (const day of days) {
    const count = 14 + Math.floor(random() * 10);
    for (let index = 0; index < count; index += 1) {
      orders.push({
        id: orders.length + 1,
        customer: pick(customers),
        total_cny: Math.round((59 + random() * 900) * 100) / 100,
        created_at: timeOn(day),
      });
    }
  }
  const refunds: DemoData["refunds"] = [];
  const tickets: DemoData["tickets"] = [];
  for (const order of orders) {
    if (random() < 0.1) {
      const inUsd = random() < 0.3;
      const amount = Math.round(order.total_cny * (0.3 + random() * 0.7) * 100) / 100;
      refunds.push({
        id: refunds.length + 1,
        order_id: order.id,
        refund_amount: inUsd ? Math.round((amount / 7.1) * 100) / 100 : amount,
        currency: inUsd ? "USD" : "CNY",
        reason: pick(refundReasons),
        created_at: order.created_at,
      });
    }
    if (random() < 0.22)
      tickets.push({ id: tickets.length + 1, order_id: order.id, category: pick(ticketCategories), created_at: order.created_at });
  }
  return {
    orders,
    refunds,
    tickets,
    fxRates: [
      { currency: "CNY", rate_to_cny: 1 },
      { currency: "USD", rate_to_cny: 7.1 },
    ],
  };
}

function weekDays(): string[] {
  return Array.from({ length: 7 }, (_, index) => `2026-11-${String(16 + index).padStart(2, "0")}`);
}
