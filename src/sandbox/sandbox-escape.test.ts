import { describe, expect, it } from "vitest";
import type { HostCall, HostReply } from "./program-outcome.js";
import { runProgram } from "./run-program.js";

/*
 * The program is an attacker. Each test tries a known way out of a JavaScript sandbox and
 * checks that the program sees only its own realm: the host's `process` is the prize.
 */

const reachesProcess = "typeof process !== 'undefined'";

async function returned(source: string, reply: (call: HostCall) => HostReply = () => ({ value: null })): Promise<unknown> {
  const outcome = await runProgram({ source, tools: ["probe"], call: async (call) => reply(call) });
  if (outcome.kind !== "returned") throw new Error(`expected a result, got ${JSON.stringify(outcome)}`);
  return outcome.value;
}

describe("the sandbox against a hostile program", () => {
  it("has no process, require, module, timers, fetch or WebAssembly", async () => {
    const names = ["process", "require", "module", "exports", "Buffer", "setTimeout", "setImmediate", "fetch", "WebAssembly", "std", "os"];
    const value = await returned(`return ${JSON.stringify(names)}.map((name) => typeof globalThis[name]);`);
    expect(value).toEqual(names.map(() => "undefined"));
  });

  it("cannot import a module, statically or with import()", async () => {
    expect(await returned("try { await import('node:fs'); return 'loaded'; } catch (error) { return String(error); }")).toMatch(
      /could not load module/,
    );
    const outcome = await runProgram({ source: "import fs from 'fs'; return 1;", tools: [], call: async () => ({ value: null }) });
    expect(outcome).toMatchObject({ kind: "failed", error: { kind: "syntax" } });
  });

  it("finds only its own Function through constructor.constructor, eval and Function('return this')", async () => {
    const value = await returned(`return [
      (() => {}).constructor.constructor("return ${reachesProcess}")(),
      (async () => {}).constructor("return ${reachesProcess}")() instanceof Promise,
      eval("${reachesProcess}"),
      Function("return this")() === globalThis,
      tools.probe.constructor.constructor("return ${reachesProcess}")(),
      Object.getPrototypeOf(tools) === null,
    ];`);
    expect(value).toEqual([false, true, false, true, false, true]);
  });

  it("gets nothing from Error.prepareStackTrace when a host-made error passes through", async () => {
    const value = await returned(
      `const seen = [];
      Error.prepareStackTrace = (error, frames) => { seen.push(frames); return "stolen"; };
      Error.captureStackTrace?.({});
      try { await tools.probe({}); } catch (error) {
        seen.push(error.stack);
        return [seen.some((frames) => Array.isArray(frames) && frames.some((frame) => typeof frame?.getThis === "function")),
          String(error.stack).includes("stolen"), error.constructor === Error];
      }`,
      () => ({ error: { message: "failed on purpose" } }),
    );
    expect(value).toEqual([false, false, true]);
  });

  it("hands the host plain data: Symbol tricks, toJSON and getters run in the guest only", async () => {
    const received: unknown[] = [];
    const value = await returned(
      `const tricky = {
        [Symbol.toPrimitive]() { return "primitive"; },
        [Symbol.for("nodejs.util.inspect.custom")]() { return "inspected"; },
        [Symbol.iterator]: function* () { yield 1; },
        get secret() { return "read in the guest"; },
        nested: { toJSON() { return "as JSON"; } },
      };
      await tools.probe(tricky);
      return tricky;`,
      (call) => {
        received.push(call.args);
        return { value: null };
      },
    );
    expect(received).toEqual([{ secret: "read in the guest", nested: "as JSON" }]);
    const sent = received[0] as object;
    expect(Object.getPrototypeOf(sent)).toBe(Object.prototype);
    expect(Object.values(Object.getOwnPropertyDescriptors(sent)).every((property) => "value" in property)).toBe(true);
    expect(Object.getOwnPropertySymbols(sent)).toEqual([]);
    expect(value).toEqual({ secret: "read in the guest", nested: "as JSON" });
  });

  it("gets a copy of a tool's result: the host's getters, methods and prototypes stay home", async () => {
    let reads = 0;
    class Account {
      balance = 10;
      withdraw(): void {}
    }
    const account = new Account();
    Object.defineProperty(account, "audited", { get: () => (reads += 1) > 0, enumerable: true });
    const value = await returned(
      `const account = await tools.probe({});
      return [account.balance, account.audited, account.audited, typeof account.withdraw, Object.getPrototypeOf(account) === Object.prototype,
        account.constructor.constructor("return ${reachesProcess}")()];`,
      () => ({ value: account }),
    );
    expect(value).toEqual([10, true, true, "undefined", true, false]);
    expect(reads).toBe(1);
  });

  it("cannot pollute the host's prototypes or the sandbox's own JSON reading", async () => {
    const value = await returned(
      `Object.prototype.polluted = "yes";
      Array.prototype.push = () => { throw new Error("hijacked"); };
      JSON.parse = () => "forged";
      return (await tools.probe({})).rows.length;`,
      () => ({ value: { rows: [1, 2, 3] } }),
    );
    expect(value).toBe(3);
    expect(({} as { polluted?: string }).polluted).toBeUndefined();
    const list: number[] = [];
    expect(list.push(1)).toBe(1);
  });

  it("cannot replace the tools or reach the host functions behind them", async () => {
    const value = await returned(`
      const before = tools.probe;
      try { tools.probe = () => "mine"; } catch {}
      try { globalThis.tools = {}; } catch {}
      let caller;
      try { caller = typeof tools.probe.caller; } catch (error) { caller = error.name; }
      return [tools.probe === before, typeof hostCall, typeof hostLog, Object.getOwnPropertyNames(globalThis).filter((name) => /host/i.test(name)), caller];
    `);
    expect(value).toEqual([true, "undefined", "undefined", [], "TypeError"]);
  });

  it("leaves nothing behind for the next program: each runs in a fresh runtime", async () => {
    await returned("globalThis.leftBehind = 'yes'; Object.prototype.polluted = 'yes'; Math.random = () => 0; return 1;");
    expect(await returned("return [typeof leftBehind, ({}).polluted, Math.random() === 0];")).toEqual(["undefined", null, false]);
  });

  it("stops a getter on the returned object that never ends, and one that throws", async () => {
    const looping = await runProgram({
      source: "return { get forever() { for (;;) {} } };",
      tools: [],
      call: async () => ({ value: null }),
      limits: { sliceMs: 50 },
    });
    expect(looping).toMatchObject({ kind: "failed", error: { kind: "slice" } });
    const throwing = await runProgram({
      source: "return { get boom() { throw new Error('no'); } };",
      tools: [],
      call: async () => ({ value: null }),
    });
    expect(throwing).toMatchObject({ kind: "failed", error: { kind: "thrown", message: expect.stringContaining("Error: no") } });
  });
});
