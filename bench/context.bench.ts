// A 200-step ReAct run with and without a context policy: the largest prompt, input tokens
// and cost in all (summaries included), counted with the o200k tokenizer and priced as
// gpt-4o-mini. Target: with a policy, every prompt stays under the cap.
// Run: npm run bench:context
import { z } from "zod";
import {
  defineTool,
  estimatePromptTokens,
  priceOf,
  runAgent,
  type ContextPolicy,
  type ModelDecision,
  type ModelRequest,
} from "../src/index.js";

const steps = 200;
const cap = 8_000;
const price = priceOf("gpt-4o-mini")!;

/** A search result of about 300-1,500 tokens, different at each step. */
function result(step: number): string {
  const rows = 20 + ((step * 37) % 80);
  return Array.from(
    { length: rows },
    (_, row) =>
      `row ${row}: order A${step * 1000 + row} shipped on 2026-11-${String((row % 28) + 1).padStart(2, "0")} to warehouse ${row % 7}`,
  ).join("\n");
}

const search = defineTool({
  name: "search",
  description: "Search the orders",
  input: z.object({ page: z.number() }),
  execute: ({ page }) => result(page),
});

async function measure(context: ContextPolicy | undefined) {
  let largest = 0;
  let inputTokens = 0;
  let outputTokens = 0;
  let summaries = 0;
  let step = 0;
  const model = (request: ModelRequest): ModelDecision => {
    const prompt = estimatePromptTokens(request.messages, request.tools);
    inputTokens += prompt;
    if (request.purpose === "summarize") {
      summaries += 1;
      outputTokens += 300;
      return { type: "final", content: "Pages read so far: orders listed, shipped dates noted. ".repeat(20) };
    }
    largest = Math.max(largest, prompt);
    outputTokens += 30;
    step += 1;
    return step >= steps
      ? { type: "final", content: "done" }
      : { type: "tool_calls", calls: [{ id: `c${step}`, name: "search", arguments: { page: step } }] };
  };
  const started = performance.now();
  const run = await runAgent({
    model,
    tools: [search],
    task: "Read every page of the orders and report late shipments",
    maxSteps: steps,
    ...(context ? { context } : {}),
  });
  const costUsd = (inputTokens * price.input + outputTokens * price.output) / 1_000_000;
  return { largest, inputTokens, costUsd, summaries, ms: performance.now() - started, status: run.status, messages: run.messages.length };
}

const rows: Array<[string, ContextPolicy | undefined]> = [
  ["no policy", undefined],
  [`recent, cap ${cap}`, { maxTokens: cap, countTokens: estimatePromptTokens }],
  [`summarize, cap ${cap}`, { maxTokens: cap, keep: "summarize", countTokens: estimatePromptTokens }],
];
console.log(`${steps}-step ReAct run, tool outputs of ~300-1,500 tokens, priced as gpt-4o-mini`);
console.log("policy                  | largest prompt | input tokens | cost USD | summarize calls | under cap");
for (const [name, policy] of rows) {
  const m = await measure(policy);
  const under = policy === undefined ? "-" : m.largest <= cap ? "yes" : "NO";
  console.log(
    `${name.padEnd(23)} | ${String(m.largest).padStart(14)} | ${String(m.inputTokens).padStart(12)} | ${m.costUsd.toFixed(4).padStart(8)} | ${String(m.summaries).padStart(15)} | ${under}   (${m.status}, ${m.messages} messages kept, ${m.ms.toFixed(0)} ms)`,
  );
}
