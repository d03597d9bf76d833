import { createRequire } from "node:module";
import type * as Dagre from "@dagrejs/dagre";
import type * as Graphlib from "@dagrejs/graphlib";
import type { TraceBar, TraceNotRun, TracePlanVersion } from "./trace-model.js";

/** How a step of a plan version stands against the version before it. */
export type StepChange = "new" | "changed" | "kept" | "reused";

export interface LaidOutNode {
  id: string;
  task: string;
  tool?: string;
  x: number;
  y: number;
  width: number;
  height: number;
  /** How the step ended in this version: its last run, or why it never ran. */
  status: string;
  change: StepChange;
}

export interface LaidOutVersion {
  version: number;
  width: number;
  height: number;
  nodes: LaidOutNode[];
  edges: Array<{ from: string; to: string; points: Array<{ x: number; y: number }> }>;
  /** Steps of the version before that this one dropped. */
  dropped: string[];
  /** A version of more than `drawnStepsAtMost` steps is not laid out: its step count (no nodes, no edges). */
  tooLarge?: number;
}

/** The most steps a plan version is drawn as a graph with: beyond it, a picture of it would help nobody, and cost seconds. */
export const drawnStepsAtMost = 2_000;

const nodeHeight = 36;

/** dagre and graphlib, loaded when a page is first laid out: importing planloop does not pay for them. */
let layout: { dagre: typeof Dagre; Graph: typeof Graphlib.Graph } | undefined;
function layoutLibraries(): NonNullable<typeof layout> {
  if (layout === undefined) {
    const require = createRequire(import.meta.url);
    layout = { dagre: require("@dagrejs/dagre") as typeof Dagre, Graph: (require("@dagrejs/graphlib") as typeof Graphlib).Graph };
  }
  return layout;
}

/**
 * Each plan version's DAG laid out left to right with dagre (on a graphlib graph), every
 * dependency an edge, each step marked with its status in that version and how it differs
 * from the version before: new, changed, kept (ran again) or reused (its result kept).
 */
export function layOutVersions(
  versions: readonly TracePlanVersion[],
  runs: { bars: readonly TraceBar[]; notRun: readonly TraceNotRun[] },
): LaidOutVersion[] {
  const statusOf = new Map<string, string>();
  for (const entry of runs.notRun) statusOf.set(`${entry.version}:${entry.stepId}`, entry.status);
  for (const bar of [...runs.bars].sort((a, b) => a.startedAt - b.startedAt)) statusOf.set(`${bar.version}:${bar.stepId}`, bar.status);
  return versions.map((plan, index) => {
    const previous = index > 0 ? versions[index - 1] : undefined;
    const before = new Map((previous?.steps ?? []).map((step) => [step.id, signature(step)]));
    const ids = new Set(plan.steps.map((step) => step.id));
    const dropped = (previous?.steps ?? []).filter((step) => !ids.has(step.id)).map((step) => step.id);
    if (plan.steps.length > drawnStepsAtMost)
      return { version: plan.version, width: 0, height: 0, nodes: [], edges: [], dropped, tooLarge: plan.steps.length };
    const placed = geometryOf(plan, ids);
    const nodes = plan.steps.map((step): LaidOutNode => {
      const node = placed.nodes.get(step.id)!;
      const ran = statusOf.get(`${plan.version}:${step.id}`);
      const old = before.get(step.id);
      const change: StepChange = old === undefined ? "new" : old !== signature(step) ? "changed" : ran === undefined ? "reused" : "kept";
      return {
        id: step.id,
        task: step.task,
        ...(step.tool === undefined ? {} : { tool: step.tool }),
        x: node.x - node.width / 2,
        y: node.y - node.height / 2,
        width: node.width,
        height: node.height,
        status: ran ?? (change === "reused" ? "reused" : "not run"),
        change,
      };
    });
    return { version: plan.version, width: placed.width, height: placed.height, nodes, edges: placed.edges, dropped };
  });
}

interface Geometry {
  nodes: Map<string, { x: number; y: number; width: number; height: number }>;
  edges: LaidOutVersion["edges"];
  width: number;
  height: number;
}

/**
 * Where dagre puts a plan's steps and edges, which depends on the plan alone: kept for the
 * last few plans drawn, so the page of a run that moves (drawn again at each change, by
 * planloop ui) lays a 2,000-step plan out once, not at every redraw.
 */
const laidOut = new Map<string, Geometry>();

function geometryOf(plan: TracePlanVersion, ids: ReadonlySet<string>): Geometry {
  const key = JSON.stringify(plan.steps.map((step) => [step.id, nodeWidth(step), step.depends_on.filter((each) => ids.has(each))]));
  const kept = laidOut.get(key);
  if (kept !== undefined) {
    laidOut.delete(key);
    laidOut.set(key, kept);
    return kept;
  }
  const { dagre, Graph } = layoutLibraries();
  const graph = new Graph({ multigraph: false });
  graph.setGraph({ rankdir: "LR", nodesep: 14, ranksep: 48, marginx: 8, marginy: 8 });
  graph.setDefaultEdgeLabel(() => ({}));
  for (const step of plan.steps) graph.setNode(step.id, { width: nodeWidth(step), height: nodeHeight });
  for (const step of plan.steps) for (const dependency of step.depends_on) if (ids.has(dependency)) graph.setEdge(dependency, step.id);
  dagre.layout(graph);
  const size = graph.graph() as { width?: number; height?: number };
  const geometry: Geometry = {
    nodes: new Map(plan.steps.map((step) => [step.id, graph.node(step.id) as { x: number; y: number; width: number; height: number }])),
    edges: graph
      .edges()
      .map((edge) => ({ from: edge.v, to: edge.w, points: (graph.edge(edge) as { points: Array<{ x: number; y: number }> }).points })),
    width: Math.ceil(size.width ?? 0),
    height: Math.ceil(size.height ?? 0),
  };
  laidOut.set(key, geometry);
  if (laidOut.size > 16) laidOut.delete(laidOut.keys().next().value!);
  return geometry;
}

/** Wide enough for its two lines: "<id> <tool>" and "<change>, <status>" (at most "changed, succeeded"). */
function nodeWidth(step: { id: string; tool?: string }): number {
  const longest = Math.max(`${step.id} ${step.tool ?? "agent"}`.length, "changed, succeeded".length);
  return Math.min(190, 16 + 6.6 * longest);
}

function signature(step: TracePlanVersion["steps"][number]): string {
  return JSON.stringify([step.task, step.tool ?? null, [...step.depends_on].sort(), step.model ?? null, step.args ?? null]);
}
