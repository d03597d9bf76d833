// The ReAct loop the journal benches run: a model that reads one page of orders a turn (each
// result a few hundred characters) until `turns` model calls, then answers.
import { z } from "zod";
import { defineTool, type ModelRequest } from "../src/index.js";

export const search = defineTool({
  name: "search",
  description: "Search the orders",
  input: z.object({ page: z.number() }),
  execute: ({ page }) =>
    Array.from({ length: 6 }, (_, row) => `row ${row}: order A${page * 100 + row} shipped to warehouse ${row % 7}`).join("\n"),
});

export const pageReader = (turns: number) => (request: ModelRequest) =>
  request.step >= turns - 1
    ? { type: "final" as const, content: "all pages read", usage: { inputTokens: 1000, outputTokens: 10 } }
    : {
        type: "tool_calls" as const,
        content: `reading page ${request.step}`,
        calls: [{ id: `c${request.step}`, name: "search", arguments: { page: request.step } }],
        usage: { inputTokens: 1000, outputTokens: 20 },
      };
