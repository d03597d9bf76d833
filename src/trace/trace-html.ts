import type { PlanloopEvent } from "../core/events.js";
import { drawnStepsAtMost, layOutVersions, type LaidOutVersion } from "./plan-layout.js";
import { summarizeTrace, type TraceBar, type TracePlanVersion, type TraceSummary } from "./trace-model.js";
import { viewerScript } from "./trace-viewer.js";

const colours: Record<string, string> = {
  succeeded: "#3b8f5a",
  failed: "#c0392b",
  skipped: "#9aa0a6",
  cancelled: "#8e6c3a",
  waiting: "#d4a017",
  running: "#4a90d9",
  interrupted: "#e67e22",
  reused: "#b7dfc4",
  "not run": "#eaeef2",
};
const changeStroke: Record<string, string> = { new: "#1f6feb", changed: "#e36209", kept: "#57606a", reused: "#57606a" };

/**
 * A self-contained HTML page of a run (no network): the summary; a timeline with a time
 * axis, zoom and pan, a legend, every attempt of a step, replans with their reasons; a
 * step's details on click; the steps that never ran and why; each plan version's DAG with
 * its edges, statuses and what changed from the version before; and a table of every step.
 * The data goes into the page as JSON and is written out as text only.
 */
export function renderTraceHtml(
  events: readonly PlanloopEvent[],
  /** `embedded`: drawn inside planloop ui's run page, which lists the steps itself: no table of every step. */
  options: { title?: string; embedded?: boolean } = {},
): string {
  const trace = summarizeTrace(events);
  const versions = layOutVersions(trace.versions, trace);
  const title = options.title ?? "planloop run";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title>
<style>
body { font: 14px/1.45 system-ui, sans-serif; margin: 24px; color: #1f2328; }
h1 { font-size: 20px; margin: 0 0 12px; } h2 { font-size: 16px; margin: 20px 0 8px; }
table { border-collapse: collapse; margin: 12px 0; }
td, th { border: 1px solid #d0d7de; padding: 4px 10px; text-align: left; vertical-align: top; white-space: pre-wrap; }
.status { font-weight: 600; } svg text { font: 11px system-ui, sans-serif; }
#timeline { width: 100%; overflow: hidden; cursor: grab; user-select: none; border: 1px solid #d0d7de; }
.controls button { margin-right: 6px; } .legend span { display: inline-block; margin-right: 14px; }
.legend i { display: inline-block; width: 12px; height: 12px; margin-right: 4px; vertical-align: -1px; border-radius: 2px; }
.step.selected rect, .dag-node.selected rect { stroke: #0969da; stroke-width: 2.5; }
#details { min-height: 40px; padding: 4px 0; } .dag-node { cursor: pointer; } .hint { color: #57606a; }
</style></head><body>
<h1>${escape(title)}</h1>
${summaryTable(trace)}
<div class="controls"><button id="zoom-in">zoom in</button><button id="zoom-out">zoom out</button><button id="zoom-reset">whole run</button><span class="hint">scroll to zoom, drag to pan, click a step for its details</span></div>
${legend()}
<div id="timeline"><noscript>The timeline needs JavaScript; the tables below have the same steps.</noscript></div>
<h2>Step details</h2>
<div id="details" class="hint">Click a step in the timeline or a plan to see its task, arguments, output, attempts and inner calls.</div>
${groundingList(trace)}
${replanList(trace)}
${pauseList(trace)}
${notRunList(trace)}
${versions.map((laidOut, index) => programSection(trace, trace.versions[index]) ?? dagSvg(laidOut)).join("\n")}
${options.embedded ? "" : stepTable(trace.bars)}
<script type="application/json" id="trace-data">${jsonForScript(viewerData(trace))}</script>
<script id="planloop-viewer">${viewerScript}</script>
</body></html>
`;
}

/** What the script draws from: numbers made numbers, everything else as the events had it. */
function viewerData(trace: TraceSummary) {
  return {
    durationMs: number(trace.durationMs),
    lanes: number(trace.lanes),
    modelCalls: trace.modelCalls.map((call) => ({
      purpose: String(call.purpose),
      startedAt: number(call.startedAt),
      endedAt: number(call.endedAt),
    })),
    pauses: trace.pauses.map((pause) => ({
      at: number(pause.at),
      status: String(pause.status),
      ...(pause.resumedAt === undefined ? {} : { resumedAt: number(pause.resumedAt) }),
    })),
    replans: trace.replans.map((replan) => ({
      at: number(replan.at),
      replans: number(replan.replans),
      reason: String(replan.reason),
      dropped: replan.dropped === true,
    })),
    bars: trace.bars.map((bar) => ({
      ...bar,
      stepId: String(bar.stepId),
      version: number(bar.version),
      lane: number(bar.lane),
      startedAt: number(bar.startedAt),
      endedAt: number(bar.endedAt),
      attempts: number(bar.attempts),
      segments: bar.segments.map((segment) => ({ ...segment, startedAt: number(segment.startedAt), endedAt: number(segment.endedAt) })),
    })),
  };
}

/** JSON inside a script element: `<` written as \u003c, so no text in it can end the element. */
function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/\u2028|\u2029/g, (char) => (char === "\u2028" ? "\\u2028" : "\\u2029"));
}

function summaryTable(trace: TraceSummary): string {
  const usage = trace.usage;
  const rows: Array<[string, string]> = [
    ["status", `<span class="status">${escape(String(trace.status))}</span>`],
    ...(trace.reason ? [["reason", escape(String(trace.reason))] as [string, string]] : []),
    ["wall time", `${whole(trace.durationMs)} ms`],
    ["steps run", String(trace.bars.length)],
    ["plan versions", String(trace.versions.length)],
    ["replans", String(trace.replans.filter((replan) => !replan.dropped).length)],
  ];
  if (usage) {
    rows.push(
      ["model calls", whole(usage.modelCalls)],
      ["tokens (input / output)", `${whole(usage.inputTokens)} / ${whole(usage.outputTokens)}`],
      ["cost", `$${number(usage.costUsd).toFixed(4)}`],
      ["tool calls", whole(usage.toolCalls)],
    );
  }
  return `<table class="summary">${rows.map(([name, value]) => `<tr><th>${name}</th><td>${value}</td></tr>`).join("")}</table>`;
}

function legend(): string {
  const entries: Array<[string, string]> = [
    ...["succeeded", "failed", "skipped", "cancelled", "waiting", "running", "interrupted"].map((status): [string, string] => [
      status,
      colours[status]!,
    ]),
    ["failed attempt (retried)", "#e8a09a"],
    ["model call (plan, solve, join)", "#6f42c1"],
    ["replan", "#e36209"],
  ];
  return `<div class="legend">${entries.map(([name, colour]) => `<span><i style="background:${colour}"></i>${escape(name)}</span>`).join("")}</div>`;
}

/** The answer's claims as grounding checked them: counts, and each unsupported one with why. */
function groundingList(trace: TraceSummary): string {
  const found = trace.grounding;
  if (found === undefined) return "";
  const head = `${whole(found.claims)} claims: ${whole(found.supported)} supported, ${whole(found.unsupported)} unsupported, ${whole(found.uncited)} uncited (${escape(String(found.policy))}${found.repaired ? ", repaired once" : ""}${found.removed > 0 ? `, ${whole(found.removed)} sentences taken out` : ""})`;
  const items = found.flagged.map((claim) => `<li><b>${escape(String(claim.text))}</b>: ${escape(String(claim.reason))}</li>`);
  return `<h2>Grounding</h2><p class="grounding">${head}</p>${items.length > 0 ? `<ul class="unsupported">${items.join("")}</ul>` : ""}`;
}

function replanList(trace: TraceSummary): string {
  if (trace.replans.length === 0) return "";
  const items = trace.replans.map(
    (replan) =>
      `<li>at ${whole(replan.at)} ms, replan ${whole(replan.replans)}${replan.dropped ? " (early, dropped: the planner was asked again)" : ""}: ${escape(String(replan.reason))}</li>`,
  );
  return `<h2>Replans</h2><ol class="replans">${items.join("")}</ol>`;
}

function pauseList(trace: TraceSummary): string {
  if (trace.pauses.length === 0) return "";
  const items = trace.pauses.map(
    (pause) =>
      `<li>at ${whole(pause.at)} ms, the run stopped (${escape(String(pause.status))})${pause.resumedAt === undefined ? "; not continued yet" : `; continued at ${whole(pause.resumedAt)} ms, after ${whole(pause.resumedAt - pause.at)} ms`}${decidedList(pause.decided)}</li>`,
  );
  return `<h2>Pauses</h2><ol class="pauses">${items.join("")}</ol>`;
}

function decidedList(decided: TraceSummary["pauses"][number]["decided"]): string {
  if (decided === undefined) return "";
  const each = decided.map((one) => `${escape(one.id)} ${escape(one.decision)}${one.at === undefined ? "" : ` at ${whole(one.at)} ms`}`);
  return `, decided: ${each.join("; ")}`;
}

function notRunList(trace: TraceSummary): string {
  if (trace.notRun.length === 0) return "";
  const items = trace.notRun.map(
    (step) =>
      `<li data-step-id="${escape(String(step.stepId))}">step ${escape(String(step.stepId))} (plan ${whole(step.version)}) ${escape(String(step.task))}: <b>${escape(String(step.status))}</b> — ${escape(String(step.reason))}</li>`,
  );
  return `<h2>Steps that did not run</h2><ul class="not-run">${items.join("")}</ul>`;
}

/**
 * A code-mode program: its text, then each call it made, in the order they started, with the
 * step it was (its id in the timeline), the tool, the arguments and how it ended. No graph:
 * a program's calls have no edges, and a repair's are new calls, not a changed plan.
 */
function programSection(trace: TraceSummary, version: TracePlanVersion | undefined): string | undefined {
  if (version?.program === undefined) return undefined;
  const statusOf = new Map<string, string>();
  for (const bar of trace.bars) if (bar.version === version.version) statusOf.set(bar.stepId, bar.status);
  const rows = version.steps.map(
    (step) =>
      `<tr data-step-id="${escape(step.id)}"><td><code>${escape(step.id)}</code></td><td>${escape(step.tool ?? "")}</td><td><code>${escape(JSON.stringify(step.args ?? {}) ?? "")}</code></td><td>${escape(statusOf.get(step.id) ?? "")}</td></tr>`,
  );
  const calls =
    rows.length === 0
      ? `<p class="hint">It made no call.</p>`
      : `<table class="program-calls"><tr><th>step</th><th>tool</th><th>arguments</th><th>status</th></tr>${rows.join("")}</table>`;
  return `<h2>Program ${whole(version.version)}</h2><pre class="program" data-version="${whole(version.version)}">${escape(version.program)}</pre>${calls}`;
}

function dagSvg(plan: LaidOutVersion): string {
  if (plan.tooLarge !== undefined)
    return `<h2>Plan ${whole(plan.version)}</h2><p class="hint" data-too-large="${whole(plan.tooLarge)}">${whole(plan.tooLarge)} steps: too many to draw as a graph (more than ${whole(drawnStepsAtMost)}); the timeline above shows every step.</p>`;
  const width = Math.max(120, number(plan.width));
  const height = Math.max(40, number(plan.height));
  const edges = plan.edges.map((edge) => {
    const points = edge.points.map((point) => `${number(point.x).toFixed(1)},${number(point.y).toFixed(1)}`).join(" ");
    return `<polyline class="dag-edge" data-from="${escape(edge.from)}" data-to="${escape(edge.to)}" points="${points}" fill="none" stroke="#8c959f" marker-end="url(#arrow-${whole(plan.version)})"/>`;
  });
  const nodes = plan.nodes.map((node) => {
    const fill = colours[node.status] ?? "#555";
    const dark = ["succeeded", "failed", "cancelled"].includes(node.status);
    const label = `${node.id} ${node.tool ?? "agent"}`;
    return `<g class="dag-node" data-step-id="${escape(node.id)}" data-version="${whole(plan.version)}" data-status="${escape(node.status)}" data-change="${node.change}"><rect x="${number(node.x).toFixed(1)}" y="${number(node.y).toFixed(1)}" width="${number(node.width).toFixed(1)}" height="${number(node.height).toFixed(1)}" rx="4" fill="${fill}" stroke="${changeStroke[node.change]}" stroke-width="${node.change === "new" || node.change === "changed" ? 2 : 1}"${node.change === "reused" ? ' stroke-dasharray="3 2"' : ""}/><text x="${(number(node.x) + 6).toFixed(1)}" y="${(number(node.y) + 15).toFixed(1)}" fill="${dark ? "#fff" : "#1f2328"}">${escape(label.length > 24 ? `${label.slice(0, 23)}…` : label)}</text><text x="${(number(node.x) + 6).toFixed(1)}" y="${(number(node.y) + 29).toFixed(1)}" fill="${dark ? "#fff" : "#57606a"}">${escape(node.change === "reused" ? "reused: result kept" : `${node.change}, ${node.status}`)}</text><title>${escape(`step ${node.id}: ${node.task} (${node.change}, ${node.status})`)}</title></g>`;
  });
  const dropped =
    plan.dropped.length > 0
      ? `<p class="dropped">dropped from plan ${whole(plan.version - 1)}: ${plan.dropped.map((id) => escape(id)).join(", ")}</p>`
      : "";
  return `<h2>Plan ${whole(plan.version)}</h2><p class="hint">borders: blue new, orange changed, grey kept (ran again), dashed reused (its result kept)</p><svg class="dag" data-version="${whole(plan.version)}" xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs><marker id="arrow-${whole(plan.version)}" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="#8c959f"/></marker></defs>${edges.join("")}${nodes.join("")}</svg>${dropped}`;
}

function stepTable(bars: readonly TraceBar[]): string {
  const rows = [...bars]
    .sort((a, b) => a.startedAt - b.startedAt)
    .map(
      (bar) =>
        `<tr><td>${escape(String(bar.stepId))}</td><td>${whole(bar.version)}</td><td>${escape(String(bar.task))}</td><td>${escape(String(bar.status))}</td><td>${whole(bar.startedAt)}</td><td>${whole(bar.endedAt - bar.startedAt)}</td><td>${whole(bar.attempts)}</td><td>${bar.toolCalls.length}</td><td>${escape(String(bar.error ?? ""))}</td></tr>`,
    );
  return `<h2>Every step</h2><table class="steps"><tr><th>step</th><th>plan</th><th>task</th><th>status</th><th>start (ms)</th><th>took (ms)</th><th>attempts</th><th>inner tool calls</th><th>error</th></tr>${rows.join("")}</table>`;
}

/**
 * Every value from an events file is written through one of these: text escaped, numbers
 * read as numbers (a crafted file may put markup where a number belongs).
 */
function number(value: unknown): number {
  const read = typeof value === "number" ? value : Number(value);
  return Number.isFinite(read) ? read : 0;
}

function whole(value: unknown): string {
  return String(Math.round(number(value)));
}

function escape(text: string): string {
  return String(text).replace(/[&<>"']/g, (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[char]!);
}
