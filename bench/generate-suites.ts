// Writes the offline benchmark suites (fixed seeds) to bench/suites/*.json.
// Run: npm run bench:generate
import { writeFileSync } from "node:fs";
import { generateSuites } from "../src/evals/generate-suites.js";

for (const suite of generateSuites()) {
  const path = new URL(`./suites/${suite.name}.json`, import.meta.url);
  writeFileSync(path, `${JSON.stringify(suite, null, 1)}\n`);
  console.log(`${suite.name}: ${suite.tasks.length} tasks`);
}
