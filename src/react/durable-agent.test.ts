import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, memoryStore, runAgent, type ModelRequest } from "../index.js";
import { stateFromAgentJournal } from "./durable-agent.js";

const turns = 40;
const pages = defineTool({
  name: "page",
  description: "Read a page",
  input: z.object({ page: z.number() }),
  execute: ({ page }) => `page ${page}: ${"x".repeat(200)}`,
});
// Every seventh page needs a person's word: the loop stops there and is continued by id.
const gated = defineTool({
  name: "gated_page",
  description: "Read a page that needs approval",
  input: z.object({ page: z.number() }),
  needsApproval: true,
  execute: ({ page }) => `gated page ${page}`,
});
const model = ({ step }: ModelRequest) =>
  step >= turns
    ? { type: "final" as const, content: "read them all" }
    : { type: "tool_calls" as const, calls: [{ id: `c${step}`, name: step % 7 === 6 ? "gated_page" : "page", arguments: { page: step } }] };

describe("a durable loop's journal", () => {
  it("keeps each snapshot as the difference from the one before; continued by id, the loop has its whole history", async () => {
    const store = memoryStore();
    const options = { model, tools: [pages, gated], task: "read every page", store, runId: "pages", maxSteps: turns + 1 };
    let result = await runAgent(options);
    let continued = 0;
    while (result.status === "waiting") {
      continued += 1;
      const approvals = Object.fromEntries(result.pending!.map((pending) => [pending.id, { approved: true }]));
      result = await runAgent({ ...options, approvals });
    }
    expect(result.status).toBe("completed");
    expect(continued).toBe(Math.floor(turns / 7));

    const journal = (await store.getRun("pages"))!.journal;
    const snapshots = journal.filter((entry) => entry.kind === "paused");
    const sizes = snapshots.map((entry) => JSON.stringify(entry).length);
    // Each turn adds the same few messages and one counter: the last snapshot is about as large as the fifth.
    expect(Math.max(...sizes.slice(5))).toBeLessThan(2 * sizes[4]!);
    // The journal rebuilt as of the last round's decision: the whole history before it, in order, and every counter.
    const rebuilt = stateFromAgentJournal(journal)!;
    expect(rebuilt.openRound?.step).toBe(turns - 1);
    expect(rebuilt.messages).toEqual(result.messages.slice(0, rebuilt.messages.length));
    expect(rebuilt.messages.filter((message) => message.role === "tool")).toHaveLength(turns - 1);
    expect(Object.keys(rebuilt.progress.calls)).toHaveLength(turns - 1);
  });
});
