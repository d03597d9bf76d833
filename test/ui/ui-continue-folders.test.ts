// planloop ui continues runs by their command lines in its own process, each in the folder its
// run was started in (the process moves there). Two decisions on runs of two folders at once
// went side by side, and a tool of the first ran on in the second's folder; they now go one
// at a time, each tool in its own run's folder from start to end.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { continuing } from "../../src/cli/commands/ui-command.js";
import { createProgram } from "../../src/cli/program.js";
import type { CliIo } from "../../src/cli/cli-io.js";
import { cli } from "../helpers/run-cli.js";
import { testRoot } from "../helpers/paths.js";

const toolsModule = join(testRoot, "fixtures", "plan-tools.ts");

describe("planloop ui continuing runs of two folders", () => {
  it("runs each tool in its own run's folder, from start to end, when both are decided at once", async () => {
    const home = process.cwd();
    const log = join(mkdtempSync(join(tmpdir(), "planloop-folders-")), "log");
    writeFileSync(log, "");
    process.env.PLANLOOP_TEST_LOG = log;
    const store = `sqlite:${join(mkdtempSync(join(tmpdir(), "planloop-folders-store-")), "runs.sqlite")}`;
    const folders: Record<string, string> = {};
    try {
      for (const name of ["a", "b"]) {
        folders[name] = mkdtempSync(join(tmpdir(), `planloop-folder-${name}-`));
        const plan = join(folders[name], "plan.json");
        writeFileSync(plan, JSON.stringify({ steps: [{ id: 1, task: name, tool: "folder", args: { text: name, ms: 300 } }] }));
        // Started in its own folder: its command line is run there again.
        process.chdir(folders[name]);
        expect((await cli("run", plan, "--tools", toolsModule, "--store", store, "--run-id", name)).code).toBe(3);
      }
      process.chdir(home);
      const lines: string[] = [];
      const io: CliIo = {
        stdout: new PassThrough() as unknown as NodeJS.WriteStream,
        stderr: new PassThrough() as unknown as NodeJS.WriteStream,
        out: (line) => lines.push(line),
        err: (line) => lines.push(line),
        exitCode: () => {},
      };
      const rerun = async (argv: string[], other: CliIo = io) => {
        await (await createProgram(other, argv)).parseAsync(argv, { from: "user" });
      };
      const go = continuing(rerun, io, { store, tools: toolsModule });
      await Promise.all(["a", "b"].map((runId) => go({ runId, decision: { pendingId: "step:1", action: "approve" } })));
      const logged = readFileSync(log, "utf8").trim().split("\n");
      for (const name of ["a", "b"]) for (const when of ["start", "end"]) expect(logged).toContain(`${name} ${when} ${folders[name]}`);
    } finally {
      process.chdir(home);
      delete process.env.PLANLOOP_TEST_LOG;
    }
  });
});
