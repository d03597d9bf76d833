import { readFileSync } from "node:fs";
import type { SuiteWriter } from "./suite-writer.js";

interface RetailTask {
  id: string;
  task: string;
  plan: { steps: Array<{ id: number; tool: string; args: Record<string, unknown> }> };
}

/** τ-bench retail's tasks (examples/suites/tau-retail): the gold calls as steps, as its stub tools answer them. */
export function retailTasks(path = "examples/suites/tau-retail/tasks.jsonl"): RetailTask[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as RetailTask);
}

const words = (key: string) => key.replace(/_/g, " ");

/**
 * A retail task's summary: one sentence per call, naming what it was called with (order and
 * item ids, a zip code, a payment method, the customer's name), citing the call's step.
 */
export function retailCase(writer: SuiteWriter, task: RetailTask): void {
  writer.start(task.id, task.task);
  for (const step of task.plan.steps) writer.step(step.id, step.tool, { ok: true, called: step.tool, with: step.args });
  for (const step of task.plan.steps) {
    const { first_name: first, last_name: last, ...rest } = step.args;
    if (typeof first === "string" && typeof last === "string") {
      const name = { name: `${first} ${last}`, bare: true, wrong: ["Mei Chen", "Omar Haddad"] };
      if (typeof rest.zip === "string") writer.say`Found the account of ${name} in zip ${{ id: rest.zip }} [s${String(step.id)}].`;
      else writer.say`Found the account of ${name} [s${String(step.id)}].`;
      continue;
    }
    const parts = Object.entries(rest).filter(([, value]) => (typeof value === "string" && /\d{3}/.test(value)) || Array.isArray(value));
    if (parts.length === 0) continue;
    sayCall(writer, step.tool, parts, step.id);
  }
  writer.end();
}

/** "Ran get order details for order id #W2378156 and item ids 1151293680, 4983901480 [s2]." */
function sayCall(writer: SuiteWriter, tool: string, parts: Array<[string, unknown]>, stepId: number): void {
  const strings: string[] = [`Ran ${words(tool)} for `];
  const slots: Array<{ id: string }> = [];
  parts.forEach(([key, value], index) => {
    const values = (Array.isArray(value) ? value : [value]).filter((item): item is string => typeof item === "string");
    strings[strings.length - 1] += `${index > 0 ? " and " : ""}${words(key)} `;
    values.forEach((item, at) => {
      slots.push({ id: item });
      strings.push(at < values.length - 1 ? ", " : "");
    });
  });
  strings[strings.length - 1] += ` [s${stepId}].`;
  const template = Object.assign([...strings], { raw: [...strings] }) as unknown as TemplateStringsArray;
  writer.say(template, ...slots);
}
