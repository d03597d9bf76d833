import { mkdirSync } from "node:fs";
import type { CheckpointStore } from "../core/checkpoint-store.js";
import { sqliteStore } from "../stores/sqlite/sqlite-store.js";
import { CliError } from "./cli-error.js";

/** Where runs are checkpointed when `--store` names no place. */
export const defaultStore = "sqlite:.planloop/runs.sqlite";

/** `--store sqlite:<path>` (or a path ending in .sqlite / .db) as a checkpoint store. */
export function storeFromFlag(flag: string): CheckpointStore {
  const path = flag.startsWith("sqlite:") ? flag.slice("sqlite:".length) : /\.(sqlite|db)$/.test(flag) ? flag : undefined;
  if (path === undefined || path === "") {
    throw new CliError(`--store takes sqlite:<path> (e.g. ${defaultStore}); got "${flag}"`);
  }
  const folder = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "";
  if (folder !== "") ensureFolder(folder);
  return sqliteStore({ path });
}

function ensureFolder(folder: string): void {
  try {
    mkdirSync(folder, { recursive: true });
  } catch (error) {
    throw new CliError(`cannot create ${folder} for the store: ${(error as Error).message}`);
  }
}
