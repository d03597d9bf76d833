// Tenants at a provider's limit, through runs: a run of tenant "busy" with five agent steps at
// once and a loop of tenant "lone" share one limit; while the first call holds the line (its
// booking held back by the store), every other call waits in it. Once it goes, the lone
// tenant's call is the next the provider sees, before the busy tenant's other four.
import { describe, expect, it, vi } from "vitest";
import { executePlan, memoryLimitStore, openAICompatible, providerLimit, runAgent, type LimitStore, type ModelRequest } from "planloop";

describe("a provider limit shared by two tenants' runs", () => {
  it("gives the lone tenant's call the next turn, ahead of the busy tenant's waiting calls", async () => {
    const inner = memoryLimitStore();
    let open: () => void = () => {};
    const gate = new Promise<void>((resolve) => (open = resolve));
    let bookings = 0;
    const store: LimitStore = {
      ...inner,
      bookNext: async (key, request) => {
        if ((bookings += 1) === 1) await gate;
        return inner.bookNext(key, request);
      },
    };
    const limit = providerLimit({ name: "shared", shared: store });
    const seen: string[] = [];
    const adapter = openAICompatible({
      baseURL: "http://127.0.0.1:9/v1",
      model: "m",
      stream: false,
      limit,
      fetch: async (_url, init) => {
        const body = JSON.parse(String(init?.body)) as { messages: Array<{ content: string }> };
        seen.push(body.messages.some((message) => message.content.includes("lone task")) ? "lone" : "busy");
        const answer = { choices: [{ message: { role: "assistant", content: "done" }, finish_reason: "stop" }] };
        return new Response(JSON.stringify(answer), { headers: { "content-type": "application/json" } });
      },
    });
    const entered: Array<string | undefined> = [];
    const model = {
      ...adapter,
      generate: (request: ModelRequest) => {
        entered.push(request.tenant);
        return adapter.generate(request);
      },
    };
    const plan = { steps: Array.from({ length: 5 }, (_, index) => ({ id: index + 1, task: `busy task ${index + 1}`, depends_on: [] })) };
    const busy = executePlan({ plan, tools: [], model, tenant: "busy", concurrency: 5 });
    await vi.waitFor(() => expect(entered).toHaveLength(5), { timeout: 20_000 });
    const lone = runAgent({ model, tools: [], task: "the lone task", tenant: "lone" });
    await vi.waitFor(() => expect(entered).toHaveLength(6), { timeout: 20_000 });
    await new Promise((resolve) => setImmediate(resolve));
    open();
    const [busyResult, loneResult] = await Promise.all([busy, lone]);
    expect([busyResult.status, loneResult.status]).toEqual(["completed", "completed"]);
    expect(entered.filter((tenant) => tenant === "busy")).toHaveLength(5);
    expect(seen).toEqual(["busy", "lone", "busy", "busy", "busy", "busy"]);
  });
});
