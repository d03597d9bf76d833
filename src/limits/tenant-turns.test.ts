import { describe, expect, it } from "vitest";
import { memoryLimitStore } from "../core/limit-store.js";
import { openAICompatible } from "../models/openai-compatible.js";
import { providerLimit, type ProviderLimit } from "./provider-limit.js";

/** Asks for a turn for each tenant named (undefined: no tenant), all at once; the order the turns came in. */
async function turnsFor(limit: ProviderLimit, tenants: Array<string | undefined>): Promise<Array<string | undefined>> {
  const order: Array<string | undefined> = [];
  await Promise.all(
    tenants.map(async (tenant) => {
      const release = await limit.turn(undefined, undefined, { tenant });
      order.push(tenant);
      release();
    }),
  );
  return order;
}

describe("tenants' turns at a provider's limit", () => {
  it("gives the next turn to a lone tenant's call, not to the tenant with many waiting", async () => {
    const limit = providerLimit({ name: "p", shared: memoryLimitStore() });
    const order = await turnsFor(limit, ["busy", "busy", "busy", "busy", "busy", "lone"]);
    expect(order).toEqual(["busy", "lone", "busy", "busy", "busy", "busy"]);
    // Without tenants the line is first come, first served: the lone call goes last.
    const anonymous = providerLimit({ name: "q", shared: memoryLimitStore() });
    const plain: string[] = [];
    await Promise.all(
      ["busy", "busy", "busy", "busy", "busy", "lone"].map(async (who) => {
        (await anonymous.turn())();
        plain.push(who);
      }),
    );
    expect(plain.at(-1)).toBe("lone");
  });

  it("shares turns by weight, a tenant named __proto__ too", async () => {
    const limit = providerLimit({
      name: "p",
      shared: memoryLimitStore(),
      tenantWeights: JSON.parse(`{"__proto__": 2}`) as Record<string, number>,
    });
    const tenants = [...Array.from({ length: 12 }, () => "__proto__"), ...Array.from({ length: 12 }, () => "plain")];
    const order = await turnsFor(limit, tenants);
    const first = order.slice(0, 12);
    expect(first.filter((each) => each === "__proto__")).toHaveLength(8);
    expect(first.filter((each) => each === "plain")).toHaveLength(4);
  });

  it("does not let an idle tenant save up turns: it comes back level with the others, not ahead", async () => {
    const limit = providerLimit({ name: "p", shared: memoryLimitStore() });
    // "early" had many turns while "late" was idle; then both wait with many calls.
    await turnsFor(
      limit,
      Array.from({ length: 20 }, () => "early"),
    );
    const order = await turnsFor(limit, [...Array.from({ length: 6 }, () => "early"), ...Array.from({ length: 6 }, () => "late")]);
    // Taking turns by share from then on: "late" does not get its 20 missed turns in a row.
    expect(order.slice(0, 6).filter((each) => each === "early").length).toBeGreaterThanOrEqual(2);
  });

  it("with a rate, books by the tenants' rule in the store: a lone tenant's call is next but one, however many processes a busy one has", async () => {
    const shared = memoryLimitStore();
    // Limit objects on one store stand for processes: three of tenant busy, one of tenant lone; turns 50 ms apart.
    const limit = () => providerLimit({ name: "p", rate: { requests: 20, perMs: 1000 }, shared });
    const order: string[] = [];
    const busy = [limit(), limit(), limit()].flatMap((process) =>
      Array.from({ length: 3 }, async () => {
        (await process.turn(undefined, undefined, { tenant: "busy" }))();
        order.push("busy");
      }),
    );
    // The lone tenant asks once the busy one's first turn has gone.
    while (order.length === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    const servedBefore = order.length;
    const lone = limit()
      .turn(undefined, undefined, { tenant: "lone" })
      .then((release) => (release(), order.push("lone")));
    await Promise.all([...busy, lone]);
    // At most one busy turn was booked ahead when it asked; booked first come, first served,
    // each busy process's next turn would be ahead of it (three).
    expect(order.indexOf("lone") - servedBefore).toBeLessThanOrEqual(1);
    expect(order).toHaveLength(10);
  });

  it("with a rate, a process's tenant is not held behind another it hosts that the store holds back", async () => {
    const shared = memoryLimitStore();
    const limit = () => providerLimit({ name: "p", rate: { requests: 20, perMs: 1000 }, shared });
    // Process A hosts tenant busy and, later, tenant quiet; processes B and C host busy too.
    const [a, b, c] = [limit(), limit(), limit()];
    const order: string[] = [];
    const ask = (process: ProviderLimit, tenant: string) =>
      process.turn(undefined, undefined, { tenant }).then((release) => (release(), order.push(tenant)));
    const busy = [a, b, c].flatMap((process) => Array.from({ length: 4 }, () => ask(process!, "busy")));
    while (order.length < 2) await new Promise((resolve) => setTimeout(resolve, 1));
    const servedBefore = order.length;
    await Promise.all([...busy, ask(a!, "quiet")]);
    expect(order.indexOf("quiet") - servedBefore).toBeLessThanOrEqual(1);
  });

  it("takes a call that gives up out of the line, and the others go on", async () => {
    const limit = providerLimit({ name: "p", shared: memoryLimitStore() });
    const first = await limit.turn(undefined, undefined, { tenant: "a" });
    const stop = new AbortController();
    const quitting = limit.turn(stop.signal, undefined, { tenant: "b" });
    const staying = limit.turn(undefined, undefined, { tenant: "c" });
    stop.abort(new Error("gave up"));
    await expect(quitting).rejects.toThrow("gave up");
    first();
    (await staying)();
  });

  it("reads the tenant from a model request (openAICompatible)", async () => {
    const seen: string[] = [];
    const limit = providerLimit({ name: "p", shared: memoryLimitStore() });
    const model = openAICompatible({
      baseURL: "http://127.0.0.1:9/v1",
      model: "m",
      stream: false,
      limit,
      fetch: async (_url, init) => {
        seen.push(String(JSON.parse(String(init?.body)).messages[0].content));
        return new Response(JSON.stringify({ choices: [{ message: { role: "assistant", content: "ok" }, finish_reason: "stop" }] }), {
          headers: { "content-type": "application/json" },
        });
      },
    });
    const ask = (tenant: string) =>
      model.generate!({
        messages: [{ role: "user", content: tenant }],
        tools: [],
        step: 0,
        purpose: "act",
        signal: new AbortController().signal,
        tenant,
      });
    await Promise.all([ask("busy"), ask("busy"), ask("busy"), ask("busy"), ask("lone")]);
    expect(seen.indexOf("lone")).toBe(1);
  });
});
