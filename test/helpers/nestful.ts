// Turns NESTFUL's gold call sequences (../shared/data/nestful) into planloop plans:
// `$var1.field$` references become `${var1}.field`, dependencies come from the references.
import { readFileSync } from "node:fs";
import { z } from "zod";
import { defineTool, findPlaceholders, type PlanInput, type Tool } from "planloop";

export interface NestfulSample {
  input: string;
  output: Array<{ name: string; arguments: unknown; label?: string }>;
}

export function readNestful(dir: string): NestfulSample[] {
  return ["executable-data.json", "non-executable-glaive-data.json", "non-executable-sgd-data.json"].flatMap(
    (file) => JSON.parse(readFileSync(`${dir}/${file}`, "utf8")) as NestfulSample[],
  );
}

/** Tool names may not hold dots in planloop (nor in model APIs): `Hotels.ReserveHotel` → `Hotels_ReserveHotel`. */
export const toolName = (name: string) => name.replace(/[^A-Za-z0-9_-]/g, "_");

function convert(value: unknown): unknown {
  if (typeof value === "string") {
    return value.replace(/\$(var\d+)((?:\.[^.$[]+|\[\d+\])*)\$/g, (_all, label: string, path: string) => {
      const parts = [...path.matchAll(/\.([^.[]+)|\[(\d+)\]/g)].map((part) =>
        part[2] !== undefined ? `[${part[2]}]` : /^[A-Za-z_]\w*$/.test(part[1]!) ? `.${part[1]}` : `[${JSON.stringify(part[1])}]`,
      );
      return `\${${label}}${parts.join("")}`;
    });
  }
  if (Array.isArray(value)) return value.map(convert);
  if (typeof value === "object" && value !== null)
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, convert(item)]));
  return value;
}

export function toPlan(sample: NestfulSample): PlanInput {
  const labels = new Set(sample.output.map((call) => call.label ?? "result"));
  return {
    steps: sample.output.map((call) => {
      const args = convert(call.arguments ?? {});
      const depends = [...new Set(findPlaceholders(args, { isStep: (key) => labels.has(key) }).map((reference) => reference.step))];
      return { id: call.label ?? "result", task: call.name, tool: toolName(call.name), args, depends_on: depends };
    }),
  };
}

/**
 * Stand-in tools: each returns an object holding every path later steps read from it, with
 * values that name their origin (`"var1.skyId"`), so substitution can be checked exactly.
 */
export function echoTools(plans: readonly PlanInput[]): Tool[] {
  const names = new Set(plans.flatMap((plan) => plan.steps.map((step) => step.tool!)));
  return [...names].map((name) =>
    defineTool({
      name,
      description: `stand-in for ${name}`,
      input: z.record(z.string(), z.unknown()),
      execute: (args, { callId }) => ({ called: name, args, id: String(callId) }),
    }),
  );
}

/** The output a step must produce for every reference to it: paths filled with `"<label><path>"`. */
export function outputsFor(plan: PlanInput): Map<string, unknown> {
  const outputs = new Map<string, unknown>();
  for (const step of plan.steps) {
    for (const reference of findPlaceholders(step.args)) {
      let root = outputs.get(reference.step) as Record<string | number, unknown> | undefined;
      if (root === undefined) outputs.set(reference.step, (root = {}));
      let node: Record<string | number, unknown> = root;
      reference.path.forEach((part, index) => {
        const last = index === reference.path.length - 1;
        const nextIsIndex = typeof reference.path[index + 1] === "number";
        if (last) node[part] ??= `${reference.step}${reference.text.slice(reference.text.indexOf("}") + 1)}`;
        else node = (node[part] ??= nextIsIndex ? [] : {}) as Record<string | number, unknown>;
      });
    }
  }
  return outputs;
}
