// `planloop ask`: a task of the user's own, their tools, a real model (here a local
// Chat Completions server on 127.0.0.1), one strategy or all five side by side.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cli } from "../helpers/run-cli.js";
import { completion, startChatServer, toolCall, type ChatServer } from "../helpers/chat-server.js";
import { testRoot } from "../helpers/paths.js";

const toolsModule = join(testRoot, "fixtures", "plan-tools.ts");
const chunk = (content: string) => ({ choices: [{ index: 0, delta: { content } }] });
let server: ChatServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("planloop ask", () => {
  it("runs the task with plan-and-execute by default, and writes the events for planloop trace", async () => {
    server = await startChatServer([
      completion({ content: JSON.stringify({ steps: [{ id: 1, task: "double 21", tool: "double", args: { value: 21 } }] }) }),
      completion({ content: "Twice 21 is 42." }),
    ]);
    const events = join(mkdtempSync(join(tmpdir(), "planloop-ask-")), "events.jsonl");
    const asked = await cli(
      "ask",
      "What is twice 21?",
      "--tools",
      toolsModule,
      "--base-url",
      server.baseURL,
      "--model",
      "m",
      "--events",
      events,
    );
    expect(asked.code).toBe(0);
    expect(asked.out).toContain("plan-and-execute: completed — 2 model calls, 1 tool calls");
    expect(asked.out).toContain("Twice 21 is 42.");
    const lines = readFileSync(events, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines.map((event) => event.type)).toEqual(expect.arrayContaining(["plan-created", "step-start", "step-end", "strategy-end"]));
  });

  it("--model names a module that exports a model: any provider works from the command", async () => {
    const model = join(testRoot, "fixtures", "scripted-model.mjs");
    for (const strategy of ["plan-and-execute", "react"]) {
      const asked = await cli("ask", "What is twice 21?", "--tools", toolsModule, "--model", model, "--strategy", strategy, "--no-store");
      expect(asked.err).toBe("");
      expect(asked.code).toBe(0);
      expect(asked.out).toContain("Twice 21 is 42.");
    }
    const empty = join(mkdtempSync(join(tmpdir(), "planloop-model-")), "none.mjs");
    writeFileSync(empty, "export const nothing = 1;\n");
    expect(await cli("ask", "t", "--tools", toolsModule, "--model", empty, "--no-store")).toMatchObject({
      code: 2,
      err: expect.stringContaining(
        `${empty} does not export a model: it has no \`model\` export and no default export (its exports: nothing). A model module exports \`model\` (or a default export)`,
      ),
    });
    // The wrong shapes people export: a provider's model not wrapped, a promise; each is named, with the page that says what to export.
    const unwrapped = join(dirname(empty), "unwrapped.mjs");
    writeFileSync(unwrapped, 'export const model = { specificationVersion: "v2", doGenerate() {} };\n');
    const refused = await cli("ask", "t", "--tools", toolsModule, "--model", unwrapped, "--no-store");
    expect(refused.err).toContain(
      "its model export is an AI SDK model, which planloop reads through an adapter: export fromAISDK(<that model>)",
    );
    expect(refused.err).toContain("see docs/models.md#a-model-module-for-the-command-line");
    const promised = join(dirname(empty), "promised.mjs");
    writeFileSync(promised, "export default Promise.resolve(() => ({}));\n");
    expect((await cli("ask", "t", "--tools", toolsModule, "--model", promised, "--no-store")).err).toContain(
      "its default export is a promise: await it in the module",
    );
  });

  it("--strategy all runs the five strategies one after another and prints each", async () => {
    server = await startChatServer([
      completion({ content: null, tool_calls: [toolCall("c1", "double", '{"value":21}')] }),
      completion({ content: "42 (react)" }),
      completion({ content: JSON.stringify({ steps: [{ id: 1, task: "double", tool: "double", args: { value: 21 } }] }) }),
      completion({ content: "42 (plan-and-execute)" }),
      completion({ content: '#E1 = double[{"value": 21}]' }),
      completion({ content: "42 (rewoo)" }),
      { sse: [chunk("1. double(21)\n"), chunk("2. join()")] },
      completion({ content: "FINISH: 42 (llm-compiler)" }),
      completion({ content: "```js\nreturn await tools.double({ value: 21 });\n```" }),
      completion({ content: "42 (code)" }),
    ]);
    const asked = await cli(
      "ask",
      "What is twice 21?",
      "--tools",
      toolsModule,
      "--base-url",
      server.baseURL,
      "--model",
      "m",
      "--strategy",
      "all",
    );
    expect(asked.code).toBe(0);
    for (const name of ["react", "plan-and-execute", "rewoo", "llm-compiler", "code"]) {
      expect(asked.out).toMatch(new RegExp(`${name}: completed — 2 model calls, 1 tool calls`));
      expect(asked.out).toContain(`42 (${name})`);
    }
  });

  it("a run that waits for approval saves its state and exits 3; --resume with --approve finishes it", async () => {
    server = await startChatServer([
      completion({
        content: JSON.stringify({
          steps: [
            { id: 1, task: "double", tool: "double", args: { value: 60 } },
            { id: 2, task: "pay", tool: "pay", args: { amount: "$1" }, depends_on: [1] },
          ],
        }),
      }),
      completion({ content: "Paid 120." }),
    ]);
    const state = join(mkdtempSync(join(tmpdir(), "planloop-ask-")), "paused.json");
    const model = ["--base-url", server.baseURL, "--model", "m"];
    const paused = await cli("ask", "Pay twice 60", "--tools", toolsModule, ...model, "--state", state);
    expect(paused.code).toBe(3);
    expect(paused.out).toContain('step:2 waits for approval: pay {"amount":120}');
    expect(paused.out).toContain(
      `resume: planloop ask "Pay twice 60" --model m --base-url ${server.baseURL} --tools ${toolsModule} --resume ${state} --approve step:2`,
    );
    expect(JSON.parse(readFileSync(state, "utf8")).kind).toBe("planloop/plan-and-execute-state");

    expect(await cli("ask", "Pay twice 60", ...model, "--resume", state, "--strategy", "react")).toMatchObject({
      code: 2,
      err: expect.stringContaining("comes from plan-and-execute, not react"),
    });
    const resumed = await cli("ask", "Pay twice 60", "--tools", toolsModule, ...model, "--resume", state, "--approve", "step:2");
    expect(resumed.code).toBe(0);
    expect(resumed.out).toContain("plan-and-execute: completed — 2 model calls, 2 tool calls");
    expect(resumed.out).toContain("Paid 120.");
    expect(server.requests).toHaveLength(2);
  });

  it("--strategy code waits for an approval in the middle of its program; planloop runs approve finishes it by id", async () => {
    server = await startChatServer([
      completion({
        content: "```js\nconst doubled = await tools.double({ value: 60 });\nreturn await tools.pay({ amount: doubled });\n```",
      }),
      completion({ content: "Paid 120." }),
    ]);
    const dir = mkdtempSync(join(tmpdir(), "planloop-code-"));
    const store = `sqlite:${join(dir, "runs.sqlite")}`;
    const model = ["--base-url", server.baseURL, "--model", "m"];
    const args = ["ask", "Pay twice 60", "--strategy", "code", "--tools", toolsModule, ...model, "--store", store, "--run-id", "c1"];
    const paused = await cli(...args, "--state", join(dir, "state.json"));
    expect(paused.code).toBe(3);
    const id = /(code:0:[0-9a-f]{16}:1) waits for approval: pay \{"amount":120\}/.exec(paused.out)?.[1];
    expect(id).toBeDefined();
    // The server is named again: the store is not trusted to name where the API key goes.
    const approved = await cli("runs", "approve", "c1", id!, "--tools", toolsModule, "--base-url", server.baseURL, "--store", store);
    expect(approved).toMatchObject({ code: 0, out: expect.stringContaining("Paid 120.") });
    expect(approved.out).toContain("code: completed — 2 model calls, 2 tool calls");
    // The program was not asked for again: the second request is the answer's.
    expect(server.requests).toHaveLength(2);
  });

  it("a run started with a model module is continued only with the module named again (--model), never the store's", async () => {
    const dir = mkdtempSync(join(tmpdir(), "planloop-model-module-"));
    const store = `sqlite:${join(dir, "runs.sqlite")}`;
    const model = join(testRoot, "fixtures", "scripted-model.mjs");
    const args = ["ask", "Double 21", "--tools", toolsModule, "--model", model, "--review-plan", "--store", store, "--run-id", "mm"];
    expect((await cli(...args, "--state", join(dir, "state.json"))).code).toBe(3);
    const refused = await cli("runs", "approve", "mm", "plan:1", "--tools", toolsModule, "--store", store);
    expect(refused.code).not.toBe(0);
    expect(refused.err).toContain(`was started with --model ${model}`);
    expect(refused.err).toContain("--model <module>");
    const approved = await cli("runs", "approve", "mm", "plan:1", "--tools", toolsModule, "--model", model, "--store", store);
    expect(approved).toMatchObject({ code: 0, out: expect.stringContaining("Twice 21 is 42.") });
  });

  it("--review-plan stops before the plan runs; planloop runs approve with --plan runs an edited plan", async () => {
    server = await startChatServer([
      completion({ content: JSON.stringify({ steps: [{ id: 1, task: "double", tool: "double", args: { value: 21 } }] }) }),
      completion({ content: "The double is 100." }),
    ]);
    const dir = mkdtempSync(join(tmpdir(), "planloop-review-"));
    const store = `sqlite:${join(dir, "runs.sqlite")}`;
    const model = ["--base-url", server.baseURL, "--model", "m"];
    const args = ["ask", "Double a number", "--tools", toolsModule, ...model, "--review-plan", "--store", store, "--run-id", "r1"];
    const paused = await cli(...args, "--state", join(dir, "state.json"));
    expect(paused.code).toBe(3);
    expect(paused.out).toContain("plan:1 waits for review: 1 steps");
    expect(paused.out).toContain('1 [new] double {"value":21}');
    expect(paused.out).toContain(
      `or by id: planloop runs approve r1 plan:1 --base-url ${server.baseURL} --tools ${toolsModule} --store ${store}`,
    );
    expect((await cli("runs", "show", "r1", "--store", store)).out).toContain("plan:1 waits for review");
    const edited = join(dir, "edited.json");
    writeFileSync(edited, JSON.stringify({ steps: [{ id: 1, task: "double", tool: "double", args: { value: 50 } }] }));
    const approved = await cli(
      "runs",
      "approve",
      "r1",
      "plan:1",
      "--plan",
      edited,
      "--tools",
      toolsModule,
      "--base-url",
      server.baseURL,
      "--store",
      store,
    );
    expect(approved.code).toBe(0);
    expect(approved.out).toContain("The double is 100.");
    expect(server.requests).toHaveLength(2);
    expect(JSON.stringify(server.requests[1])).toContain("100");
    expect((await cli("runs", "show", "r1", "--store", store)).out).toContain("decision plan:1: approved an edited plan");
  });

  it("--context-tokens keeps the ReAct loop's requests under the cap: older turns are left out", async () => {
    server = await startChatServer([
      completion({ content: null, tool_calls: [toolCall("c1", "double", '{"value":1}')] }),
      completion({ content: null, tool_calls: [toolCall("c2", "double", '{"value":2}')] }),
      completion({ content: null, tool_calls: [toolCall("c3", "double", '{"value":3}')] }),
      completion({ content: "6" }),
    ]);
    const asked = await cli(
      "ask",
      "Double 1, 2, 3",
      "--strategy",
      "react",
      "--tools",
      toolsModule,
      "--base-url",
      server.baseURL,
      "--model",
      "m",
      "--no-store",
      "--context-tokens",
      "300",
    );
    expect(asked.code).toBe(0);
    const sent = server.requests.map((request) => (request.body as { messages: unknown[] }).messages.length);
    expect(sent[3]).toBeLessThan(1 + 3 * 2 + 1);
    expect(JSON.stringify(server.requests[3]!.body)).toContain("earlier messages were left out");
    expect(
      await cli("ask", "x", "--model", "m", "--base-url", server.baseURL, "--context-tokens", "300", "--context-keep", "oldest"),
    ).toMatchObject({
      code: 2,
      err: expect.stringContaining("--context-keep takes recent or summarize"),
    });
  });

  it("a model that asks for tools the run was not given is told so, and the person how to give them (--tools)", async () => {
    const plan = completion({ content: JSON.stringify({ steps: [{ id: 1, task: "double 21", tool: "double", args: { value: 21 } }] }) });
    server = await startChatServer([plan, plan, plan]);
    const planned = await cli("ask", "What is twice 21?", "--base-url", server.baseURL, "--model", "m", "--no-store");
    expect(planned.code).toBe(1);
    expect(planned.err).toContain('the model asked for "double", but this run had no tools: give them with --tools ./tools.mjs');
    await server.close();
    const calling = completion({ content: null, tool_calls: [toolCall("c1", "double", '{"value":21}')] });
    server = await startChatServer([calling, completion({ content: "I cannot compute it without tools." })]);
    const looped = await cli("ask", "What is twice 21?", "--strategy", "react", "--base-url", server.baseURL, "--model", "m", "--no-store");
    expect(looped.err).toContain('the model asked for "double", but this run had no tools');
    // What the model read back: that it has none, so it answers without.
    const told = (server.requests[1]!.body as { messages: unknown[] }).messages.at(-1);
    expect(told).toMatchObject({
      role: "tool",
      content: expect.stringContaining("this run was given no tools, so answer without calling any"),
    });
  });

  it("refuses to run without a model, with an unknown strategy, or --events or --state with all", async () => {
    expect(await cli("ask", "anything")).toMatchObject({ code: 2, err: expect.stringContaining("ask needs a model") });
    expect(await cli("ask", "anything", "--model", "m", "--base-url", "http://127.0.0.1:9/v1", "--strategy", "magic")).toMatchObject({
      code: 2,
      err: expect.stringContaining('unknown strategy "magic"'),
    });
    expect(await cli("ask", "anything", "--strategy", "all", "--events", "x.jsonl")).toMatchObject({
      code: 2,
      err: expect.stringContaining("one strategy"),
    });
    expect(await cli("ask", "anything", "--strategy", "all", "--state", "x.json")).toMatchObject({
      code: 2,
      err: expect.stringContaining("one strategy"),
    });
    expect(await cli("ask", "anything", "--approve", "c1")).toMatchObject({ code: 2, err: expect.stringContaining("go with --resume") });
  });
});
