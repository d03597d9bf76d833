import type { Tool } from "../../core/tools/define-tool.js";
import { parseCompilerPlan } from "./compiler-plan.js";
import { parseJsonPlan, type PlanTextResult } from "./json-plan.js";
import { parseRewooPlan } from "./rewoo-plan.js";

export type PlanFormat = "json" | "rewoo" | "llm-compiler";

/**
 * Reads a plan a model wrote, in whichever format it looks like: `#E1 = tool[...]` lines
 * (ReWOO), `1. tool(...)` lines (LLMCompiler), else JSON. A planner asked for one format that
 * answers in another is still read (every planning strategy reads all three); when neither
 * reading works, the errors are those of the format asked for.
 */
export function parsePlanText(text: string, options: { format?: PlanFormat; tools?: readonly Tool[] } = {}): PlanTextResult {
  const detected = detectFormat(text);
  const asked = options.format ?? detected;
  const first = parseAs(asked, text, options.tools);
  if (first.ok || asked === detected) return first;
  const second = parseAs(detected, text, options.tools);
  return second.ok ? second : first;
}

function parseAs(format: PlanFormat, text: string, tools: readonly Tool[] | undefined): PlanTextResult {
  if (format === "rewoo") return parseRewooPlan(text, tools);
  if (format === "llm-compiler") return parseCompilerPlan(text, tools);
  return parseJsonPlan(text);
}

export function detectFormat(text: string): PlanFormat {
  if (/#E\d+\s*=\s*[A-Za-z0-9_-]+\s*\[/.test(text)) return "rewoo";
  // `[ \t]*`, not `\s*`: at each line start, `\s*` would run across every blank line after it.
  if (/^[ \t]*\d+[ \t]*\.[ \t]*[A-Za-z0-9_-]+[ \t]*\(.*\)[ \t]*$/m.test(text) && !/"steps"\s*:/.test(text)) return "llm-compiler";
  return "json";
}

export type { PlanTextResult };
