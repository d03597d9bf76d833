/**
 * The part of a SQLite database the store, its migrations and the demo use, met by
 * better-sqlite3's `Database` and by planloop's adapter over `node:sqlite`. Declared here so
 * that planloop's published types name no optional package: a project without
 * better-sqlite3 (Node 22.5+, on node:sqlite) type-checks with `skipLibCheck: false`.
 */
export interface SqliteDatabase {
  prepare<Params extends unknown[] = unknown[], Row = unknown>(sql: string): SqliteStatement<Params, Row>;
  exec(sql: string): unknown;
  transaction(fn: () => void): SqliteTransaction;
  close(): unknown;
  readonly open: boolean;
}

/** A function run in a transaction: `BEGIN` when called, `BEGIN IMMEDIATE` by `.immediate`. */
export interface SqliteTransaction {
  (): void;
  immediate(): void;
}

export interface SqliteStatement<Params extends unknown[] = unknown[], Row = unknown> {
  run(...params: Params): { changes: number | bigint };
  get(...params: Params): Row | undefined;
  all(...params: Params): Row[];
  /** Whether the statement returns rows (a query), not a change. */
  readonly reader: boolean;
}
