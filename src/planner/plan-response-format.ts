import { z } from "zod";
import type { ResponseFormat } from "../core/model.js";
import { planSchema } from "../plan/plan-schema.js";

let format: ResponseFormat | undefined;

/**
 * The plan's JSON Schema as a structured-output request: a planner asked for a JSON plan
 * gets it, so a model that supports structured output writes a plan of the right shape the
 * first time (the text is still read and checked, so a model that ignores it loses nothing).
 */
export function planResponseFormat(): ResponseFormat {
  if (format === undefined) {
    const { $schema: _draft, ...schema } = z.toJSONSchema(planSchema, { io: "input" }) as Record<string, unknown>;
    format = { type: "json", name: "plan", schema };
  }
  return format;
}
