import { describe, expect, it } from "vitest";
import type { StoredRun } from "../journal/checkpoint-store.js";
import { standing } from "../strategies/stored-runs.js";
import { rowOf, summaryOf } from "./run-rows.js";

/** A finished run whose answer had `unsupported` claims its steps do not support, under `status`. */
const finished = (status: string, unsupported: number): StoredRun => ({
  runId: `r-${status}-${unsupported}`,
  entry: "planAndExecute",
  status: "finished",
  result: { status, provenance: { policy: "flag", counts: { claims: 3, supported: 3 - unsupported, unsupported, uncited: 0 } } },
  createdAt: 1,
  updatedAt: 2,
  journal: [],
});

describe("a run's row marks a completed answer with unsupported claims", () => {
  it("in the ui's and the API's rows, and in planloop runs list's status", () => {
    const flagged = finished("completed", 2);
    expect(rowOf(summaryOf(flagged), flagged, [])).toMatchObject({ status: "completed", unsupportedClaims: 2 });
    expect(standing(flagged, []).status).toBe("completed (2 unsupported claims)");
    for (const plain of [finished("completed", 0), finished("incomplete", 2)]) {
      expect(rowOf(summaryOf(plain), plain, [])).not.toHaveProperty("unsupportedClaims");
      expect(standing(plain, []).status).toBe(plain.result && (plain.result as { status: string }).status);
    }
  });
});
