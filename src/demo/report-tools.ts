import { z } from "zod";
import { defineTool } from "../core/tools/define-tool.js";

const rows = z.array(z.record(z.string(), z.unknown()));

export interface WeeklyMetrics {
  orders: number;
  revenue_cny: number;
  refunds: number;
  refund_total_cny: number;
  refund_rate: number;
  tickets: number;
  top_ticket_category: string;
  top_ticket_count: number;
}

/** Computes the week's metrics from rows, and writes the report from the metrics. */
export function reportTools() {
  const computeMetrics = defineTool({
    name: "compute_metrics",
    description:
      "Compute order count, revenue, refund total and rate, ticket count and the top ticket category from the week's rows (refunds must be in CNY)",
    input: z.object({ orders: rows, refunds: rows, tickets: rows }),
    execute: ({ orders, refunds, tickets }): WeeklyMetrics => {
      const foreign = refunds.filter((row) => row.currency !== undefined && row.currency !== "CNY");
      if (foreign.length > 0) throw Object.assign(new Error(`${foreign.length} refunds are not in CNY`), { retryable: false });
      const revenue = sum(orders.map((row) => Number(row.total_cny)));
      const refundTotal = sum(refunds.map((row) => Number(row.refund_amount ?? row.amount)));
      const byCategory = new Map<string, number>();
      for (const ticket of tickets) byCategory.set(String(ticket.category), (byCategory.get(String(ticket.category)) ?? 0) + 1);
      const [topCategory, topCount] = [...byCategory].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0] ?? ["none", 0];
      return {
        orders: orders.length,
        revenue_cny: revenue,
        refunds: refunds.length,
        refund_total_cny: refundTotal,
        refund_rate: revenue === 0 ? 0 : Math.round((refundTotal / revenue) * 10_000) / 10_000,
        tickets: tickets.length,
        top_ticket_category: topCategory,
        top_ticket_count: topCount,
      };
    },
  });
  const writeReport = defineTool({
    name: "write_report",
    description: "Write the weekly report in Markdown from the computed metrics",
    input: z.object({ metrics: z.record(z.string(), z.unknown()), week: z.string(), headline: z.string().optional() }),
    execute: ({ metrics, week, headline }) => ({ markdown: weeklyReportMarkdown(metrics as unknown as WeeklyMetrics, week, headline) }),
  });
  return [computeMetrics, writeReport];
}

export function weeklyReportMarkdown(metrics: WeeklyMetrics, week: string, headline?: string): string {
  const money = (value: number) => `¥${value.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
  return [
    `# Weekly report, ${week}`,
    "",
    ...(headline === undefined ? [] : [`> ${headline}`, ""]),
    "| metric | value |",
    "| --- | --- |",
    `| orders | ${metrics.orders} |`,
    `| revenue | ${money(metrics.revenue_cny)} |`,
    `| refunds | ${metrics.refunds} (${money(metrics.refund_total_cny)}) |`,
    `| refund rate | ${(metrics.refund_rate * 100).toFixed(2)}% |`,
    `| support tickets | ${metrics.tickets} |`,
    "",
    `Most tickets were about **${metrics.top_ticket_category}** (${metrics.top_ticket_count} of ${metrics.tickets}).`,
    "Refunds paid in USD were converted to CNY at the rate in fx_rates.",
  ].join("\n");
}

function sum(values: number[]): number {
  return Math.round(values.reduce((total, value) => total + value, 0) * 100) / 100;
}
