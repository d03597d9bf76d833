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
}

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
  const { dagre, Graph } = layoutLibraries();
  return versions.map((plan, index) => {
    const previous = index > 0 ? versions[index - 1] : undefined;
    const before = new Map((previous?.steps ?? []).map((step) => [step.id, signature(step)]));
    const graph = new Graph({ multigraph: false });
    graph.setGraph({ rankdir: "LR", nodesep: 14, ranksep: 48, marginx: 8, marginy: 8 });
    graph.setDefaultEdgeLabel(() => ({}));
    const ids = new Set(plan.steps.map((step) => step.id));
    for (const step of plan.steps) graph.setNode(step.id, { width: nodeWidth(step), height: nodeHeight });
    for (const step of plan.steps) for (const dependency of step.depends_on) if (ids.has(dependency)) graph.setEdge(dependency, step.id);
    dagre.layout(graph);
    const nodes = plan.steps.map((step): LaidOutNode => {
      const placed = graph.node(step.id) as { x: number; y: number; width: number; height: number };
      const ran = statusOf.get(`${plan.version}:${step.id}`);
      const old = before.get(step.id);
      const change: StepChange = old === undefined ? "new" : old !== signature(step) ? "changed" : ran === undefined ? "reused" : "kept";
      return {
        id: step.id,
        task: step.task,
        ...(step.tool === undefined ? {} : { tool: step.tool }),
        x: placed.x - placed.width / 2,
        y: placed.y - placed.height / 2,
        width: placed.width,
        height: placed.height,
        status: ran ?? (change === "reused" ? "reused" : "not run"),
        change,
      };
    });
    const edges = graph
      .edges()
      .map((edge) => ({ from: edge.v, to: edge.w, points: (graph.edge(edge) as { points: Array<{ x: number; y: number }> }).points }));
    const size = graph.graph() as { width?: number; height?: number };
    const dropped = (previous?.steps ?? []).filter((step) => !ids.has(step.id)).map((step) => step.id);
    return { version: plan.version, width: Math.ceil(size.width ?? 0), height: Math.ceil(size.height ?? 0), nodes, edges, dropped };
  });
}

/** Wide enough for its two lines: "<id> <tool>" and "<change>, <status>" (at most "changed, succeeded"). */
function nodeWidth(step: { id: string; tool?: string }): number {
  const longest = Math.max(`${step.id} ${step.tool ?? "agent"}`.length, "changed, succeeded".length);
  return Math.min(190, 16 + 6.6 * longest);
}

function signature(step: TracePlanVersion["steps"][number]): string {
  return JSON.stringify([step.task, step.tool ?? null, [...step.depends_on].sort(), step.model ?? null, step.args ?? null]);
}
