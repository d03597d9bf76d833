import { z } from "zod";
import { InvalidOptionsError } from "../core/errors.js";
import { isRecord } from "../core/is-record.js";
import { strategyNames } from "../strategies/run-strategy.js";
import type { StrategyName } from "../strategies/strategy-result.js";
import type { PlanInput } from "../plan/plan-schema.js";

/**
 * A named pipeline an MCP client can start by name (docs/mcp.md): its input as a zod object,
 * and what a run of it is — a plan made from the input, or a task for a strategy. A tools
 * module exports them as `pipelines`; `planloop mcp` lists one tool per pipeline. Write each
 * with `definePipeline`, so that `plan` and `task` get the input's own fields.
 */
export interface Pipeline<Input extends z.ZodObject = z.ZodObject> {
  /** The MCP tool's name: lower case letters, digits, `_` or `-`, starting with a letter. */
  name: string;
  description: string;
  /** The input, as a zod object: its JSON Schema is the tool's input schema. */
  input: Input;
  /** The plan of a run, from the input (checked against the tools before anything runs). */
  plan?(input: z.output<Input>): PlanInput;
  /** Or the task of a run, from the input, for `strategy` (default plan-and-execute). */
  task?(input: z.output<Input>): string;
  strategy?: StrategyName | undefined;
}

/**
 * A pipeline, typed by its input: `plan` and `task` get the fields of `input` (a `Pipeline[]`
 * alone would give them any record). It returns the pipeline as given; `planloop mcp` checks it.
 *
 * @example
 * export const pipelines = [
 *   definePipeline({
 *     name: "weekly_report", description: "This week's orders, refunds and tickets",
 *     input: z.object({ week: z.string().describe("yyyy-mm-dd of the Monday") }),
 *     plan: ({ week }) => ({ steps: [{ id: "orders", task: "orders", tool: "sql", args: { week } }] }),
 *   }),
 * ];
 */
export function definePipeline<Input extends z.ZodObject>(pipeline: Pipeline<Input>): Pipeline<Input> {
  return pipeline;
}

const reserved = new Set(["run_plan", "ask", "decide", "cancel_run", "get_run", "list_runs"]);

/** The pipelines a module exports, checked: each with a name, a description, a zod object input, and a plan or a task. */
export function readPipelines(exported: unknown, where: string): Pipeline[] {
  if (exported === undefined) return [];
  if (!Array.isArray(exported)) throw new InvalidOptionsError(`${where}: pipelines must be an array`);
  const names = new Set<string>();
  return exported.map((candidate, index) => {
    const at = `${where}: pipelines[${index}]`;
    if (!isRecord(candidate)) throw new InvalidOptionsError(`${at} is not an object`);
    const { name, description, input, plan, task, strategy } = candidate;
    if (typeof name !== "string" || !/^[a-z][a-z0-9_-]{0,63}$/.test(name))
      throw new InvalidOptionsError(`${at}.name must be lower case letters, digits, "_" or "-", starting with a letter`);
    if (reserved.has(name) || names.has(name)) throw new InvalidOptionsError(`${at}.name "${name}" is taken`);
    names.add(name);
    if (typeof description !== "string" || description === "") throw new InvalidOptionsError(`${at}.description is missing`);
    if (!(input instanceof z.ZodObject)) throw new InvalidOptionsError(`${at}.input must be a zod object (z.object({ … }))`);
    if ((typeof plan === "function") === (typeof task === "function"))
      throw new InvalidOptionsError(`${at} needs plan(input) or task(input): one of them`);
    if (strategy !== undefined && !strategyNames.includes(strategy as StrategyName))
      throw new InvalidOptionsError(`${at}.strategy must be one of ${strategyNames.join(", ")}`);
    return candidate as unknown as Pipeline;
  });
}
