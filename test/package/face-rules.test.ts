// The lint rule that keeps run control in one room (issue 53): a face (the CLI, the HTTP API and
// MCP in src/server, the ui) that decides, holds a run's lease or continues a run by calling an
// entry point itself fails lint; the room (src/runs) may, and a face may name the types.
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../helpers/paths.js";

const eslint = new ESLint({ cwd: repoRoot });

/** The rules `source` breaks as if it were the file at `filePath`. */
async function broken(source: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: `${repoRoot}/${filePath}` });
  return result!.messages.map((message) => `${message.ruleId}: ${message.message}`);
}

describe("run control stays in src/runs", () => {
  it("refuses decideRun and RunLease in every face, and executePlan in the HTTP API, MCP and the ui", async () => {
    const decides = 'import { decideRun } from "../runs/decide-run.js";\nexport const use = decideRun;\n';
    const leases = 'import { RunLease } from "../journal/run-lease.js";\nexport const use = RunLease;\n';
    const continues = 'import { executePlan } from "../executor/execute-plan.js";\nexport const use = executePlan;\n';
    for (const face of ["src/server/probe.ts", "src/ui/probe.ts", "src/cli/probe.ts"]) {
      expect(await broken(decides, face)).toEqual([expect.stringContaining("a face decides through src/runs")]);
      expect(await broken(leases, face)).toEqual([expect.stringContaining("a face holds no run's lease")]);
    }
    expect(await broken(continues, "src/server/probe.ts")).toEqual([expect.stringContaining("continue runs through src/runs")]);
    expect(await broken(continues, "src/ui/probe.ts")).toEqual([expect.stringContaining("continue runs through src/runs")]);
    // The CLI is the run's own command line: it starts and continues runs by their entry points.
    expect(await broken(continues.replace("../", "../../"), "src/cli/commands/probe.ts")).toEqual([]);
  });

  it("lets the room do all three, and a face name their types", async () => {
    const room = [
      'import { decideRun } from "./decide-run.js";',
      'import { RunLease } from "../journal/run-lease.js";',
      'import { executePlan } from "../executor/execute-plan.js";',
      "export const use = [decideRun, RunLease, executePlan];",
      "",
    ].join("\n");
    expect(await broken(room, "src/runs/probe.ts")).toEqual([]);
    const types = 'import type { RunLease } from "../journal/run-lease.js";\nexport type Held = RunLease;\n';
    expect(await broken(types, "src/server/probe.ts")).toEqual([]);
  });
});
