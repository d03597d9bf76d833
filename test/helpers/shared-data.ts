// Material nobody in this project wrote (../shared beside the clone: NESTFUL, BFCL, recorded
// streams, the seed check). A clone without it skips those tests with a line saying what they
// need; .ci/run runs them once more with PLANLOOP_SHARED_DIR naming the folder and
// PLANLOOP_REQUIRE_SHARED=1, under which a missing folder fails instead of skipping.
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";

const root = process.env.PLANLOOP_SHARED_DIR ?? resolve(import.meta.dirname, "..", "..", "..", "shared");
const required = process.env.PLANLOOP_REQUIRE_SHARED === "1";

/** The path of `parts` under the shared folder. */
export function sharedPath(...parts: string[]): string {
  return join(root, ...parts);
}

/** Whether tests that read `path` skip: it is missing and nothing requires it. */
export function skipWithout(path: string): boolean {
  return !existsSync(path) && !required;
}
