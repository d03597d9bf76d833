import { z } from "zod";
import { sleep } from "../core/clock.js";
import { defineTool } from "../core/tools/define-tool.js";
import type { DemoDatabase } from "./demo-database.js";

/** An error a retry cannot fix: the executor does not try the step again. */
function final(message: string): Error {
  return Object.assign(new Error(message), { retryable: false });
}

/**
 * Read-only SQL over the demo database, a look at a table's columns, and currency
 * conversion. `latencyMs` makes each query take that long, like a remote warehouse would,
 * so the parallel queries show on the timeline.
 */
export function sqlTools(db: DemoDatabase, options: { reportCurrency?: string; latencyMs?: number } = {}) {
  const currency = options.reportCurrency ?? "CNY";
  const latency = options.latencyMs ?? 0;
  const sql = defineTool({
    name: "sql",
    description:
      "Run one read-only SQLite SELECT query against the shop database (tables: orders, refunds, tickets, fx_rates) and get the rows",
    input: z.object({ query: z.string().min(1) }),
    estimateMs: 50,
    execute: async ({ query }, { signal }) => {
      if (latency > 0) await sleep(latency * (0.6 + (query.length % 7) / 10), { signal });
      let statement;
      try {
        statement = db.prepare(query);
      } catch (error) {
        throw final(error instanceof Error ? error.message : String(error));
      }
      if (!statement.reader) throw final("only SELECT queries are allowed");
      return statement.all() as Array<Record<string, unknown>>;
    },
    // Seed 001: the plan assumed one currency; rows in another contradict it.
    check: (rows: Array<Record<string, unknown>>) => {
      const others = new Set(
        (rows as Array<Record<string, unknown>>)
          .map((row) => row.currency)
          .filter((value) => typeof value === "string" && value !== currency),
      );
      if (others.size === 0) return undefined;
      const count = (rows as Array<Record<string, unknown>>).filter((row) => others.has(row.currency)).length;
      return `${count} of ${rows.length} rows are in ${[...others].join(", ")}, not ${currency}; convert them before adding amounts up`;
    },
  });
  const describeTable = defineTool({
    name: "describe_table",
    description: "List the columns of a table in the shop database",
    input: z.object({ table: z.string().regex(/^\w+$/) }),
    execute: ({ table }) => {
      const columns = db.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string; type: string }>;
      if (columns.length === 0) throw final(`no such table: ${table}`);
      return columns.map(({ name, type }) => ({ name, type }));
    },
  });
  const convertCurrency = defineTool({
    name: "convert_currency",
    description: "Convert the amounts of rows into one currency with the fx_rates table",
    input: z.object({
      rows: z.array(z.record(z.string(), z.unknown())),
      amount_field: z.string(),
      currency_field: z.string(),
      to: z.string(),
    }),
    execute: ({ rows, amount_field, currency_field, to }) => {
      const rates = new Map(
        (db.prepare("SELECT currency, rate_to_cny FROM fx_rates").all() as Array<{ currency: string; rate_to_cny: number }>).map((rate) => [
          rate.currency,
          rate.rate_to_cny,
        ]),
      );
      const target = rates.get(to);
      if (target === undefined) throw final(`no exchange rate for ${to}`);
      return rows.map((row) => {
        const rate = rates.get(String(row[currency_field]));
        if (rate === undefined) throw final(`no exchange rate for ${String(row[currency_field])}`);
        const converted = Math.round(((Number(row[amount_field]) * rate) / target) * 100) / 100;
        return {
          ...row,
          [amount_field]: converted,
          [currency_field]: to,
          original_amount: row[amount_field],
          original_currency: row[currency_field],
        };
      });
    },
  });
  return [sql, describeTable, convertCurrency];
}
