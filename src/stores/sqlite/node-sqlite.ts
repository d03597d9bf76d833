import type BetterSqlite3 from "better-sqlite3";

/** The part of `node:sqlite` the store uses (Node 22.5 and later: no compiler, no download). */
interface NodeSqlite {
  DatabaseSync: new (
    path: string,
    options?: { readOnly?: boolean },
  ) => {
    prepare(sql: string): {
      run(...params: unknown[]): { changes: number | bigint };
      get(...params: unknown[]): unknown;
      all(...params: unknown[]): unknown[];
      /** Node 22.16 and later. */
      columns?(): unknown[];
    };
    exec(sql: string): void;
    close(): void;
    readonly isOpen: boolean;
  };
}

/** `node:sqlite` when this Node has it (without loading anything else); undefined on Node 20. */
export function builtinSqlite(): NodeSqlite | undefined {
  const get = (process as { getBuiltinModule?: (name: string) => unknown }).getBuiltinModule;
  try {
    return get?.("node:sqlite") as NodeSqlite | undefined;
  } catch {
    return undefined; // a Node that has it only behind --experimental-sqlite
  }
}

// The result codes the store reads from an error, by SQLite's extended code: better-sqlite3 names them.
const codeNames: Record<number, string> = {
  5: "SQLITE_BUSY",
  517: "SQLITE_BUSY_SNAPSHOT",
  8: "SQLITE_READONLY",
  13: "SQLITE_FULL",
  1555: "SQLITE_CONSTRAINT_PRIMARYKEY",
  2067: "SQLITE_CONSTRAINT_UNIQUE",
};

/** node:sqlite's error with better-sqlite3's `code`, so the store reads both alike. */
function named(error: unknown): unknown {
  const code = (error as { errcode?: unknown } | null)?.errcode;
  if (typeof code === "number" && codeNames[code] !== undefined) Object.defineProperty(error, "code", { value: codeNames[code] });
  return error;
}

const calling = <T>(call: () => T): T => {
  try {
    return call();
  } catch (error) {
    throw named(error);
  }
};

/**
 * A `node:sqlite` database behind the part of better-sqlite3's API the store and its
 * migrations use (`prepare` with `run`/`get`/`all`/`reader`, `exec`, `pragma`, `transaction` with
 * `.immediate`, `close`, `open`), so one store serves both drivers and each reads the other's
 * files (they are the same SQLite format).
 */
export function nodeSqliteDatabase(sqlite: NodeSqlite, path: string, readonly: boolean): BetterSqlite3.Database {
  const db = new sqlite.DatabaseSync(path, readonly ? { readOnly: true } : {});
  let depth = 0;
  const transaction = (fn: (...args: unknown[]) => unknown) => {
    const as =
      (begin: string) =>
      (...args: unknown[]) => {
        // A transaction inside one (better-sqlite3 nests them as savepoints) is part of the outer one here.
        if (depth > 0) return fn(...args);
        calling(() => db.exec(begin));
        depth += 1;
        try {
          const result = fn(...args);
          db.exec("COMMIT");
          return result;
        } catch (error) {
          if (db.isOpen) db.exec("ROLLBACK");
          throw named(error);
        } finally {
          depth -= 1;
        }
      };
    return Object.assign(as("BEGIN"), { deferred: as("BEGIN"), immediate: as("BEGIN IMMEDIATE"), exclusive: as("BEGIN EXCLUSIVE") });
  };
  const adapter = {
    prepare(sql: string) {
      const statement = calling(() => db.prepare(sql));
      return {
        run: (...params: unknown[]) => calling(() => statement.run(...params)),
        get: (...params: unknown[]) => calling(() => statement.get(...params)),
        all: (...params: unknown[]) => calling(() => statement.all(...params)),
        // better-sqlite3's `reader`: the statement returns rows. A Node without columns() is told by the verb.
        reader: typeof statement.columns === "function" ? statement.columns().length > 0 : /^\s*(select|with|pragma|values)\b/i.test(sql),
      };
    },
    exec: (sql: string) => calling(() => db.exec(sql)),
    pragma(text: string, options: { simple?: boolean } = {}) {
      const rows = calling(() => db.prepare(`PRAGMA ${text}`).all()) as Array<Record<string, unknown>>;
      return options.simple ? Object.values(rows[0] ?? {})[0] : rows;
    },
    transaction,
    close: () => db.close(),
    get open() {
      return db.isOpen;
    },
  };
  return adapter as unknown as BetterSqlite3.Database;
}
