// Three MCP servers from npm (dev dependencies), started over stdio: every tool each lists is
// called once from a plan, and its output checked against what the tool documents. A tool that
// runs only as an MCP task (server-everything's simulate-research-query) is called as one.
import { mkdtempSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { executePlan } from "planloop";
import { mcpServerTools } from "planloop/mcp";

const resolve = createRequire(import.meta.url).resolve;
const serverAt = (name: string) => resolve(`@modelcontextprotocol/${name}/package.json`).replace(/package\.json$/, "dist/index.js");

async function withServer(
  args: string[],
  env: Record<string, string>,
  body: (tools: Awaited<ReturnType<typeof mcpServerTools>>["tools"], notices: string[]) => Promise<void>,
) {
  const notices: string[] = [];
  const server = await mcpServerTools(
    { command: process.execPath, args, env: { ...(process.env as Record<string, string>), ...env } },
    { onNotice: (line) => notices.push(line), timeoutMs: 20_000 },
  );
  try {
    await body(server.tools, notices);
  } finally {
    await server.close();
  }
}

const parts = (output: unknown) => output as Array<{ type: string; [key: string]: unknown }>;

describe("MCP servers from npm, every tool called once", () => {
  it("server-everything: 13 tools, each output as documented; the task-only one called as a task", async () => {
    await withServer([serverAt("server-everything"), "stdio"], {}, async (tools, notices) => {
      expect(notices).toEqual([]);
      const calls: Record<string, Record<string, unknown>> = {
        echo: { message: "hi" },
        "get-annotated-message": { messageType: "success" },
        "get-env": {},
        "get-resource-links": { count: 2 },
        "get-resource-reference": { resourceType: "Text", resourceId: 1 },
        "get-structured-content": { location: "Chicago" },
        "get-sum": { a: 2, b: 3 },
        "get-tiny-image": {},
        "gzip-file-as-resource": { name: "hello.gz", data: "data:text/plain;base64,aGVsbG8=" },
        "toggle-simulated-logging": {},
        "toggle-subscriber-updates": {},
        "trigger-long-running-operation": { duration: 0.2, steps: 2 },
        // Four stages of a second each, followed as a task.
        "simulate-research-query": { topic: "ready queues" },
      };
      expect(tools.map((tool) => tool.name).sort()).toEqual(Object.keys(calls).sort());
      const plan = { steps: Object.entries(calls).map(([tool, args], index) => ({ id: index + 1, task: tool, tool, args })) };
      const result = await executePlan({ plan, tools });
      expect(result.status).toBe("completed");
      const out = (tool: string) => result.steps[Object.keys(calls).indexOf(tool) + 1]!.output;
      expect(out("echo")).toBe("Echo: hi");
      expect(out("get-annotated-message")).toBe("Operation completed successfully");
      expect(JSON.parse(out("get-env") as string)).toHaveProperty("PATH");
      expect(parts(out("get-resource-links")).filter((part) => part.type === "resource_link")).toHaveLength(2);
      expect(parts(out("get-resource-reference"))).toContainEqual(
        expect.objectContaining({ type: "resource", resource: expect.objectContaining({ uri: "demo://resource/dynamic/text/1" }) }),
      );
      expect(out("get-structured-content")).toMatchObject({
        temperature: expect.any(Number),
        conditions: expect.any(String),
        humidity: expect.any(Number),
      });
      expect(out("get-sum")).toBe("The sum of 2 and 3 is 5.");
      expect(parts(out("get-tiny-image"))).toContainEqual(expect.objectContaining({ type: "image", mimeType: "image/png" }));
      expect(parts(out("gzip-file-as-resource"))).toEqual([
        expect.objectContaining({ type: "resource_link", name: "hello.gz", mimeType: "application/gzip" }),
      ]);
      expect(out("toggle-simulated-logging")).toMatch(/^Started simulated, random-leveled logging/);
      expect(out("toggle-subscriber-updates")).toMatch(/^Started simulated resource updated notifications/);
      expect(out("trigger-long-running-operation")).toBe("Long running operation completed. Duration: 0.2 seconds, Steps: 2.");
      expect(out("simulate-research-query")).toMatch(/^# Research Report: ready queues\n[\s\S]*Stage 4: Generating report ✓/);
    });
  });

  it("server-memory: 9 tools on a knowledge graph kept in a file, in order", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "planloop-mcp-memory-")), "memory.jsonl");
    await withServer([serverAt("server-memory")], { MEMORY_FILE_PATH: file }, async (tools) => {
      const entity = (name: string, observations: string[]) => ({ name, entityType: "shop", observations });
      const steps = [
        { id: "create", task: "c", tool: "create_entities", args: { entities: [entity("Acme", ["sells refunds"]), entity("Globex", [])] } },
        {
          id: "relate",
          task: "r",
          tool: "create_relations",
          args: { relations: [{ from: "Acme", to: "Globex", relationType: "competes with" }] },
        },
        {
          id: "observe",
          task: "o",
          tool: "add_observations",
          args: { observations: [{ entityName: "Globex", contents: ["opened in 2025"] }] },
        },
        { id: "search", task: "s", tool: "search_nodes", args: { query: "2025" } },
        { id: "open", task: "n", tool: "open_nodes", args: { names: ["Acme"] } },
        { id: "graph", task: "g", tool: "read_graph", args: {} },
        {
          id: "forget",
          task: "f",
          tool: "delete_observations",
          args: { deletions: [{ entityName: "Acme", observations: ["sells refunds"] }] },
        },
        {
          id: "unrelate",
          task: "u",
          tool: "delete_relations",
          args: { relations: [{ from: "Acme", to: "Globex", relationType: "competes with" }] },
        },
        { id: "delete", task: "d", tool: "delete_entities", args: { entityNames: ["Globex"] } },
      ].map((step, index, all) => ({ ...step, depends_on: index === 0 ? [] : [all[index - 1]!.id] }));
      expect(tools.map((tool) => tool.name).sort()).toEqual(steps.map((step) => step.tool).sort());
      const result = await executePlan({ plan: { steps }, tools });
      expect(result.status).toBe("completed");
      const out = (id: string) => result.steps[id]!.output as Record<string, unknown>;
      expect(out("create")).toMatchObject({
        entities: [expect.objectContaining({ name: "Acme" }), expect.objectContaining({ name: "Globex" })],
      });
      expect(out("relate")).toMatchObject({ relations: [{ from: "Acme", to: "Globex", relationType: "competes with" }] });
      expect(out("observe")).toMatchObject({ results: [{ entityName: "Globex", addedObservations: ["opened in 2025"] }] });
      expect((out("search").entities as Array<{ name: string }>).map((found) => found.name)).toEqual(["Globex"]);
      expect((out("open").entities as Array<{ name: string }>).map((found) => found.name)).toEqual(["Acme"]);
      expect(out("graph")).toMatchObject({
        entities: expect.arrayContaining([expect.objectContaining({ name: "Globex", observations: ["opened in 2025"] })]),
      });
      // The file holds what is left: Acme, without its observation, and no relation.
      const left = readFileSync(file, "utf8")
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(left).toEqual([expect.objectContaining({ type: "entity", name: "Acme", observations: [] })]);
    });
  });

  it("server-sequential-thinking: its one tool records a thought and says where the sequence is", async () => {
    await withServer([serverAt("server-sequential-thinking")], { DISABLE_THOUGHT_LOGGING: "true" }, async (tools) => {
      expect(tools.map((tool) => tool.name)).toEqual(["sequentialthinking"]);
      const args = { thought: "Sum the refunds per currency first", nextThoughtNeeded: false, thoughtNumber: 1, totalThoughts: 1 };
      const result = await executePlan({ plan: { steps: [{ id: 1, task: "think", tool: "sequentialthinking", args }] }, tools });
      expect(result.status).toBe("completed");
      const output = result.output;
      const read = typeof output === "string" ? (JSON.parse(output) as Record<string, unknown>) : (output as Record<string, unknown>);
      expect(read).toMatchObject({ thoughtNumber: 1, totalThoughts: 1, nextThoughtNeeded: false, thoughtHistoryLength: 1 });
    });
  });
});
