// A test's own connection to a SQLite file a store in the same process has open: through the
// same SQLite library the store uses (node:sqlite where Node has it, else better-sqlite3). Two
// copies of SQLite in one process do not see each other's locks: one closing its connection
// can take the WAL away from under the other (sqlite.org/howtocorrupt.html, §2.2).
import Database from "better-sqlite3";
import { builtinSqlite, nodeSqliteDatabase } from "../../src/stores/sqlite/node-sqlite.js";
import type { SqliteDatabase } from "../../src/stores/sqlite/sqlite-database.js";

export function openSqliteFile(path: string): SqliteDatabase {
  const builtin = builtinSqlite();
  return builtin === undefined ? new Database(path) : nodeSqliteDatabase(builtin, path, false);
}
