import type { RunOrigin } from "../journal/run-origin.js";

/**
 * Whose run it is, for the fair share of a server's step slots (`StepSlots`, `tenant`): the API
 * client (a token's name) that started it, else the schedule that did; a run of neither is a
 * tenant of its own.
 */
export function tenantOf(origin: RunOrigin | undefined): string | undefined {
  if (origin?.client !== undefined) return `client:${origin.client}`;
  if (origin?.schedule !== undefined) return `schedule:${origin.schedule.name}`;
  return undefined;
}
