// A store's writer can roll a finished, signed run back to an earlier signed point (issue 44
// item 16): the signatures cannot tell, an anchor kept outside the store can.
import { copyFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkRunAnchor, executePlan, runAnchor } from "planloop";
import { sqliteStore } from "planloop/sqlite";
import { approvedRefund, refundPlan, refundTool } from "../helpers/refund-tool.js";

const stateSecret = "a secret of at least sixteen characters";
const { refund: pay } = refundTool();
const plan = refundPlan;

describe("run anchors", () => {
  it("tell a finished run from the same run rolled back to its signed, waiting past", async () => {
    const dir = mkdtempSync(join(tmpdir(), "planloop-anchor-"));
    const path = join(dir, "runs.sqlite");
    let store = sqliteStore({ path });
    const waiting = await executePlan({ plan, tools: [pay], store, runId: "wire", stateSecret });
    expect(waiting.status).toBe("waiting");
    await expect(runAnchor({ store, runId: "wire", stateSecret })).rejects.toThrow(/has not finished/);
    await store.close();
    copyFileSync(path, join(dir, "waiting.sqlite"));

    store = sqliteStore({ path });
    const done = await executePlan({ plan, tools: [pay], store, runId: "wire", stateSecret, approvals: approvedRefund });
    expect(done.status).toBe("completed");
    const anchor = await runAnchor({ store, runId: "wire", stateSecret });
    await checkRunAnchor({ store, runId: "wire", stateSecret, anchor });
    await store.close();

    // The writer puts the older, validly signed file back: every signature still checks.
    copyFileSync(join(dir, "waiting.sqlite"), path);
    store = sqliteStore({ path });
    expect((await store.getRun("wire"))?.status).toBe("running");
    await expect(checkRunAnchor({ store, runId: "wire", stateSecret, anchor })).rejects.toThrow(/it was rolled back/);
    await expect(checkRunAnchor({ store, runId: "gone", stateSecret, anchor })).rejects.toThrow(/gone from the store/);
    await store.close();
  });
});
