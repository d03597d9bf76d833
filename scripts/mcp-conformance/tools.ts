// The tools module the MCP conformance run serves (scripts/mcp-conformance.ts): one tool, and a
// pipeline over it, so that tools/list and tools/call have something of planloop's own to show.
import { z } from "zod";
import { definePipeline, defineTool } from "../../src/index.js";

export const tools = [
  defineTool({ name: "echo", description: "Echoes the text", input: z.object({ text: z.string() }), execute: ({ text }) => text }),
];

export const pipelines = [
  definePipeline({
    name: "echo_twice",
    description: "Echoes the text twice, one step after the other",
    input: z.object({ text: z.string() }),
    plan: ({ text }) => ({
      steps: [
        { id: 1, task: "echo", tool: "echo", args: { text } },
        { id: 2, task: "echo again", tool: "echo", args: { text: "#E1" }, depends_on: [1] },
      ],
    }),
  }),
];
