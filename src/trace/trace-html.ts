import type { PlanloopEvent } from "../core/events.js";
import { summarizeTrace, type TraceBar, type TraceSummary } from "./trace-model.js";

const width = 960;
const left = 70;
const laneHeight = 28;
const colours: Record<string, string> = {
  succeeded: "#3b8f5a",
  failed: "#c0392b",
  skipped: "#9aa0a6",
  cancelled: "#8e6c3a",
  waiting: "#d4a017",
};

/**
 * A self-contained HTML page (no scripts, no network) with a Gantt chart of a run: one lane
 * per concurrently running step, planner calls on their own lane, replans marked, inner
 * ReAct steps and tool calls drawn inside their step, totals and the final status.
 */
export function renderTraceHtml(events: readonly PlanloopEvent[], options: { title?: string } = {}): string {
  const trace = summarizeTrace(events);
  const title = options.title ?? "planloop run";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title>
<style>
body { font: 14px/1.45 system-ui, sans-serif; margin: 24px; color: #1f2328; }
h1 { font-size: 20px; margin: 0 0 12px; }
table { border-collapse: collapse; margin: 12px 0; }
td, th { border: 1px solid #d0d7de; padding: 4px 10px; text-align: left; vertical-align: top; }
.status { font-weight: 600; }
svg text { font: 11px system-ui, sans-serif; }
</style></head><body>
<h1>${escape(title)}</h1>
${summaryTable(trace)}
${chart(trace)}
${stepTable(trace.bars)}
</body></html>
`;
}

function summaryTable(trace: TraceSummary): string {
  const usage = trace.usage;
  const rows: Array<[string, string]> = [
    ["status", `<span class="status">${escape(String(trace.status))}</span>`],
    ...(trace.reason ? [["reason", escape(String(trace.reason))] as [string, string]] : []),
    ["wall time", `${whole(trace.durationMs)} ms`],
    ["steps run", String(trace.bars.length)],
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

function chart(trace: TraceSummary): string {
  const duration = Math.max(1, number(trace.durationMs));
  const x = (time: number) => (left + (number(time) / duration) * (width - left - 10)).toFixed(1);
  const plannerTop = 20;
  const lanesTop = plannerTop + laneHeight + 10;
  const height = lanesTop + Math.max(1, trace.lanes) * laneHeight + 30;
  const parts: string[] = [];
  parts.push(`<text x="4" y="${plannerTop + 17}">model</text>`);
  for (const call of trace.modelCalls) {
    parts.push(
      `<g class="model-call"><rect x="${x(call.startedAt)}" y="${plannerTop + 4}" width="${Math.max(2, Number(x(call.endedAt)) - Number(x(call.startedAt))).toFixed(1)}" height="${laneHeight - 8}" fill="#6f42c1" opacity="0.75"><title>${escape(call.purpose)} call, ${whole(call.endedAt - call.startedAt)} ms</title></rect><text x="${Number(x(call.startedAt)) + 3}" y="${plannerTop + 18}" fill="#fff">${escape(call.purpose)}</text></g>`,
    );
  }
  for (let lane = 0; lane < trace.lanes; lane += 1)
    parts.push(`<text x="4" y="${lanesTop + lane * laneHeight + 17}">lane ${lane + 1}</text>`);
  for (const bar of trace.bars) parts.push(stepBar(bar, x, lanesTop + bar.lane * laneHeight));
  for (const replan of trace.replans) {
    const color = replan.dropped ? "#959da5" : "#e36209";
    const label = `replan ${whole(replan.replans)}${replan.dropped ? " (early, dropped)" : ""}`;
    parts.push(
      `<g class="replan"><line x1="${x(replan.at)}" x2="${x(replan.at)}" y1="10" y2="${height - 20}" stroke="${color}" stroke-dasharray="4 3"/><text x="${Number(x(replan.at)) + 3}" y="12" fill="${color}">${escape(label)}</text><title>${escape(replan.reason)}</title></g>`,
    );
  }
  parts.push(`<text x="${left}" y="${height - 6}">0 ms</text><text x="${width - 70}" y="${height - 6}">${whole(duration)} ms</text>`);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" role="img" aria-label="timeline">${parts.join("")}</svg>`;
}

function stepBar(bar: TraceBar, x: (time: number) => string, top: number): string {
  const start = Number(x(bar.startedAt));
  const barWidth = Math.max(3, Number(x(bar.endedAt)) - start).toFixed(1);
  const label = `step ${bar.stepId}${number(bar.version) > 1 ? ` (plan ${whole(bar.version)})` : ""}: ${bar.task}`;
  const ticks = bar.innerSteps.map(
    (time) =>
      `<line class="inner-step" x1="${x(time)}" x2="${x(time)}" y1="${top + 4}" y2="${top + laneHeight - 4}" stroke="#fff" stroke-width="1"/>`,
  );
  const calls = bar.toolCalls.map(
    (call) =>
      `<circle class="tool-call" cx="${x(call.at)}" cy="${top + laneHeight - 7}" r="2.5" fill="${call.ok ? "#fff" : "#ffb3ab"}"><title>${escape(call.name)}</title></circle>`,
  );
  const fill = Object.hasOwn(colours, bar.status) ? colours[bar.status] : "#555";
  return `<g class="step" data-step-id="${escape(String(bar.stepId))}" data-status="${escape(String(bar.status))}"><rect x="${start}" y="${top + 3}" width="${barWidth}" height="${laneHeight - 6}" rx="3" fill="${fill}"><title>${escape(label)} — ${escape(String(bar.status))}, ${whole(bar.endedAt - bar.startedAt)} ms${bar.error ? `: ${escape(String(bar.error))}` : ""}</title></rect><text x="${start + 4}" y="${top + 18}" fill="#fff">${escape(String(bar.stepId))}</text>${ticks.join("")}${calls.join("")}</g>`;
}

function stepTable(bars: readonly TraceBar[]): string {
  const rows = [...bars]
    .sort((a, b) => a.startedAt - b.startedAt)
    .map(
      (bar) =>
        `<tr><td>${escape(String(bar.stepId))}</td><td>${whole(bar.version)}</td><td>${escape(String(bar.task))}</td><td>${escape(String(bar.status))}</td><td>${whole(bar.startedAt)}</td><td>${whole(bar.endedAt - bar.startedAt)}</td><td>${whole(bar.attempts)}</td><td>${bar.toolCalls.length}</td><td>${escape(String(bar.error ?? ""))}</td></tr>`,
    );
  return `<table class="steps"><tr><th>step</th><th>plan</th><th>task</th><th>status</th><th>start (ms)</th><th>took (ms)</th><th>attempts</th><th>inner tool calls</th><th>error</th></tr>${rows.join("")}</table>`;
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
  return text.replace(/[&<>"']/g, (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[char]!);
}
