import type BetterSqlite3 from "better-sqlite3";
import { loadOptionalPackage } from "../core/optional-package.js";
import type { DemoData } from "./demo-data.js";

export type DemoDatabase = BetterSqlite3.Database;

/**
 * Creates the demo's SQLite database at `path` (replacing one that is there) and fills it.
 * The refunds table's amount column is called `refund_amount`: it was renamed last month.
 */
export function createDemoDatabase(path: string, data: DemoData): DemoDatabase {
  const Database = loadOptionalPackage<typeof BetterSqlite3>({
    name: "better-sqlite3",
    neededFor: "the demo's database",
    install: "better-sqlite3@12",
  });
  const db = new Database(path);
  db.exec(`
    DROP TABLE IF EXISTS orders; DROP TABLE IF EXISTS refunds; DROP TABLE IF EXISTS tickets; DROP TABLE IF EXISTS fx_rates;
    CREATE TABLE orders (id INTEGER PRIMARY KEY, customer TEXT NOT NULL, total_cny REAL NOT NULL, created_at TEXT NOT NULL);
    CREATE TABLE refunds (id INTEGER PRIMARY KEY, order_id INTEGER NOT NULL, refund_amount REAL NOT NULL, currency TEXT NOT NULL, reason TEXT NOT NULL, created_at TEXT NOT NULL);
    CREATE TABLE tickets (id INTEGER PRIMARY KEY, order_id INTEGER NOT NULL, category TEXT NOT NULL, created_at TEXT NOT NULL);
    CREATE TABLE fx_rates (currency TEXT PRIMARY KEY, rate_to_cny REAL NOT NULL);
  `);
  const insert = (table: string, rows: ReadonlyArray<Record<string, unknown>>) => {
    if (rows.length === 0) return;
    const columns = Object.keys(rows[0]!);
    const statement = db.prepare(
      `INSERT INTO ${table} (${columns.join(", ")}) VALUES (${columns.map((column) => `@${column}`).join(", ")})`,
    );
    db.transaction(() => rows.forEach((row) => statement.run(row)))();
  };
  insert("orders", data.orders);
  insert("refunds", data.refunds);
  insert("tickets", data.tickets);
  insert("fx_rates", data.fxRates);
  return db;
}
