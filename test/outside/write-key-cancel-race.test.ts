import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, memoryLimitStore, providerLimit, resourceLocks, runAgent, type LimitStore } from "../../src/index.js";
import { oneCallModel } from "./helpers.js";

/**
 * docs/limits.md: write keys make a call wait ("in a process they wait first come first served;
 * across processes the next to try after a resource is let go takes it"), and a wait is where a
 * run is cancelled. A run cancelled while its call waits for its write key must not start the
 * call: the tool writes, and nobody is left to read what it did.
 *
 * The window: the store grants the key while the run is being cancelled (the answer to the
 * store's round trip comes back after the abort).
 */
describe("a run cancelled while its call's write key is being granted", () => {
  it("the tool is not started", async () => {
    const stop = new AbortController();
    const inner = memoryLimitStore();
    const store: LimitStore = {
      ...inner,
      hold: async (key, request) => {
        const granted = await inner.hold(key, request);
        stop.abort(new Error("the person cancelled the run")); // meanwhile, the run is cancelled
        return granted;
      },
    };
    let started = 0;
    const saveRows = defineTool({
      name: "saveRows",
      description: "writes rows",
      input: z.object({ table: z.string() }),
      effect: "side-effecting",
      resources: ({ table }) => [`table:${table}`],
      locks: resourceLocks({ shared: store }),
      execute: async () => {
        started += 1;
        return "saved";
      },
    });
    const result = await runAgent({
      model: oneCallModel("saveRows", { table: "orders" }),
      tools: [saveRows],
      task: "save",
      signal: stop.signal,
    });
    expect(result.status).toBe("cancelled");
    expect(started, "a cancelled run started its side-effecting call").toBe(0);
  });

  // The same window at a tool's `limit` ("every call of the tool takes a turn of the limit before
  // it runs"): the store books the turn while the run is being cancelled.
  it("a tool's limit: the tool is not started when the run is cancelled while its turn is booked", async () => {
    const stop = new AbortController();
    const inner = memoryLimitStore();
    const store: LimitStore = {
      ...inner,
      bookNext: async (key, request) => {
        const turn = await inner.bookNext(key, request);
        stop.abort(new Error("the person cancelled the run"));
        return turn;
      },
    };
    let started = 0;
    const fetchPage = defineTool({
      name: "fetchPage",
      description: "fetches a page",
      input: z.object({ page: z.number() }),
      effect: "side-effecting",
      limit: providerLimit({ name: "partner-api", requestsPerMinute: 120, shared: store }),
      execute: async () => {
        started += 1;
        return "page";
      },
    });
    const result = await runAgent({
      model: oneCallModel("fetchPage", { page: 1 }),
      tools: [fetchPage],
      task: "fetch",
      signal: stop.signal,
    });
    expect(result.status).toBe("cancelled");
    expect(started, "a cancelled run started its call").toBe(0);
  });
});
