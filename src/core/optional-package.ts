import { createRequire } from "node:module";
import { PlanloopError } from "./errors.js";

/** A feature needs a package the program did not install (an optional peer dependency). */
export class MissingPackageError extends PlanloopError {
  readonly packageName: string;

  constructor(packageName: string, neededFor: string, install: string) {
    super(`${neededFor} needs the package "${packageName}": run npm install ${install}`);
    this.name = "MissingPackageError";
    this.packageName = packageName;
  }
}

const requireHere = createRequire(import.meta.url);

/**
 * Loads an optional peer dependency (a driver the core does not need) when a feature first
 * uses it. A missing package is a one-line `MissingPackageError` naming what to install; any
 * other failure to load it (a native build for another Node) is thrown as it is.
 *
 * @example
 * const Database = loadOptionalPackage<typeof BetterSqlite3>({ name: "better-sqlite3", neededFor: "the demo", install: "better-sqlite3@12" });
 */
export function loadOptionalPackage<T>(options: { name: string; neededFor: string; install?: string; module?: string }): T {
  const module = options.module ?? options.name;
  try {
    return requireHere(module) as T;
  } catch (error) {
    if (isMissing(error, module)) throw new MissingPackageError(options.name, options.neededFor, options.install ?? options.name);
    throw error;
  }
}

function isMissing(error: unknown, name: string): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return code === "MODULE_NOT_FOUND" && typeof message === "string" && message.includes(`'${name}'`);
}
