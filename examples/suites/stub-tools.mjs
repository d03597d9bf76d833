// The tools of an example suite: its function schemas (tools.json beside the suite), each a
// stub that says what it was called with. The benchmarks give calls, not the systems behind
// them; record a cassette (planloop bench --record) from real tools to replay real outputs.
import { readFileSync } from "node:fs";
import { defineTool } from "planloop";

export function stubTools(schemas) {
  const specs = JSON.parse(readFileSync(schemas, "utf8"));
  return specs.map((spec) =>
    defineTool({
      name: spec.name,
      description: spec.description,
      input: spec.parameters,
      execute: (args) => ({ ok: true, called: spec.name, with: args }),
    }),
  );
}
