import type { Message } from "../core/messages.js";
import type { Tool } from "../core/tools/define-tool.js";
import { parsePlanText, type PlanFormat } from "./parsers/parse-plan.js";
import type { Plan } from "../plan/plan-schema.js";
import type { Prompts } from "./prompts.js";
import { checkPlan, type CheckedPlan } from "../plan/validate-plan.js";

/** A plan the model wrote and the check passed (handed on, so it is not checked again), or why there is none. */
export type PlanAttempt<Halt> =
  { ok: true; plan: Plan; checked: CheckedPlan } | { ok: false; errors: string[] } | { ok: false; stop: Halt };

/**
 * Asks the model for a plan, reads it in the given format and validates it. A plan that
 * cannot run goes back to the model with every error, up to `maxRepairs` times.
 */
export async function makePlan<Halt>(input: {
  ask: (messages: Message[]) => Promise<{ ok: true; text: string } | { ok: false; stop: Halt }>;
  messages: Message[];
  format: PlanFormat;
  tools: readonly Tool[];
  prompts: Prompts;
  maxRepairs: number;
  /** `unknownTools`: the tools the plan calls that the run does not have. */
  onInvalid?: (errors: string[], attempt: number, unknownTools: string[]) => void;
}): Promise<PlanAttempt<Halt>> {
  const messages = [...input.messages];
  let errors: string[] = [];
  for (let attempt = 1; attempt <= input.maxRepairs + 1; attempt += 1) {
    const answer = await input.ask(messages);
    if (!answer.ok) return answer;
    const read = parsePlanText(answer.text, { format: input.format, tools: input.tools });
    const checked = read.ok ? checkPlan(read.plan, { tools: input.tools }) : undefined;
    if (checked?.ok) return { ok: true, plan: checked.plan, checked };
    errors = read.ok ? (checked && !checked.ok ? checked.errors.map((error) => error.message) : []) : [read.error];
    const unknownTools = read.ok ? toolsNotIn(read.plan, input.tools) : [];
    input.onInvalid?.(errors, attempt, unknownTools);
    messages.push(
      { role: "assistant", content: answer.text },
      { role: "user", content: input.prompts.repair({ errors, format: input.format }) },
    );
  }
  return { ok: false, errors };
}

/** The tools a plan as read (not yet valid) names that are not among `tools`. */
function toolsNotIn(plan: unknown, tools: readonly Tool[]): string[] {
  const steps = (plan as { steps?: unknown } | null)?.steps;
  if (!Array.isArray(steps)) return [];
  const known = new Set(tools.map((tool) => tool.name));
  const named = steps.map((step) => (step as { tool?: unknown } | null)?.tool);
  return [...new Set(named.filter((tool): tool is string => typeof tool === "string" && !known.has(tool)))];
}
