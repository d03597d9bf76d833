// `planloop serve` continuing a run whose command stops before the run moves (its tools module
// exits 1 on import): serve tries again after a tick, then twice as long each time, and after five
// failed starts leaves the run alone, the reason shown by `planloop runs list|show`. Before, it
// spawned the command again at every tick, for ever.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cli } from "../helpers/run-cli.js";
import { startCli, type CliProcess } from "../helpers/cli-process.js";
import { logFile, until } from "../helpers/call-log.js";
import { testRoot } from "../helpers/paths.js";

const toolsModule = join(testRoot, "fixtures", "plan-tools.ts");
const tickMs = 50;
const started: CliProcess[] = [];

afterEach(async () => {
  await Promise.all(started.splice(0).map((process) => process.stop("SIGKILL")));
});

describe("planloop serve, a run whose command fails to start", () => {
  it("backs off, leaves the run alone after five failed starts, and runs list and show say why", async () => {
    const dir = mkdtempSync(join(tmpdir(), "planloop-serve-failed-start-"));
    const store = `sqlite:${join(dir, "runs.sqlite")}`;
    process.env.PLANLOOP_TEST_LOG = logFile();
    const plan = join(dir, "plan.json");
    writeFileSync(plan, JSON.stringify({ steps: [{ id: 1, task: "a moment", wait: { forMs: 10 } }] }));
    expect((await cli("run", plan, "--tools", toolsModule, "--store", store, "--run-id", "broken")).code).toBe(3);
    // A tools module that exits 1 as it is loaded: the command ends as a failed run would, having written nothing.
    const exits = join(dir, "exits.mjs");
    writeFileSync(exits, 'console.error("no TOOL_TOKEN set");\nprocess.exit(1);\n');

    const server = startCli(["serve", "--tools", exits, "--store", store, "--tick-ms", String(tickMs)]);
    started.push(server);
    const continued = () => server.lines.filter((line) => line === "run broken: its wait is over; continuing it").length;
    const gaveUp = () => server.lines.some((line) => / left alone from now$/.test(line));
    // Five starts take 50 + 100 + 200 + 400 ms of backoff and five processes. Before the fix it never gave up: a sixth came.
    // Each start is a process loading the CLI: seconds apiece on a busy machine.
    await until(() => gaveUp() || continued() > 5, 200_000);
    // Twenty ticks more: serve spawns nothing for the run.
    await new Promise((resolve) => setTimeout(resolve, 20 * tickMs));
    expect(await server.stop("SIGINT")).toBe(0);

    expect(continued()).toBe(5);
    expect(server.lines.filter((line) => line === "run broken: no TOOL_TOKEN set")).toHaveLength(5);
    const backoffs = server.lines.flatMap((line) => /^run broken: .*; trying again in (\d+) ms \(failed start \d\)$/.exec(line)?.[1] ?? []);
    expect(backoffs.map(Number)).toEqual([50, 100, 200, 400]);
    const reason = "its command stopped before the run moved, 5 times in a row (no TOOL_TOKEN set)";
    expect(server.lines).toContain(`run broken: ${reason}; left alone from now`);

    const shown = (await cli("runs", "show", "broken", "--store", store)).out;
    expect(shown).toContain(`left alone by planloop serve: ${reason} (planloop runs resume broken continues it by hand)`);
    expect((await cli("runs", "list", "--store", store)).out).toMatch(/^broken {2}executePlan {2}\S+ \(left alone by serve\) /m);

    // Continued by hand with tools that load, the run moves: the note no longer shows.
    expect((await cli("runs", "resume", "broken", "--tools", toolsModule, "--store", store)).code).toBe(0);
    expect((await cli("runs", "show", "broken", "--store", store)).out).not.toContain("left alone");
  });
});
