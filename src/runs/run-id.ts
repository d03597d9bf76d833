/*
 * src/runs/: run control, once, in the library. The faces (the CLI, the HTTP API, MCP over stdio
 * and HTTP, the ui) parse and authorize what a caller sends, then start, fork, cancel, decide
 * and grant through here; none keeps a rule of its own. This file: which run ids a caller may
 * name.
 */
import { z } from "zod";
import { InvalidOptionsError } from "../core/errors.js";
import type { RunOrigin } from "../journal/checkpoint-store.js";
import { scheduledRunId } from "../waits/schedules.js";

/**
 * A run id a caller names is a name, never a credential, and names only a run of its own level:
 * "/" is left out (`x/plan:2`, `x/step` are runs kept inside run x: a caller that could name one
 * would plant a run inside another's, or act on one), "@" too for a new run (`<name>@<fire time>`
 * is how a schedule names its runs), and so is anything empty or longer than 200 characters.
 */
// Written out, not `\w`: the OpenAPI document carries these patterns, and a client's regex dialect (Python's `\w` takes "é") must read them as the server does.
const newRunIdPattern = /^[A-Za-z0-9_.:-]{1,200}$/;
/** An existing run a caller acts on: a top-level run, a schedule's (`@`) and a fork the server named (`~rerun-`) included. */
const runReferencePattern = /^[A-Za-z0-9_.:@~-]{1,240}$/;

const newRunIdRule =
  "1 to 200 letters, digits, '.', ':', '-' or '_' (no '/': that names a run kept inside another; no '@': a schedule's runs)";
const runReferenceRule =
  "1 to 240 letters, digits, '.', ':', '@', '~', '-' or '_' (a run kept inside another is acted on through that run)";

/** The id of a new run a caller names (start, fork), as a zod schema: the HTTP API and MCP check with it. */
export const newRunIdSchema = z
  .string()
  .regex(newRunIdPattern, newRunIdRule)
  .describe("The new run's id: given, or made by the server. The same id again starts nothing new.");

/** The id of a run a caller reads or acts on, as a zod schema. */
export const runReferenceSchema = z.string().regex(runReferencePattern, runReferenceRule).describe("A run's id (a top-level run)");

/** A run id a caller named that the rule refuses; `field` says where it was named. */
export class RunIdError extends InvalidOptionsError {
  constructor(
    message: string,
    readonly field: string,
  ) {
    super(message);
    this.name = "RunIdError";
  }
}

/**
 * The id a caller names for a new run, checked: the rule above, or, for a run a schedule
 * starts, exactly the id of that fire (`scheduledRunId`). A face calls this before it creates
 * anything.
 *
 * @example
 * checkNewRunId("nightly-7");        // "nightly-7"
 * checkNewRunId("victim/plan:9");    // throws RunIdError
 */
export function checkNewRunId(runId: unknown, options: { field?: string; origin?: RunOrigin | undefined } = {}): string {
  const field = options.field ?? "runId";
  const schedule = options.origin?.schedule;
  if (schedule !== undefined) {
    const expected = scheduledRunId(schedule.name, schedule.fireAt);
    if (runId !== expected) throw new RunIdError(`${field}: schedule ${schedule.name}'s run at that fire time is "${expected}"`, field);
    return expected;
  }
  if (typeof runId !== "string" || !newRunIdPattern.test(runId))
    throw new RunIdError(`${field}: ${shown(runId)} cannot name a new run: an id is ${newRunIdRule}`, field);
  return runId;
}

/** The id of a run a caller reads or acts on, checked: a top-level run's id, never an inner run's, nothing empty or huge. */
export function checkRunReference(runId: unknown, options: { field?: string } = {}): string {
  const field = options.field ?? "runId";
  if (typeof runId !== "string" || !runReferencePattern.test(runId))
    throw new RunIdError(`${field}: ${shown(runId)} names no run a caller may act on: an id is ${runReferenceRule}`, field);
  return runId;
}

/** Whether `runId` may name a new run (the rule of `checkNewRunId`, without a schedule). */
export function isNewRunId(runId: string): boolean {
  return newRunIdPattern.test(runId);
}

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 80)}… (${text.length} characters)` : text;
}
