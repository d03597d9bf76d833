// Every BFCL parallel / multiple case (../shared/data/bfcl) as a plan of stub tools whose input is
// the case's own JSON Schema: each tool gets exactly the gold answer's arguments (nothing added
// from a schema's `default`), and the cases whose gold answer breaks its own schema are refused.
import { writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { defineTool, executePlan, type Tool } from "planloop";
import { readBfcl, type BfclCase } from "../helpers/bfcl.js";
import { sharedPath, skipWithout } from "../helpers/shared-data.js";

const dir = sharedPath("data", "bfcl");

/**
 * The cases whose gold answer breaks the schema given with it (the data's fault, each read by
 * hand): a value its enum does not list (a genre, "1" where 1 is sent, a number of rooms, a
 * command in another language's words), a string where an array or number is asked for, null
 * for a string, an array for a property whose enum lists strings, a required parameter the
 * answer leaves out (parameter named otherwise: "question" for "statement").
 */
const brokenByTheData = new Set<string>([
  "live_multiple_1038-265-0",
  "live_multiple_152-58-6",
  "live_multiple_507-149-4",
  "live_multiple_552-153-1",
  "live_multiple_595-158-1",
  "live_multiple_596-158-2",
  "live_multiple_731-167-2",
  "live_multiple_733-167-4",
  "live_multiple_735-167-6",
  "live_multiple_750-169-5",
  "live_multiple_756-169-11",
  "live_multiple_835-178-10",
  "live_multiple_87-38-4",
  "live_multiple_871-182-8",
  "live_multiple_947-197-0",
  "live_multiple_964-207-0",
  "live_parallel_multiple_2-2-0",
  "parallel_multiple_21",
  "parallel_multiple_94",
]);

const toolName = (name: string) => name.replace(/[^A-Za-z0-9_-]/g, "_");

async function runCase(testCase: BfclCase) {
  const received: Array<{ tool: string; args: unknown }> = [];
  const tools: Tool[] = testCase.functions.map((fn) =>
    defineTool({
      name: toolName(fn.name),
      description: fn.description,
      input: { ...fn.parameters, type: "object" } as never,
      execute: (args: unknown) => (received.push({ tool: toolName(fn.name), args }), "ok"),
    }),
  );
  const steps = testCase.calls.map((call, index) => ({ id: index + 1, task: call.name, tool: toolName(call.name), args: call.args }));
  // Arguments a tool's schema refuses make the plan invalid before any step runs.
  const result = await executePlan({ plan: { steps }, tools, concurrency: steps.length }).catch((error: unknown) => error as Error);
  return { result, received };
}

describe.skipIf(skipWithout(dir))("BFCL's function schemas (needs ../shared/data/bfcl)", () => {
  const cases = skipWithout(dir) ? [] : readBfcl(dir);

  it("reads all 1,693 cases", () => {
    expect(cases).toHaveLength(1_693);
  });

  it("gives every tool exactly the gold answer's arguments; refuses only the cases whose gold answer breaks its schema", async () => {
    const refused: Record<string, string> = {};
    const altered: string[] = [];
    for (const testCase of cases) {
      const { result, received } = await runCase(testCase);
      if (result instanceof Error) {
        refused[testCase.id] = result.message;
        continue;
      }
      expect(result.status).toBe("completed");
      const sent = testCase.calls.map((call) => ({ tool: toolName(call.name), args: call.args }));
      const byTool = (list: Array<{ tool: string; args: unknown }>) =>
        [...list].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
      if (JSON.stringify(byTool(received)) !== JSON.stringify(byTool(sent))) altered.push(testCase.id);
    }
    if (process.env.BFCL_REPORT) writeFileSync(process.env.BFCL_REPORT, JSON.stringify({ refused, altered }, null, 1));
    expect(altered).toEqual([]);
    expect(Object.keys(refused).sort()).toEqual([...brokenByTheData].sort());
    // 5,568 schemas, each compiled by Ajv (about 0.5 ms each here), on a machine that may be busy.
  });
});
