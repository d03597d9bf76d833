import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, executePlan, runAgent, type PlanloopEvent } from "../index.js";
import { ScriptedModel } from "../testing/index.js";
import { maskSecrets } from "./secrets.js";

describe("secrets in events", () => {
  it("masks the usual secret keys at any depth, and leaves look-alikes such as maxTokens alone", () => {
    expect(
      maskSecrets({ apiKey: "k", nested: [{ Authorization: "Bearer x", password: "p" }], maxTokens: 5, token_count: 3, accessToken: "t" }),
    ).toEqual({
      apiKey: "[masked]",
      nested: [{ Authorization: "[masked]", password: "[masked]" }],
      maxTokens: 5,
      token_count: 3,
      accessToken: "[masked]",
    });
    expect(maskSecrets({ pin: "1234", apiKey: "k" }, ["pin"])).toEqual({ pin: "[masked]", apiKey: "k" });
    expect(maskSecrets({ apiKey: "k" }, false)).toEqual({ apiKey: "k" });
  });

  it("masks tool-call arguments and plan step arguments in events, never what the tool receives", async () => {
    const seen: unknown[] = [];
    const call = defineTool({
      name: "call",
      description: "d",
      input: z.object({ url: z.string(), apiKey: z.string() }),
      execute: (args) => (seen.push(args), "ok"),
    });
    const events: PlanloopEvent[] = [];
    const model = new ScriptedModel([
      { type: "tool_calls", calls: [{ id: "1", name: "call", arguments: { url: "u", apiKey: "sk-live" } }] },
      { type: "final", content: "done" },
    ]);
    await runAgent({ model, tools: [call], task: "t", onEvent: (event) => events.push(event) });
    await executePlan({
      plan: { steps: [{ id: 1, task: "c", tool: "call", args: { url: "u", apiKey: "sk-live" } }] },
      tools: [call],
      onEvent: (event) => events.push(event),
    });
    expect(JSON.stringify(events)).not.toContain("sk-live");
    expect(events.find((event) => event.type === "tool-call-start")).toMatchObject({ arguments: { url: "u", apiKey: "[masked]" } });
    expect(events.find((event) => event.type === "plan-created")).toMatchObject({ steps: [{ args: { url: "u", apiKey: "[masked]" } }] });
    expect(seen).toEqual([
      { url: "u", apiKey: "sk-live" },
      { url: "u", apiKey: "sk-live" },
    ]);
    const unmasked: PlanloopEvent[] = [];
    await executePlan({
      plan: { steps: [{ id: 1, task: "c", tool: "call", args: { url: "u", apiKey: "sk-live" } }] },
      tools: [call],
      secretKeys: false,
      onEvent: (event) => unmasked.push(event),
    });
    expect(JSON.stringify(unmasked)).toContain("sk-live");
  });
});
