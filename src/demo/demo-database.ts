import type BetterSqlite3 from "better-sqlite3";
import { loadOptionalPackage } from "../core/optional-package.js";
import { builtinSqlite, nodeSqliteDatabase } from "../stores/sqlite/node-sqlite.js";
import type { SqliteDatabase } from "../stores/sqlite/sqlite-database.js";
import type { DemoData } from "./demo-data.js";

/** A SQLite database: node:sqlite's where Node has it (22.5+), else better-sqlite3's. */
export type DemoDatabase = SqliteDatabase;

/**
 * Creates the demo's SQLite database at `path` (replacing one that is there) and fills it.
 * The refunds table's amount column is called `refund_amount`: it was renamed last month.
 */
export function createDemoDatabase(path: string, data: DemoData): DemoDatabase {
  const db = openDatabase(path);
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

function openDatabase(path: string): DemoDatabase {
  const builtin = builtinSqlite();
  if (builtin !== undefined) return nodeSqliteDatabase(builtin, path, false);
  const Database = loadOptionalPackage<typeof BetterSqlite3>({
    name: "better-sqlite3",
    neededFor: "the demo's database on this Node (node:sqlite came in 22.5)",
    install: "better-sqlite3@12",
  });
  return new Database(path);
}
