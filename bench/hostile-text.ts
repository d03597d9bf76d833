// Hostile model text against planloop's parsers and estimators: 1 MB of each input, the
// milliseconds each reading takes (target: under 100 ms, linear in the input).
// Run: npm run bench:hostile
import { parsePlanText, validatePlan } from "../src/index.js";
import { CompilerPlanReader } from "../src/planner/parsers/compiler-plan.js";
import { estimateTextTokens } from "../src/models/token-estimate.js";

const size = 1024 * 1024;
const inputs: Record<string, string> = {
  "[ repeated": "[".repeat(size),
  "{ repeated": "{".repeat(size),
  "blank lines": "\n".repeat(size),
  '" repeated': '"'.repeat(size),
  "empty fences": "```\n".repeat(size / 4),
  "an unclosed call": `1. t(${"(".repeat(size)}`,
  "an unclosed ReWOO input": `#E1 = t[${"[".repeat(size)}`,
  "$1[ repeated": "$1[".repeat(size / 3),
};

function milliseconds(work: () => unknown): string {
  const started = performance.now();
  work();
  return (performance.now() - started).toFixed(1);
}

console.log("# 1 MB of hostile text: ms to read it as a plan (json | rewoo | llm-compiler | detected) and streamed in 16-character pieces");
for (const [name, text] of Object.entries(inputs)) {
  const formats = (["json", "rewoo", "llm-compiler", undefined] as const).map((format) =>
    milliseconds(() => parsePlanText(text, format ? { format } : {})),
  );
  const reader = new CompilerPlanReader([]);
  const streamed = milliseconds(() => {
    for (let index = 0; index < text.length; index += 16) reader.push(text.slice(index, index + 16));
    reader.end();
  });
  console.log(`${name}: ${formats.join(" | ")} | streamed ${streamed}`);
}

estimateTextTokens("load the tokenizer");
console.log("\n# token estimates of 1 MB (servers that send no usage), ms");
for (const [name, text] of [
  ["one character repeated", "a".repeat(size)],
  ["[ repeated", "[".repeat(size)],
  ["prose", "The weekly report compares orders, refunds and tickets. ".repeat(size / 56)],
] as const) {
  console.log(`${name}: ${milliseconds(() => estimateTextTokens(text))}`);
}

console.log("\n# validatePlan on a 2 MB plan, ms");
const steps = Array.from({ length: 40_000 }, (_, index) => ({
  id: `step-${"x".repeat(24)}-${index}`,
  task: "t",
  depends_on: index > 0 ? [`step-${"x".repeat(24)}-${index - 1}`] : [],
}));
console.log(
  `40,000 look-alike text ids (${(JSON.stringify({ steps }).length / 1e6).toFixed(1)} MB): ${milliseconds(() => validatePlan({ steps }))}`,
);
