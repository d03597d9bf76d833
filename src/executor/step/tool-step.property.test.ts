import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { FakeClock } from "../../testing/fake-clock.js";
import { Budget } from "../../core/budget.js";
import { defineTool, type Tool } from "../../core/tools/define-tool.js";
import type { CallResult, CallScope, GuardedCallOptions } from "../../core/tools/guarded-call.js";
import { guardTools } from "../../core/tools/tool-guard.js";
import { plainCall } from "../../../test/helpers/plain-call.js";
import { startCall } from "./call-in-flight.js";

/*
 * The plan step's call in continuation style (`startCall`) against the plain call the ReAct
 * loop makes (`admitCall`, then `runAdmittedCall`): for random tools that answer at once or
 * later, fail, hang, time out, need approval or authorization, under call limits, a tool-call
 * budget and an abort, both give the same results, count and charge the same calls, use the
 * same human decisions, and call the tools with the same arguments and context.
 */

type Behaviour = "value" | "throw" | "final-throw" | "resolve" | "reject" | "hang";

/** Mostly `usual`, sometimes one of `others`: the plain path is drawn as often as the rest. */
const mostly = <T>(usual: T, ...others: T[]) =>
  fc.oneof({ weight: others.length, arbitrary: fc.constant(usual) }, { weight: others.length, arbitrary: fc.constantFrom(...others) });

const toolArbitrary = fc.record({
  behaviour: fc.constantFrom<Behaviour>("value", "throw", "final-throw", "resolve", "reject", "hang"),
  delayMs: fc.integer({ min: 0, max: 80 }),
  timeoutMs: fc.oneof({ weight: 2, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 100 }) }),
  maxCalls: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
  approval: mostly("none", "approved", "denied", "undecided"),
  authorize: mostly("none", "allow", "deny", "allow-later", "deny-later", "throw"),
});

const scenarioArbitrary = fc.record({
  tools: fc.array(toolArbitrary, { minLength: 1, maxLength: 3 }),
  calls: fc.array(
    fc.record({
      tool: fc.nat(),
      n: fc.integer({ min: -5, max: 5 }),
      parsed: fc.boolean(),
      bad: fc.boolean(),
      // Some calls start later: after other calls ended, after the abort.
      startAtMs: fc.option(fc.integer({ min: 0, max: 150 }), { nil: undefined }),
    }),
    {
      minLength: 1,
      maxLength: 6,
    },
  ),
  abortAtMs: fc.option(fc.integer({ min: 0, max: 120 }), { nil: undefined }),
  maxToolCalls: fc.option(fc.integer({ min: 0, max: 6 }), { nil: undefined }),
  maxOutputChars: fc.constantFrom(Infinity, 3),
});

type Scenario = typeof scenarioArbitrary extends fc.Arbitrary<infer T> ? T : never;
type MakeCall = (options: GuardedCallOptions) => Promise<CallResult>;

/** `startCall` as a promise, for comparing. */
const continuationCall: MakeCall = (options) =>
  new Promise((resolve) => {
    const now = startCall({ ...options, remote: undefined }, { callEnded: resolve });
    if (now !== undefined) resolve(now);
  });

function toolsOf(scenario: Scenario, clock: FakeClock, seen: string[]): Tool[] {
  return scenario.tools.map((spec, position) => {
    const name = `tool${position}`;
    const later = <T>(value: () => T) =>
      new Promise<T>((resolve, reject) =>
        clock.setTimeout(() => {
          try {
            resolve(value());
          } catch (error) {
            reject(error);
          }
        }, spec.delayMs),
      );
    const authorization = (allowed: boolean) => (allowed ? true : { allowed: false, reason: "not this one" });
    return defineTool({
      name,
      description: name,
      input: z.object({ n: z.number().int().min(-3) }),
      ...(spec.timeoutMs === undefined ? {} : { timeoutMs: spec.timeoutMs }),
      ...(spec.maxCalls === undefined ? {} : { maxCalls: spec.maxCalls }),
      ...(spec.approval === "none" ? {} : { needsApproval: true }),
      ...(spec.authorize === "none"
        ? {}
        : {
            authorize: () => {
              if (spec.authorize === "throw") throw new Error("the rule broke");
              if (spec.authorize === "allow" || spec.authorize === "deny") return authorization(spec.authorize === "allow");
              return later(() => authorization(spec.authorize === "allow-later"));
            },
          }),
      execute: ({ n }, context): unknown => {
        seen.push(`${name}(${n}) ${String(context.callId)} step ${context.step} key ${context.idempotencyKey ?? "-"}`);
        switch (spec.behaviour) {
          case "value":
            return { n, text: "abcdef" };
          case "throw":
            throw new Error(`boom ${n}`);
          case "final-throw":
            throw Object.assign(new Error("bad query"), { retryable: false });
          case "resolve":
            return later(() => `later ${n}`);
          case "reject":
            return later(() => {
              throw new Error("later boom");
            });
          case "hang":
            return new Promise<never>(() => {});
        }
      },
    });
  });
}

async function runScenario(scenario: Scenario, make: MakeCall) {
  const clock = new FakeClock();
  const seen: string[] = [];
  const tools = toolsOf(scenario, clock, seen);
  const controller = new AbortController();
  // Every call ends: hanging calls by their timeout or by this abort.
  clock.setTimeout(() => controller.abort(new Error("stopped")), scenario.abortAtMs ?? 500);
  const approvals: CallScope["humans"]["approvals"] = {};
  scenario.calls.forEach((_, index) => {
    const spec = scenario.tools[index % scenario.tools.length]!;
    if (spec.approval === "approved") approvals[`c${index}`] = { approved: true };
    if (spec.approval === "denied") approvals[`c${index}`] = { approved: false, reason: "no" };
  });
  const budget = new Budget(scenario.maxToolCalls === undefined ? {} : { maxToolCalls: scenario.maxToolCalls }, { clock });
  const scope: CallScope = {
    guard: guardTools(tools),
    budget,
    callCounts: {},
    humans: { approvals, answers: {}, used: [] },
    execution: { signal: controller.signal, step: 0, clock, maxOutputChars: scenario.maxOutputChars },
  };
  const results = scenario.calls.map((call, index) => {
    const tool = tools[call.tool % tools.length]!;
    const args = { n: call.n };
    const approval = scenario.tools[call.tool % tools.length]!.approval;
    const start = () =>
      make({
        scope,
        call: { id: `c${index}`, name: call.bad ? "missing" : tool.name, arguments: args, idempotencyKey: `run/${index}` },
        step: index % 2,
        ...(call.parsed && call.n >= -3 && !call.bad ? { parsedTool: tool, parsedArgs: args } : {}),
        ...(approval === "none" ? {} : { waiting: { kind: "approval" as const, key: `c${index}` } }),
      });
    if (call.startAtMs === undefined) return start();
    return new Promise<CallResult>((resolve) => clock.setTimeout(() => resolve(start()), call.startAtMs!));
  });
  const ended = await clock.run(Promise.all(results));
  return { ended, seen, callCounts: { ...scope.callCounts }, spent: budget.spent, used: scope.humans.used, at: clock.now() };
}

describe("a plan step's call in continuation style", () => {
  it("gives what the plain call gives: results, counts, charges, decisions used, and what each tool saw", async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArbitrary, async (scenario) => {
        const plain = await runScenario(scenario, plainCall);
        const continued = await runScenario(scenario, continuationCall);
        expect(continued).toEqual(plain);
      }),
      { numRuns: 300 },
    );
  });

  it("ends a synchronous tool's call at once, with no promise", () => {
    const tool = defineTool({ name: "now", description: "now", input: z.object({}), execute: () => 7 });
    const clock = new FakeClock();
    const scope: CallScope = {
      guard: guardTools([tool]),
      budget: new Budget({}, { clock }),
      callCounts: {},
      humans: { approvals: {}, answers: {}, used: [] },
      execution: { signal: new AbortController().signal, step: 0, clock, maxOutputChars: Infinity },
    };
    const never = () => expect.unreachable("a synchronous call reports through its return value");
    const result = startCall(
      { scope, call: { id: "a", name: "now", arguments: {} }, step: 0, parsedTool: tool, parsedArgs: {}, remote: undefined },
      { callEnded: never },
    );
    expect(result).toEqual({ kind: "ran", content: 7 });
  });
});
