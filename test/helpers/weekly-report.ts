// A tiny in-memory "database" for seed 001's weekly report: the refunds table's amount
// column was renamed, and some refunds are in USD. Tools count their calls.
import { z } from "zod";
import { defineTool } from "planloop";

export function weeklyReportTools() {
  const calls: string[] = [];
  const tables: Record<string, Array<Record<string, unknown>>> = {
    orders: [
      { id: 1, total: 100 },
      { id: 2, total: 250 },
    ],
    refunds: [
      { id: 7, refund_amount: 30, currency: "CNY" },
      { id: 8, refund_amount: 5, currency: "USD" },
    ],
    tickets: [
      { id: 1, topic: "late delivery" },
      { id: 2, topic: "late delivery" },
      { id: 3, topic: "refund" },
    ],
  };
  const sql = defineTool({
    name: "sql",
    description: "Run `select <column|*> from <table>` against the shop database",
    input: z.object({ query: z.string() }),
    execute: ({ query }) => {
      calls.push(`sql ${query}`);
      const match = /^select (\S+) from (\w+)$/.exec(query);
      if (!match) throw new Error(`cannot run ${query}`);
      const [, column, table] = match;
      const rows = tables[table!];
      if (!rows) throw new Error(`no such table: ${table}`);
      if (column === "*") return rows;
      if (!(column! in rows[0]!)) throw new Error(`no such column: ${column}`);
      return rows.map((row) => ({ [column!]: row[column!], ...(row.currency ? { currency: row.currency } : {}) }));
    },
  });
  const schema = defineTool({
    name: "schema",
    description: "List a table's columns",
    input: z.object({ table: z.string() }),
    execute: ({ table }) => (calls.push(`schema ${table}`), Object.keys(tables[table]?.[0] ?? {})),
  });
  const metrics = defineTool({
    name: "metrics",
    description: "Compute order count, refund total and ticket count",
    input: z.object({
      orders: z.array(z.unknown()),
      refunds: z.array(z.object({ refund_amount: z.number() }).passthrough()),
      tickets: z.array(z.unknown()),
    }),
    execute: ({ orders, refunds, tickets }) => {
      calls.push("metrics");
      return { orders: orders.length, refundTotal: refunds.reduce((sum, row) => sum + row.refund_amount, 0), tickets: tickets.length };
    },
  });
  return { calls, tools: [sql, schema, metrics], tables };
}

export const firstPlan = {
  steps: [
    { id: 1, task: "query this week's orders", tool: "sql", args: { query: "select * from orders" }, depends_on: [] },
    { id: 2, task: "query this week's refunds", tool: "sql", args: { query: "select amount from refunds" }, depends_on: [] },
    { id: 3, task: "query this week's support tickets", tool: "sql", args: { query: "select * from tickets" }, depends_on: [] },
    { id: 4, task: "compute the metrics", tool: "metrics", args: { orders: "$1", refunds: "$2", tickets: "$3" }, depends_on: [1, 2, 3] },
  ],
};
