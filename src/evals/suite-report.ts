import { escape, palette } from "./bench-report.js";
import type { TrialRecord } from "./run-bench.js";
import { scorecardTable, suiteTable, taskSuiteStats, type SuiteColumnStats } from "./task-suite-stats.js";

/** What a report of a suite's bench run is made from (results.json holds the same). */
export interface SuiteReportInput {
  benchId: string;
  suite: string;
  stats: readonly SuiteColumnStats[];
  records: readonly TrialRecord[];
}

/** The report as Markdown: the table, the plan scorecards, each task's trials with their run ids. */
export function suiteMarkdown(input: SuiteReportInput): string {
  const scorecards = scorecardTable(input.records);
  return [
    `# ${input.suite}: planloop bench ${input.benchId}`,
    "",
    suiteTable(input.stats),
    ...(scorecards ? ["", "## Plan scorecards", "", scorecards] : []),
    "",
    "## Tasks",
    "",
    taskTable(input.records),
    "",
    ...[...new Set(input.records.map((record) => record.task))].flatMap((task) => [
      `### ${task}`,
      "",
      suiteTable(taskSuiteStats(input.records.filter((record) => record.task === task))),
      "",
    ]),
  ].join("\n");
}

/** One row per task: each column's trials passed, and the runs (open one with `planloop runs show <id>`). */
function taskTable(records: readonly TrialRecord[]): string {
  const columns = [...new Set(records.map((record) => `${record.strategy} · ${record.model}`))];
  const tasks = [...new Set(records.map((record) => record.task))];
  const rows = tasks.map((task) => {
    const cells = columns.map((column) => {
      const mine = records.filter((record) => record.task === task && `${record.strategy} · ${record.model}` === column);
      return `${mine.filter((record) => record.passed).length}/${mine.length} (${mine.map((record) => `\`${record.runId}\``).join(" ")})`;
    });
    return `| ${task} | ${cells.join(" | ")} |`;
  });
  return [`| task | ${columns.join(" | ")} |`, `| --- |${" --- |".repeat(columns.length)}`, ...rows].join("\n");
}

/**
 * The report as one self-contained HTML page (no script, no network): success with its 95%
 * interval, latency median to p95, and cost per run, each column a bar with its spread.
 */
export function suiteHtml(input: SuiteReportInput): string {
  const label = (entry: SuiteColumnStats) => `${entry.strategy} · ${entry.model}`;
  const charts = [
    spreadBars(
      "success (%), with its 95% interval",
      input.stats.map((entry) => ({
        name: label(entry),
        strategy: entry.strategy,
        value: entry.successRate * 100,
        low: entry.successLow * 100,
        high: entry.successHigh * 100,
      })),
    ),
    spreadBars(
      "latency (ms): median, to p95",
      input.stats.map((entry) => ({
        name: label(entry),
        strategy: entry.strategy,
        value: entry.medianMs,
        low: entry.medianMs,
        high: entry.p95Ms,
      })),
    ),
    spreadBars(
      "cost per run (USD)",
      input.stats.map((entry) => ({
        name: label(entry),
        strategy: entry.strategy,
        value: entry.costUsd,
        low: entry.costUsd,
        high: entry.costUsd,
        digits: 4,
      })),
    ),
  ];
  const tasks = [...new Set(input.records.map((record) => record.task))];
  const rows = tasks.map((task) => {
    const mine = input.records.filter((record) => record.task === task);
    return `<tr><td>${escape(task)}</td>${input.stats
      .map((entry) => {
        const trials = mine.filter((record) => record.strategy === entry.strategy && record.model === entry.model);
        return `<td title="${escape(trials.map((record) => record.runId).join("\n"))}">${trials.filter((record) => record.passed).length}/${trials.length}</td>`;
      })
      .join("")}</tr>`;
  });
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(input.suite)}: planloop bench</title><style>
body { font: 14px/1.45 system-ui, sans-serif; margin: 24px; color: #1f2328; } .charts { display: flex; gap: 24px; flex-wrap: wrap; }
svg text { font: 11px system-ui, sans-serif; } table { border-collapse: collapse; } td, th { border: 1px solid #d0d7de; padding: 3px 8px; }
</style></head><body><h1>${escape(input.suite)}</h1><p>planloop bench ${escape(input.benchId)}: ${input.records.length} runs.</p>
<div class="charts">${charts.join("")}</div>
<h2>Tasks: trials passed</h2><table><tr><th>task</th>${input.stats.map((entry) => `<th>${escape(label(entry))}</th>`).join("")}</tr>${rows.join("")}</table>
</body></html>
`;
}

function spreadBars(
  title: string,
  values: Array<{ name: string; strategy: string; value: number; low: number; high: number; digits?: number }>,
): string {
  const width = 460;
  const rowHeight = 26;
  const left = 200;
  const max = Math.max(1e-9, ...values.map((entry) => entry.high));
  const x = (value: number) => left + (value / max) * (width - left - 60);
  const rows = values.map((entry, index) => {
    const y = 24 + index * rowHeight;
    const shown = entry.digits === undefined ? Math.round(entry.value).toString() : entry.value.toFixed(entry.digits);
    const whisker =
      entry.high > entry.low
        ? `<line class="spread" x1="${x(entry.low)}" x2="${x(entry.high)}" y1="${y + 12}" y2="${y + 12}" stroke="#1f2328" stroke-width="2"/>`
        : "";
    return `<g class="bar"><text x="0" y="${y + 15}">${escape(entry.name.slice(0, 32))}</text><rect x="${left}" y="${y + 3}" width="${Math.max(1, x(entry.value) - left)}" height="${rowHeight - 8}" fill="${palette[entry.strategy] ?? "#555"}"/>${whisker}<text x="${x(entry.high) + 6}" y="${y + 15}">${shown}</text></g>`;
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${30 + values.length * rowHeight}"><text x="0" y="14" font-weight="600">${escape(title)}</text>${rows.join("")}</svg>`;
}
