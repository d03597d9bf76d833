import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { InvalidOptionsError } from "../core/errors.js";
import type { BenchSuite, SuiteName } from "./bench-suite.js";

export const suiteNames: readonly SuiteName[] = ["fanout", "chain", "replan"];

/** The committed suites in the package's bench/suites folder (from src/bench or dist/bench alike). */
export function loadSuite(name: string): BenchSuite {
  if (!suiteNames.includes(name as SuiteName))
    throw new InvalidOptionsError(`unknown suite "${name}"; use ${suiteNames.join(", ")} or all`);
  const path = fileURLToPath(new URL(`../../bench/suites/${name}.json`, import.meta.url));
  return JSON.parse(readFileSync(path, "utf8")) as BenchSuite;
}
