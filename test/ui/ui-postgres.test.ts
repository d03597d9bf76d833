// planloop ui over a PostgreSQL store, end to end through the command: a run another process
// started waits in the list and the inbox, a decision taken through the API continues it once
// in the ui's own process, and its page then reads completed.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freshDatabase, skipPostgres } from "../helpers/postgres.js";
import { cli } from "../helpers/run-cli.js";
import { startUiProcess, type UiProcess } from "../helpers/ui-process.js";
import { testRoot } from "../helpers/paths.js";

const toolsModule = join(testRoot, "fixtures", "ui-tools.ts");
let ui: UiProcess | undefined;
afterAll(() => ui?.stop());

describe.skipIf(skipPostgres)("planloop ui over Postgres", () => {
  it("lists a waiting run, takes the approval, continues the run once, and shows it completed", async () => {
    const store = await freshDatabase();
    const dir = mkdtempSync(join(tmpdir(), "planloop-ui-pg-"));
    const log = join(dir, "calls.log");
    process.env.PLANLOOP_TEST_LOG = log;
    const plan = join(dir, "pay.json");
    writeFileSync(
      plan,
      JSON.stringify({
        steps: [
          { id: 1, task: "double", tool: "double", args: { value: 21 } },
          { id: 2, task: "pay", tool: "pay", args: { amount: "$1" }, depends_on: [1] },
        ],
      }),
    );
    expect((await cli("run", plan, "--tools", toolsModule, "--store", store, "--run-id", "pg-pay")).code).toBe(3);
    ui = await startUiProcess(["--store", store, "--tools", toolsModule], { PLANLOOP_TEST_LOG: log });
    const headers = { "x-planloop-token": ui.token, "content-type": "application/json" };
    const get = async (path: string) => (await fetch(`${ui!.base}${path}`, { headers })).json() as Promise<Record<string, never>>;
    expect(await get("api/runs")).toMatchObject({ waiting: [{ runId: "pg-pay", status: "waiting", steps: "1/2" }] });
    expect((await get("api/inbox")).items).toMatchObject([{ runId: "pg-pay", id: "step:2", name: "pay", arguments: { amount: 42 } }]);
    const posted = await fetch(`${ui.base}api/runs/pg-pay/decisions`, {
      method: "POST",
      headers,
      body: JSON.stringify({ pendingId: "step:2", action: "approve" }),
    });
    expect(posted.status).toBe(202);
    let detail: Record<string, { status?: string; state?: string }> = {};
    // The row completes a moment before the ui marks its continuation done: wait for both.
    for (let tries = 0; tries < 600 && (detail.row?.status !== "completed" || detail.continuation?.state === "continuing"); tries++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      detail = await get("api/runs/pg-pay");
      if (detail.continuation?.state === "failed") break;
    }
    expect(detail).toMatchObject({ row: { status: "completed", steps: "2/2" }, continuation: { state: "continued" } });
    expect(readFileSync(log, "utf8")).toBe("double 21 pg-pay/1\npaid 42 pg-pay/2\n");
    expect((await get("api/inbox")).items).toEqual([]);
  });
});
