import { createRequire } from "node:module";
import type { z as Zod } from "zod";
import { definePlanSchemas, type PlanSchemas } from "./plan-schema-definition.js";

let schemas: PlanSchemas | undefined;

/** The schemas `plan-schema.ts` made with the zod the program imports (the ones to use). */
export function registerPlanSchemas(made: PlanSchemas): void {
  schemas ??= made;
}

/**
 * The plan's schemas: the registered ones; in a process that has not loaded them (the
 * command line checking a plan), made on first need with zod loaded then. Reading a
 * well-formed plan needs none (see `readPlan`), so `planloop validate` starts without zod.
 */
export function planSchemas(): PlanSchemas {
  schemas ??= definePlanSchemas((createRequire(import.meta.url)("zod") as { z: typeof Zod }).z);
  return schemas;
}
