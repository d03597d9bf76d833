import { existsSync, mkdirSync } from "node:fs";
import { resolve } from "node:path";
import type { CheckpointStore } from "../journal/checkpoint-store.js";
import { postgresStore } from "../stores/postgres/postgres-store.js";
import { sqliteStore } from "../stores/sqlite/sqlite-store.js";
import { MissingPackageError } from "../core/optional-package.js";
import { CliError } from "./cli-error.js";
import type { CliIo } from "./cli-io.js";

import { defaultStore } from "./default-store.js";

// Kept apart so that commands that only name the default (validate, --help) load no store.
export { defaultStore, storeFlag } from "./default-store.js";

/**
 * The store a `--store` flag names, opened and asked once, so that a server that cannot be
 * reached is a one-line error before the run starts rather than a failure inside it.
 */
export async function openStore(flag: string, options: { readonly?: boolean } = {}): Promise<CheckpointStore> {
  let store: CheckpointStore;
  try {
    store = storeFromFlag(flag, options);
  } catch (error) {
    // The driver is missing: what to install, in one line.
    if (error instanceof MissingPackageError) throw new MissingDriverError(error.message);
    throw error;
  }
  try {
    await store.listRuns({ limit: 1 });
  } catch (error) {
    await Promise.resolve(store.close()).catch(() => {});
    throw new CliError(`cannot open the store ${store.location ?? flag}: ${(error as Error).message}`);
  }
  return store;
}

/** The store's driver is not installed: printed as one line, as bad input is. */
class MissingDriverError extends CliError {}

/**
 * The store `run`, `ask` and `demo` keep their run in (undefined with `--no-store`). Where the
 * default SQLite file cannot be opened for want of a driver (Node before 22.5 without
 * better-sqlite3), the run goes on unrecorded and one line says so and what to install; a
 * store the user named is opened or the command fails.
 */
export async function openRunStore(io: CliIo, flag: string | false): Promise<CheckpointStore | undefined> {
  if (flag === false) return undefined;
  try {
    return await openStore(flag);
  } catch (error) {
    if (!(error instanceof MissingDriverError) || flag !== defaultStore || process.env.PLANLOOP_STORE) throw error;
    io.err(
      `planloop: this run is not recorded: Node ${process.versions.node} has no node:sqlite (it came in 22.5) and better-sqlite3 ` +
        "is not installed; npm install better-sqlite3@12 to keep runs, or --no-store to say you know",
    );
    return undefined;
  }
}

/**
 * Where a `--store` flag points, for messages: a SQLite file by its absolute path (a command run
 * from another folder finds another file), a server without its password.
 */
export function storeWhere(flag: string, store: CheckpointStore): string {
  const path = flag.startsWith("sqlite:") ? flag.slice("sqlite:".length) : /\.(sqlite|db)$/.test(flag) ? flag : undefined;
  return path === undefined ? (store.location ?? flag) : `sqlite:${resolve(path)}`;
}

/**
 * `--store sqlite:<path>` (or a path ending in .sqlite / .db), or `postgres://…`, as a
 * checkpoint store; `readonly`: a SQLite file that exists is opened for reading only (the
 * commands that only read runs work on a file they may not write).
 */
export function storeFromFlag(flag: string, options: { readonly?: boolean } = {}): CheckpointStore {
  if (/^postgres(ql)?:\/\//.test(flag)) return postgresStore({ connectionString: flag });
  const path = flag.startsWith("sqlite:") ? flag.slice("sqlite:".length) : /\.(sqlite|db)$/.test(flag) ? flag : undefined;
  if (path === undefined || path === "") {
    throw new CliError(`--store takes sqlite:<path> (e.g. ${defaultStore}) or postgres://…; got "${flag}"`);
  }
  const exists = existsSync(path);
  if (options.readonly && exists) return sqliteStore({ path, readonly: true });
  if (!exists) checkNewStore(flag, path, options);
  const folder = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "";
  if (folder !== "") ensureFolder(folder);
  return sqliteStore({ path });
}

/**
 * A store that does not exist yet is made only where it was meant: a command that only reads
 * runs finds none in a new file (a path mistyped would show an empty list and no reason), and a
 * new file's name ends as a SQLite file's does (`runs.sqlit` is a typo, not a new store).
 */
function checkNewStore(flag: string, path: string, options: { readonly?: boolean }): void {
  if (options.readonly && flag !== defaultStore) {
    throw new CliError(
      `no store at ${resolve(path)}: nothing was kept there; name the store the runs were kept in (--store, or PLANLOOP_STORE; the default is ${defaultStore})`,
    );
  }
  if (path === ":memory:" || path.startsWith("file:") || /\.(sqlite3?|db3?)$/i.test(path)) return;
  throw new CliError(
    `--store ${flag}: there is no file at ${resolve(path)}, and a new store's name ends in .sqlite or .db — a typo? Name an existing store, or a new file such as ${defaultStore}`,
  );
}

function ensureFolder(folder: string): void {
  try {
    // Private to its owner, as the file in it is (runs hold tools' arguments and outputs).
    mkdirSync(folder, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new CliError(`cannot create ${folder} for the store: ${(error as Error).message}`);
  }
}
