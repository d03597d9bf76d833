import { randomUUID } from "node:crypto";
import type { CheckpointStore, JournalEntry, StoredRun } from "../journal/checkpoint-store.js";
import { InvalidOptionsError } from "../core/errors.js";
import { protectStore } from "../journal/protected-store.js";
import { defaultSecretKeys, type SecretKeys } from "../trust/secrets.js";
import { checkSecret } from "../trust/state-signature.js";
import { createRunWith } from "../journal/durable-envelope.js";
import { buildPlanGraph, reachableFrom } from "../plan/graph/plan-graph.js";
import type { Plan } from "../plan/plan-schema.js";
import { stepKey } from "../plan/step-key.js";
import type { StepRecord } from "../plan/step-record.js";
import { validatePlan } from "../plan/validate-plan.js";
import { canonicalJson } from "../core/canonical-json.js";
import { forkLaunch, sourceLaunch } from "./fork-launch.js";

export interface ForkOptions {
  /** The run to start from: a plan run (`executePlan`, the planloop run command, or a strategy's `<id>/plan:<v>`). */
  from: string;
  /** The step to run again: it and every step after it run in the new run; the steps that succeeded before it are reused. */
  step: string | number;
  /** New arguments for that step (checked against the plan like any plan). */
  args?: unknown;
  /**
   * A whole edited plan to run instead (not with `args`): the steps it changes or adds run too,
   * with every step after them; a step is reused only where the plan keeps it as it was.
   */
  plan?: unknown;
  /** The new run's id; a new one when absent. */
  runId?: string;
  /** The source run's `stateSecret`, when it was kept with one (the new run is kept with it too). */
  stateSecret?: string;
  secretKeys?: SecretKeys;
  /** Who asked for the fork (an API client), kept in the new run's origin beside the run and step it was forked from. */
  client?: string | undefined;
}

export interface ForkedRun {
  runId: string;
  /** The steps the new run runs again (the step and the steps after it), in plan order. */
  rerun: string[];
  /** The steps whose results it reuses. */
  reused: string[];
  plan: Plan;
}

/**
 * Rerun from a step: a new run of the same plan (with the step's arguments changed, if
 * given) whose journal holds the results of the steps that had succeeded and do not come
 * after that step. Continue it as any unfinished run, by id: `executePlan({ plan, tools,
 * store, runId })`, or `planloop runs resume <runId>` for a run the command started. The
 * new run names the one it came from (journal `forked`); the old one is not changed.
 */
export async function forkRun(store: CheckpointStore, options: ForkOptions): Promise<ForkedRun> {
  checkSecret(options.stateSecret);
  const guarded = protectStore(store, {
    secret: options.stateSecret,
    secretKeys: options.secretKeys ?? defaultSecretKeys,
    given: new Map(),
  });
  const source = await guarded.getRun(options.from);
  if (source === undefined) throw new InvalidOptionsError(`there is no run "${options.from}" to rerun from`);
  if (source.entry !== "executePlan") {
    throw new InvalidOptionsError(
      `run "${source.runId}" was started by ${source.entry}: rerun from a step of one of its plan runs (${source.runId}/plan:<version>), which the run page lists`,
    );
  }
  const plan = lastPlan(source);
  const key = stepKey(options.step);
  const edited = editedPlan(plan, key, { ...options, from: source.runId });
  const checked = validatePlan(edited);
  if (!checked.ok) throw new InvalidOptionsError(`the edited plan cannot run: ${checked.errors.map((error) => error.message).join("; ")}`);
  const graph = buildPlanGraph(checked.plan);
  const index = graph.indexOf.get(key);
  if (index === undefined) throw new InvalidOptionsError(`the plan has no step "${key}"; its steps: ${graph.keys.join(", ")}`);
  // The step, every step the edit changed or added, and every step after any of them.
  const original = validatePlan(plan);
  const before = new Map((original.ok ? original.plan : plan).steps.map((step) => [stepKey(step.id), canonicalJson(step)]));
  const starts = [index, ...checked.plan.steps.flatMap((step, at) => (before.get(stepKey(step.id)) === canonicalJson(step) ? [] : [at]))];
  const again = new Set(starts.flatMap((start) => [start, ...reachableFrom(graph.dependents, start)]).map((at) => graph.keys[at]!));
  const runId = options.runId ?? randomUUID();
  const { entries, reused } = reusedEntries(source, again);
  const launched = await sourceLaunch(guarded, source);
  // The fork's plan file, if it needs one, is written only when the fork is.
  const journal = (): JournalEntry[] => {
    const launch = launched && forkLaunch(launched, { runId, plan: checked.plan, edited: edited !== plan });
    return [
      ...(launch ? [launch] : []),
      { kind: "forked", from: source.runId, step: key },
      { kind: "plan", version: 1, plan: checked.plan },
      ...entries,
    ];
  };
  // A fork's origin is the run it came from (and who asked), never the source's schedule: its grants do not follow it.
  const origin = { forkedFrom: { runId: source.runId, step: key }, ...(options.client === undefined ? {} : { client: options.client }) };
  if ((await createRunWith(guarded, { runId, entry: "executePlan", entries: journal, origin })) === "exists") {
    throw new InvalidOptionsError(`a run "${runId}" exists already; give the new run another id`);
  }
  return { runId, rerun: graph.keys.filter((each) => again.has(each)), reused, plan: checked.plan };
}

/** The plan the new run runs: the source's, with the step's new arguments, or the edited plan given. */
function editedPlan(plan: Plan, key: string, options: ForkOptions): unknown {
  if (options.plan !== undefined && options.args !== undefined)
    throw new InvalidOptionsError("give the step new args or a whole edited plan, not both");
  if (options.plan !== undefined) return options.plan;
  if (!plan.steps.some((step) => stepKey(step.id) === key)) {
    throw new InvalidOptionsError(
      `run "${options.from}" has no step "${key}"; its steps: ${plan.steps.map((step) => stepKey(step.id)).join(", ")}`,
    );
  }
  if (options.args === undefined) return plan;
  return { ...plan, steps: plan.steps.map((step) => (stepKey(step.id) === key ? { ...step, args: options.args } : step)) };
}

function lastPlan(run: StoredRun): Plan {
  const entry = run.journal.findLast((each) => each.kind === "plan");
  if (entry === undefined) throw new InvalidOptionsError(`run "${run.runId}" never wrote its plan: there is nothing to rerun`);
  return entry.plan as Plan;
}

/** The start and end of each step that succeeded and is not to run again, as the source kept them. */
function reusedEntries(source: StoredRun, again: ReadonlySet<string>): { entries: JournalEntry[]; reused: string[] } {
  // Each step's last start and last end, in one pass over the journal.
  const starts = new Map<string, Extract<JournalEntry, { kind: "step-start" }>>();
  const ends = new Map<string, Extract<JournalEntry, { kind: "step-end" }>>();
  for (const entry of source.journal) {
    if (entry.kind === "step-start") starts.set(entry.stepKey, entry);
    else if (entry.kind === "step-end") ends.set(entry.stepKey, entry);
  }
  const entries: JournalEntry[] = [];
  const reused: string[] = [];
  for (const [key, end] of ends) {
    if (again.has(key) || (end.record as StepRecord).status !== "succeeded") continue;
    const start = starts.get(key);
    if (start) entries.push(start);
    // What the run had spent is its own: the new run counts from nothing.
    const { totals: _, ...ended } = end;
    entries.push(ended);
    reused.push(key);
  }
  return { entries, reused };
}
