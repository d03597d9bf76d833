import { describe, expect, it } from "vitest";
import type { HostCall, HostReply } from "./program-outcome.js";
import { runProgram } from "./run-program.js";

/** A host whose tools answer from `answers` (by name), recording every call. */
function host(answers: Record<string, (args: any) => HostReply | Promise<HostReply>>) {
  const calls: HostCall[] = [];
  return {
    calls,
    tools: Object.keys(answers),
    call: async (call: HostCall) => {
      calls.push(call);
      return answers[call.name]!(call.args);
    },
  };
}

describe("runProgram: what a program can do", () => {
  it("calls tools as async functions, in parallel with Promise.all, and returns JSON", async () => {
    let running = 0;
    let most = 0;
    const tools = host({
      add: async ({ x, y }) => {
        running += 1;
        most = Math.max(most, running);
        await new Promise((resolve) => setImmediate(resolve));
        running -= 1;
        return { value: x + y };
      },
    });
    const outcome = await runProgram({
      source:
        "const sums = await Promise.all([1, 2, 3].map((x) => tools.add({ x, y: 10 }))); return { sums, total: sums.reduce((a, b) => a + b, 0) };",
      ...tools,
    });
    expect(outcome).toMatchObject({ kind: "returned", value: { sums: [11, 12, 13], total: 36 } });
    expect(most).toBe(3);
    expect(tools.calls.map((call) => call.args)).toEqual([
      { x: 1, y: 10 },
      { x: 2, y: 10 },
      { x: 3, y: 10 },
    ]);
  });

  it("gives the same Date and Math.random on every run", async () => {
    const source =
      "return [Date.now(), new Date().toISOString(), typeof Date(), new (Object.getPrototypeOf(new Date()).constructor)().getTime(), Math.random(), Math.random()];";
    const first = await runProgram({ source, tools: [], call: async () => ({ value: null }), now: 1_700_000_000_000, seed: 7 });
    const second = await runProgram({ source, tools: [], call: async () => ({ value: null }), now: 1_700_000_000_000, seed: 7 });
    expect(first.kind).toBe("returned");
    expect(second).toEqual({ ...first, cpuMs: second.cpuMs });
    const value = (first as { value: unknown[] }).value;
    expect(value.slice(0, 4)).toEqual([1_700_000_000_000, "2023-11-14T22:13:20.000Z", "string", 1_700_000_000_000]);
    expect(value[4]).not.toBe(value[5]);
    expect(
      await runProgram({ source: "return [typeof WeakRef, typeof FinalizationRegistry]", tools: [], call: async () => ({ value: 0 }) }),
    ).toMatchObject({ value: ["undefined", "undefined"] });
  });

  it("turns a tool's failure into an Error the program can catch, with its kind", async () => {
    const tools = host({ fetch: () => ({ error: { message: '"fetch" failed: 503', kind: "execution_failed" } }) });
    const caught = await runProgram({
      source: "try { await tools.fetch({ url: 'a' }); } catch (error) { return [error.name, error.message, error.kind]; }",
      ...tools,
    });
    expect(caught).toMatchObject({ kind: "returned", value: ["ToolError", '"fetch" failed: 503', "execution_failed"] });
    const uncaught = await runProgram({ source: "await tools.fetch({}); return 1;", ...tools });
    expect(uncaught).toMatchObject({ kind: "failed", error: { kind: "thrown" } });
    expect((uncaught as { error: { message: string } }).error.message).toContain('ToolError: "fetch" failed: 503');
  });

  it("reports a syntax error, a throw with its line, and a promise nothing settles", async () => {
    const call = async () => ({ value: 1 });
    expect(await runProgram({ source: "return 1 +", tools: [], call })).toMatchObject({ kind: "failed", error: { kind: "syntax" } });
    const thrown = await runProgram({ source: "const x = 1;\nthrow new TypeError('no rows for ' + x);", tools: [], call });
    expect(thrown).toMatchObject({ kind: "failed", error: { kind: "thrown" } });
    expect((thrown as { error: { message: string } }).error.message).toMatch(/^TypeError: no rows for 1\n.*<input>:\d+/);
    expect(await runProgram({ source: "throw { code: 7 };", tools: [], call })).toMatchObject({
      error: { kind: "thrown", message: 'the program threw {"code":7}' },
    });
    expect(await runProgram({ source: "await new Promise(() => {}); return 1;", tools: [], call })).toMatchObject({
      kind: "failed",
      error: { kind: "stalled" },
    });
  });

  it("refuses arguments that are not JSON and names that are not tools, and keeps the logs", async () => {
    const tools = host({ echo: (args) => ({ value: args }) });
    const outcome = await runProgram({
      source: [
        "const out = [];",
        "try { await tools.echo(() => 1); } catch (e) { out.push(e.name); }",
        "try { await tools.missing({}); } catch (e) { out.push(String(e)); }",
        "console.log('seen', { n: 1 }, [2]);",
        "out.push(await tools.echo({ n: 1n === 1n, s: 'x' }));",
        "return out;",
      ].join("\n"),
      ...tools,
    });
    expect(outcome).toMatchObject({
      kind: "returned",
      value: ["TypeError", "TypeError: not a function", { n: true, s: "x" }],
      logs: ['seen {"n":1} [2]'],
    });
    expect(tools.calls).toEqual([{ name: "echo", args: { n: true, s: "x" } }]);
  });

  it("stops a result, arguments or logs past the output limit", async () => {
    const tools = host({ echo: (args) => ({ value: args }) });
    const limits = { outputChars: 1_000 };
    expect(await runProgram({ source: "return 'x'.repeat(2000);", ...tools, limits })).toMatchObject({ error: { kind: "output" } });
    const args = await runProgram({
      source: "try { await tools.echo({ s: 'x'.repeat(2000) }) } catch (e) { return e.name }",
      ...tools,
      limits,
    });
    expect(args).toMatchObject({ kind: "returned", value: "RangeError" });
    expect(tools.calls).toEqual([]);
    const logs = await runProgram({ source: "for (let i = 0; i < 100; i++) console.log('y'.repeat(100)); return 1;", ...tools, limits });
    expect(logs).toMatchObject({ kind: "failed", error: { kind: "output" } });
    expect(logs.logs.join("").length).toBeLessThan(1_200);
  });

  it("suspends when a call is parked and nothing else can move; the other calls still finish", async () => {
    const tools = host({
      pay: () => ({ park: true }),
      look: ({ q }) => ({ value: q.toUpperCase() }),
    });
    const outcome = await runProgram({
      source: "const [paid, seen] = await Promise.all([tools.pay({ amount: 5 }), tools.look({ q: 'a' })]); return [paid, seen];",
      ...tools,
    });
    expect(outcome.kind).toBe("suspended");
    expect(tools.calls.map((call) => call.name)).toEqual(["pay", "look"]);
  });

  it("returns only once the host has answered every call, even one the program did not await", async () => {
    let answered = false;
    const tools = host({
      send: async () => {
        for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
        answered = true;
        return { value: "sent" };
      },
    });
    const outcome = await runProgram({ source: "tools.send({}); return 'fired';", ...tools });
    expect(outcome).toMatchObject({ kind: "returned", value: "fired" });
    expect(answered).toBe(true);
  });

  it("ends at once on a stop reply, and on the signal while it awaits", async () => {
    const tools = host({ spend: () => ({ stop: "the tool-call budget is spent" }) });
    const stopped = await runProgram({ source: "for (;;) { try { await tools.spend({}); } catch {} }", ...tools });
    expect(stopped).toMatchObject({ kind: "stopped", reason: "the tool-call budget is spent" });
    expect(tools.calls).toHaveLength(1);
    const controller = new AbortController();
    const slow = host({ wait: () => new Promise<HostReply>(() => setImmediate(() => controller.abort())) });
    expect(await runProgram({ source: "await tools.wait({}); return 1;", ...slow, signal: controller.signal })).toMatchObject({
      kind: "stopped",
    });
  });
});
