import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { jsonSchemaCheck } from "./json-schema-check.js";

/**
 * The official JSON-Schema-Test-Suite's required tests (not `optional/`), as Debian packages it
 * (`apt-get install json-schema-test-suite`; `.ci/run` installs it): every case of draft-07 and
 * draft-06 through planloop's checker, with the draft named in the schema as a tool would.
 */
const suiteRoot = "/usr/share/json-schema-test-suite/tests";
const installed = existsSync(suiteRoot);

interface SuiteGroup {
  description: string;
  schema: unknown;
  tests: Array<{ description: string; data: unknown; valid: boolean }>;
}

/** Cases that need documents from the suite's own web server (localhost:1234), which a tool's schema cannot reach. */
const needsRemotes = new Set(["refRemote.json"]);

/**
 * Where Ajv's verdict differs from the suite's on purpose: Ajv 8 applies keywords beside a `$ref`
 * in every draft, while drafts up to 7 ignore them; for a tool's arguments that is the stricter reading.
 */
const knownDeviations = new Set(["ref.json / ref overrides any sibling keywords / ref valid, maxItems ignored"]);

function runSuite(draft: string, metaSchema: string) {
  const folder = path.join(suiteRoot, draft);
  let passed = 0;
  const failures: string[] = [];
  const deviations: string[] = [];
  for (const file of readdirSync(folder).filter((name) => name.endsWith(".json") && !needsRemotes.has(name))) {
    const groups = JSON.parse(readFileSync(path.join(folder, file), "utf8")) as SuiteGroup[];
    for (const group of groups) {
      const schema = typeof group.schema === "boolean" ? group.schema : { $schema: metaSchema, ...(group.schema as object) };
      let check: ReturnType<typeof jsonSchemaCheck>;
      try {
        check = jsonSchemaCheck(schema as Record<string, unknown>);
      } catch (error) {
        for (const test of group.tests) failures.push(`${file} / ${group.description} / ${test.description}: ${(error as Error).message}`);
        continue;
      }
      for (const test of group.tests) {
        const name = `${file} / ${group.description} / ${test.description}`;
        if (check(test.data).ok === test.valid) passed += 1;
        else if (knownDeviations.has(name)) deviations.push(name);
        else failures.push(`${name}: expected ${test.valid ? "valid" : "invalid"}`);
      }
    }
  }
  return { passed, failures, deviations };
}

describe.skipIf(!installed)("the JSON-Schema-Test-Suite's required tests", () => {
  it.each([
    ["draft7", "http://json-schema.org/draft-07/schema#"],
    ["draft6", "http://json-schema.org/draft-06/schema#"],
  ])("%s: every case gets the suite's verdict", (draft, metaSchema) => {
    const { passed, failures, deviations } = runSuite(draft, metaSchema);
    console.log(`JSON-Schema-Test-Suite ${draft}: ${passed} passed, ${failures.length} failed, ${deviations.length} known deviation`);
    expect(failures).toEqual([]);
    expect(deviations).toEqual([...knownDeviations]);
    expect(passed).toBeGreaterThan(300);
  });
});

// CI installs the suite: there, its absence is a failure, not a skip.
it.runIf(process.env.CI === "true")("the JSON-Schema-Test-Suite is installed (apt-get install json-schema-test-suite)", () => {
  expect(installed).toBe(true);
});
