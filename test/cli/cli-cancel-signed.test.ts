// `planloop runs cancel` of a run kept with a stateSecret (issue 44 item 14): without the secret
// it refuses, naming PLANLOOP_STATE_SECRET; with it, the cancel is signed, so the run still reads
// as the program's own afterwards rather than as forged.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { executePlan } from "planloop";
import { sqliteStore } from "planloop/sqlite";
import { refundPlan, refundTool } from "../helpers/refund-tool.js";
import { cli } from "../helpers/run-cli.js";

const { refund: pay } = refundTool();
const plan = refundPlan;

afterEach(() => {
  delete process.env.PLANLOOP_STATE_SECRET;
});

describe("planloop runs cancel of a signed run", () => {
  it("refuses without the secret and signs the cancel with it", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "planloop-cancel-signed-")), "runs.sqlite");
    const stateSecret = "a secret of at least sixteen characters";
    const store = sqliteStore({ path });
    expect((await executePlan({ plan, tools: [pay], store, runId: "signed", stateSecret })).status).toBe("waiting");
    await store.close();

    const refused = await cli("runs", "cancel", "signed", "--store", `sqlite:${path}`);
    expect(refused.code).toBe(2);
    expect(refused.err).toContain("set PLANLOOP_STATE_SECRET to it");
    process.env.PLANLOOP_STATE_SECRET = stateSecret;
    expect((await cli("runs", "cancel", "signed", "--store", `sqlite:${path}`)).out).toBe("run signed: cancelled\n");

    const reopened = sqliteStore({ path });
    const read = await executePlan({ plan, tools: [pay], store: reopened, runId: "signed", stateSecret });
    await reopened.close();
    expect(read).toMatchObject({ status: "cancelled", reason: "cancelled with planloop runs cancel" });
  });
});
