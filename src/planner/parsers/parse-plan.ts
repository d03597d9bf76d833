import type { Tool } from "../../core/tools/define-tool.js";
import { parseCompilerPlan } from "./compiler-plan.js";
import { parseJsonPlan, type PlanTextResult } from "./json-plan.js";
import { parseRewooPlan } from "./rewoo-plan.js";

export type PlanFormat = "json" | "rewoo" | "llm-compiler";

/**
 * Reads a plan a model wrote, in the given format or, without one, whichever it looks like:
 * `#E1 = tool[...]` lines (ReWOO), `1. tool(...)` lines (LLMCompiler), else JSON.
 */
export function parsePlanText(text: string, options: { format?: PlanFormat; tools?: readonly Tool[] } = {}): PlanTextResult {
  const format = options.format ?? detectFormat(text);
  if (format === "rewoo") return parseRewooPlan(text, options.tools);
  if (format === "llm-compiler") return parseCompilerPlan(text, options.tools);
  return parseJsonPlan(text);
}

export function detectFormat(text: string): PlanFormat {
  if (/#E\d+\s*=\s*[A-Za-z0-9_-]+\s*\[/.test(text)) return "rewoo";
  // `[ \t]*`, not `\s*`: at each line start, `\s*` would run across every blank line after it.
  if (/^[ \t]*\d+[ \t]*\.[ \t]*[A-Za-z0-9_-]+[ \t]*\(.*\)[ \t]*$/m.test(text) && !/"steps"\s*:/.test(text)) return "llm-compiler";
  return "json";
}

export type { PlanTextResult };
