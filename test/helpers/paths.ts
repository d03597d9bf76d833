// Where the tests' own files are: test/ (fixtures/, helpers/) and the repository's root.
import { join } from "node:path";

export const testRoot = join(import.meta.dirname, "..");
export const repoRoot = join(testRoot, "..");
