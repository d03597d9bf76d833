import type { Tool } from "../../core/tools/define-tool.js";
import { findPlaceholders } from "../../plan/placeholders.js";
import type { PlanTextResult } from "./json-plan.js";
import { argumentsFromText } from "./tool-arguments.js";

const evidenceLine = /^\s*#E(\d+)\s*=\s*([A-Za-z0-9_-]+)\s*\[([\s\S]*)\]\s*$/;

/**
 * Reads a ReWOO plan: `Plan:` lines explain, `#E1 = Tool[input]` lines are the steps. A step
 * depends on every `#E` its input mentions; the preceding `Plan:` line is its task.
 *
 * @example
 * Plan: Find the capital. #E1 = search[capital of France]
 * Plan: Get its weather.  #E2 = weather[#E1]
 */
export function parseRewooPlan(text: string, tools: readonly Tool[] = []): PlanTextResult {
  const steps = [];
  let description = "";
  for (const rawLine of text.split("\n")) {
    if (rawLine.trim() === "") continue;
    const [before, evidence] = splitEvidence(rawLine);
    if (/^\s*Plan\s*:/i.test(before)) description = before.replace(/^\s*Plan\s*:\s*/i, "").trim();
    if (evidence === undefined) continue;
    const match = evidenceLine.exec(evidence);
    if (!match) return { ok: false, error: `cannot read "${evidence.trim()}"; write evidence lines as #E1 = tool[input]` };
    const [, id, toolName, input] = match;
    const tool = tools.find((candidate) => candidate.name === toolName);
    const args = argumentsFromText(tool, input!);
    // The format's own references are #E<n>: a "$20" in "$20-$30" is a price, not step 20.
    const depends = [...new Set(findPlaceholders(args, { isStep: () => false }).map((reference) => Number(reference.step)))];
    steps.push({ id: Number(id), task: description || `${toolName}[${input}]`, tool: toolName!, args, depends_on: depends });
    description = "";
  }
  if (steps.length === 0) return { ok: false, error: "no evidence lines (#E1 = tool[input]) were found" };
  return { ok: true, plan: { steps } };
}

/** "Plan: x. #E1 = t[y]" holds both on one line; split them. */
function splitEvidence(line: string): [string, string | undefined] {
  const at = line.search(/#E\d+\s*=/);
  return at === -1 ? [line, undefined] : [line.slice(0, at), line.slice(at)];
}
