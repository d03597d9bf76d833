import { canonicalJson } from "../core/canonical-json.js";
import type { PlanloopEvent } from "../core/events.js";
import { isRecord } from "../core/is-record.js";
import type { StepRecord } from "../plan/step-record.js";
import { findPlaceholders } from "../plan/placeholders.js";

/** How a run's plan compares with a task's gold plan. */
export interface PlanScorecard {
  /** Tool calls (tool and arguments) of the gold plan found in the run's, and the run's that the gold plan has. */
  calls: Match;
  /** Dependencies between calls (which call's output another reads, or waits for). */
  edges: Match;
  /** The longest chain of steps one after another: the gold plan's, and the run's. */
  criticalPath: { gold: number; emitted: number };
  /** Steps the run put one after another that the gold plan runs side by side (its chain minus the gold one's, 0 or more). */
  serialized: number;
  /** The steps' wall time over its lower bound, the longest chain of their own durations (1 is the best); plan runs only. */
  makespanOverBound?: number;
}

export interface Match {
  gold: number;
  emitted: number;
  found: number;
  precision: number;
  recall: number;
}

interface Step {
  id: string;
  tool?: string;
  args?: unknown;
  depends_on?: unknown[];
}

/**
 * The scorecard of a run against a gold plan in planloop's JSON format. Arguments that refer to
 * another step's output compare by what they refer to (that step's tool, and the path into
 * its output), not by the step's id or the placeholder's spelling. A run with no plan (ReAct)
 * is read from its tool calls, each model turn's calls side by side.
 */
export function planScorecard(
  gold: unknown,
  run: { plan?: unknown; stepResults?: Record<string, StepRecord>; trace?: readonly PlanloopEvent[] },
): PlanScorecard {
  const goldSteps = stepsOf(gold);
  const planned = run.plan === undefined ? undefined : stepsOf(run.plan);
  const goldCalls = signatures(goldSteps);
  const goldEdges = edges(goldSteps, goldCalls);
  if (planned !== undefined) {
    const calls = signatures(planned);
    return {
      calls: match(goldCalls.filter(Boolean) as string[], calls.filter(Boolean) as string[]),
      edges: match(goldEdges, edges(planned, calls)),
      criticalPath: { gold: chain(goldSteps), emitted: chain(planned) },
      serialized: Math.max(0, chain(planned) - chain(goldSteps)),
      ...makespan(planned, run.stepResults),
    };
  }
  // No plan: the calls the loop made, and how many turns they took.
  const made = (run.trace ?? []).flatMap((event) => (event.type === "tool-call-start" ? [event] : []));
  const turns = new Set(made.map((event) => event.step)).size;
  return {
    calls: match(
      goldCalls.filter(Boolean) as string[],
      made.map((event) => `${event.name}(${canonicalJson(event.arguments)})`),
    ),
    edges: match(goldEdges, []),
    criticalPath: { gold: chain(goldSteps), emitted: turns },
    serialized: Math.max(0, turns - chain(goldSteps)),
  };
}

function stepsOf(plan: unknown): Step[] {
  const steps = isRecord(plan) && Array.isArray(plan.steps) ? plan.steps : [];
  return steps.filter(isRecord).map((step) => ({
    id: String(step.id),
    ...(typeof step.tool === "string" ? { tool: step.tool } : {}),
    args: step.args,
    depends_on: Array.isArray(step.depends_on) ? step.depends_on : [],
  }));
}

/**
 * Each tool step's call, its references to other steps written as the calls they refer to
 * (recursively: `@search({"q":"refunds"}).rows`); undefined for agent steps.
 */
function signatures(steps: readonly Step[]): Array<string | undefined> {
  const byId = new Map(steps.map((step) => [step.id, step]));
  const ids = new Set(byId.keys());
  const memo = new Map<string, string>();
  const signature = (step: Step, seen: Set<string>): string => {
    const known = memo.get(step.id);
    if (known !== undefined) return known;
    if (seen.has(step.id) || step.tool === undefined) return `@${step.tool ?? "agent"}`;
    seen.add(step.id);
    const referred = (value: unknown): unknown => {
      if (typeof value === "string") {
        let text = value;
        for (const reference of findPlaceholders(value, { isStep: (id) => ids.has(id) })) {
          const target = byId.get(String(reference.step));
          const path = reference.path.map((part) => `.${part}`).join("");
          text = text.replace(reference.text, `@${target === undefined ? "step" : signature(target, seen)}${path}`);
        }
        return text;
      }
      if (Array.isArray(value)) return value.map(referred);
      if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, referred(item)]));
      return value;
    };
    const made = `${step.tool}(${canonicalJson(referred(step.args ?? {}))})`;
    memo.set(step.id, made);
    return made;
  };
  return steps.map((step) => (step.tool === undefined ? undefined : signature(step, new Set())));
}

/** Each dependency (listed, or read through a placeholder) as "from -> to" by the two calls. */
function edges(steps: readonly Step[], calls: ReadonlyArray<string | undefined>): string[] {
  const index = new Map(steps.map((step, position) => [step.id, position]));
  const ids = new Set(index.keys());
  return steps.flatMap((step, position) => {
    return needsOf(step, ids).flatMap((need) => {
      const from = index.get(need);
      return from === undefined ? [] : [`${calls[from] ?? `agent ${need}`} -> ${calls[position] ?? `agent ${step.id}`}`];
    });
  });
}

/** The steps a step waits for: those it lists, and those whose output its arguments read. */
function needsOf(step: Step, ids: ReadonlySet<string>): string[] {
  const references = findPlaceholders(step.args, { isStep: (id) => ids.has(id) }).map((reference) => String(reference.step));
  return [...new Set([...(step.depends_on ?? []).map(String), ...references])];
}

/** How many of `gold` the `emitted` list has, each counted once. */
function match(gold: readonly string[], emitted: readonly string[]): Match {
  const left = new Map<string, number>();
  for (const item of emitted) left.set(item, (left.get(item) ?? 0) + 1);
  let found = 0;
  for (const item of gold) {
    const count = left.get(item) ?? 0;
    if (count > 0) {
      found += 1;
      left.set(item, count - 1);
    }
  }
  return {
    gold: gold.length,
    emitted: emitted.length,
    found,
    precision: emitted.length === 0 ? (gold.length === 0 ? 1 : 0) : found / emitted.length,
    recall: gold.length === 0 ? 1 : found / gold.length,
  };
}

/** The longest chain of steps, each after the ones it depends on (a cycle counts once). */
function chain(steps: readonly Step[], weight: (step: Step) => number = () => 1): number {
  const byId = new Map(steps.map((step) => [step.id, step]));
  const ids = new Set(byId.keys());
  const memo = new Map<string, number>();
  const depth = (step: Step, seen: Set<string>): number => {
    const known = memo.get(step.id);
    if (known !== undefined) return known;
    if (seen.has(step.id)) return 0;
    seen.add(step.id);
    const needs = needsOf(step, ids);
    const before = Math.max(
      0,
      ...needs
        .map((need) => byId.get(need))
        .filter((need): need is Step => need !== undefined)
        .map((need) => depth(need, seen)),
    );
    const value = before + weight(step);
    memo.set(step.id, value);
    return value;
  };
  return Math.max(0, ...steps.map((step) => depth(step, new Set())));
}

function makespan(steps: readonly Step[], records: Record<string, StepRecord> | undefined): { makespanOverBound?: number } {
  if (records === undefined) return {};
  const timed = steps.filter((step) => records[step.id]?.startedAt !== undefined && records[step.id]?.endedAt !== undefined);
  if (timed.length === 0) return {};
  const start = Math.min(...timed.map((step) => records[step.id]!.startedAt!));
  const end = Math.max(...timed.map((step) => records[step.id]!.endedAt!));
  const bound = chain(timed, (step) => records[step.id]!.endedAt! - records[step.id]!.startedAt!);
  // Steps too quick to measure (0 ms each, the run 0 ms in all) took exactly their bound.
  if (bound === 0) return end === start ? { makespanOverBound: 1 } : {};
  return { makespanOverBound: (end - start) / bound };
}
