import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, executePlan, memoryLimitStore, resourceLocks, type LimitStore } from "../../src/index.js";

/**
 * docs/limits.md, "Write keys, clocks and lost holds":
 *   "the call's signal is aborted with a `WriteKeyLostError` naming the key, and the call ends
 *    failed with its message (`"saveRows" failed: the hold on write key "table:orders" was lost
 *    while the call ran (…)`); a side-effecting tool's step is not run again on its own, an
 *    idempotent one's is, once it holds the key again"
 */

/** A store whose first holder finds its hold lost at its first renewal (another took the key meanwhile). */
function storeThatLosesTheFirstHold(): LimitStore {
  const inner = memoryLimitStore();
  let first: string | undefined;
  return {
    ...inner,
    hold: async (key, request) => {
      first ??= request.holder;
      return inner.hold(key, request);
    },
    renew: async (key, request) => (request.holder === first ? false : inner.renew(key, request)),
  };
}

function saveRows(kind: { effect: "side-effecting" } | { idempotent: true }, attempts: { count: number }) {
  return defineTool({
    name: "saveRows",
    description: "writes rows",
    input: z.object({ table: z.string() }),
    resources: ({ table }) => [`table:${table}`],
    locks: resourceLocks({ shared: storeThatLosesTheFirstHold(), holdMs: 150 }),
    ...kind,
    execute: async (_args, { signal }) => {
      attempts.count += 1;
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, 600);
        signal.addEventListener("abort", () => (clearTimeout(timer), reject(signal.reason)), { once: true });
      });
      return "saved";
    },
  });
}

const plan = { steps: [{ id: 1, task: "save the rows", tool: "saveRows", args: { table: "orders" } }] };

describe("a step whose write key's hold was lost", () => {
  it("side-effecting: fails naming the key, not run again", async () => {
    const attempts = { count: 0 };
    const result = await executePlan({ plan, tools: [saveRows({ effect: "side-effecting" }, attempts)] });
    expect(attempts.count).toBe(1);
    expect(result.status).not.toBe("completed");
    expect(JSON.stringify(result)).toContain('the hold on write key \\"table:orders\\" was lost while the call ran');
  });

  it("idempotent: run again once it holds the key again, and completes", async () => {
    const attempts = { count: 0 };
    const result = await executePlan({ plan, tools: [saveRows({ idempotent: true }, attempts)] });
    expect(attempts.count).toBe(2);
    expect(result.status).toBe("completed");
  });
});
