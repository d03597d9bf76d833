// docs/server.md's "Decisions, one or many" snippet, run as written against a real server: it
// decides one call, then the wave the run waits for next. Deciding the wave before the run has
// paused again is a 400 (nothing pending yet) or a 409 (the first call again), so the snippet
// must wait for the pause; this test fails if it does not.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, memoryStore, type CheckpointStore } from "planloop";
import { planloopClient } from "planloop/client";
import { startRunServer, type RunServer } from "../../src/server/start-server.js";
import { repoRoot } from "../helpers/paths.js";

let server: RunServer | undefined;
let store: CheckpointStore | undefined;
afterEach(async () => {
  await server?.close({ abortRuns: true });
  await store?.close();
  server = store = undefined;
});

/** A refund that needs approval and, like a real one, takes a moment: the snippet's next request comes while it runs. */
function slowRefund() {
  const refunds: string[] = [];
  const refund = defineTool({
    name: "refund",
    description: "Refund an order",
    input: z.object({ order: z.string() }),
    needsApproval: true,
    execute: async ({ order }) => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      refunds.push(order);
      return `refunded ${order}`;
    },
  });
  return { refund, refunds };
}

// Step 4 needs approval; once it ran, three refunds wait at once: the wave.
const plan = {
  steps: [
    { id: 4, task: "refund A4", tool: "refund", args: { order: "A4" } },
    ...[5, 6, 7].map((id) => ({ id, task: `refund A${id}`, tool: "refund", args: { order: `A${id}` }, depends_on: [4] })),
  ],
};

/** The section's TypeScript snippet, as JavaScript, with its import left to the test. */
function snippet(): string {
  const text = readFileSync(join(repoRoot, "docs", "server.md"), "utf8");
  const section = text.slice(text.indexOf("## Decisions, one or many"));
  const code = /```ts\n([\s\S]*?)```/.exec(section)![1]!;
  expect(code).toContain('import { planloopClient } from "planloop/client";');
  const body = code.replace(/^import .*$/m, "");
  return ts.transpileModule(body, { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext } }).outputText;
}

describe("docs/server.md: decide one, then the wave", () => {
  it("runs as written: the one call, then the three of the wave, each once", async () => {
    store = memoryStore();
    const { refund, refunds } = slowRefund();
    server = await startRunServer({ store, tools: [refund], pollMs: 20 });
    const client = planloopClient({ url: server.url, token: server.sessionToken! });
    await client.start({ plan, runId: "weekly" });
    for await (const event of client.stream("weekly")) if (event.type === "run-paused") break;
    // The snippet, with this server's address and token where it names its own.
    const code = snippet().replace('"http://127.0.0.1:4545"', JSON.stringify(server.url));
    const environment = { ...process.env, PLANLOOP_TOKEN: server.sessionToken! };
    const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (
      ...names: string[]
    ) => (...values: unknown[]) => Promise<void>;
    await new AsyncFunction("planloopClient", "process", code)(planloopClient, { env: environment });
    for await (const _ of client.stream("weekly"));
    const view = await client.get("weekly");
    expect(view.status).toBe("completed");
    expect(view.decisions.map((decision) => decision.id)).toEqual(["step:4", "step:5", "step:6", "step:7"]);
    expect(refunds.sort()).toEqual(["A4", "A5", "A6", "A7"]);
  });
});
