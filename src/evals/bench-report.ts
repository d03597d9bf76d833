import { strategyStats, type StrategyStats } from "./bench-stats.js";
import type { BenchRecord } from "./built-in-bench.js";
import { tierTable } from "./bench-tiers.js";

const offlineNote =
  "Offline runs use planloop's deterministic offline model and simulated services: they measure orchestration cost (model calls, prompt growth, waiting), not model quality.";

/** A Markdown table of per-strategy statistics. */
export function statsTable(stats: readonly StrategyStats[]): string {
  const header =
    "| strategy | success | model calls | input tokens | output tokens | cost | median ms | p95 ms | tool calls | replans | plan repairs | speed vs ReAct | input tokens vs ReAct |";
  const rows = stats.map((entry) =>
    [
      entry.strategy,
      `${Math.round(entry.successRate * 100)}%`,
      entry.modelCalls.toFixed(1),
      Math.round(entry.inputTokens),
      Math.round(entry.outputTokens),
      `$${entry.costUsd.toFixed(4)}`,
      Math.round(entry.medianMs),
      Math.round(entry.p95Ms),
      entry.toolCalls.toFixed(1),
      entry.replans.toFixed(1),
      entry.repairs.toFixed(2),
      entry.speedupVsReact === undefined ? "–" : `${entry.speedupVsReact.toFixed(2)}x`,
      entry.inputTokensVsReact === undefined ? "–" : `${entry.inputTokensVsReact.toFixed(2)}x`,
    ].join(" | "),
  );
  return [header, `|${" --- |".repeat(13)}`, ...rows.map((row) => `| ${row} |`)].join("\n");
}

/** The targets the issue sets, checked on the measured numbers (where the suites ran). */
export function targetLines(records: readonly BenchRecord[]): string[] {
  const lines: string[] = [];
  const wide = records.filter((record) => record.suite === "fanout" && record.width >= 3);
  const fanout = strategyStats(wide);
  const compiler = fanout.find((entry) => entry.strategy === "llm-compiler");
  const react = fanout.find((entry) => entry.strategy === "react");
  const rewoo = fanout.find((entry) => entry.strategy === "rewoo");
  if (compiler && react) {
    const met = (compiler.speedupVsReact ?? 0) >= 1.8 && compiler.inputTokens < react.inputTokens;
    lines.push(
      `- fanout, width ≥ 3: llm-compiler ${compiler.speedupVsReact?.toFixed(2)}x faster than react (median), ${Math.round(compiler.inputTokens)} vs ${Math.round(react.inputTokens)} input tokens — target ≥ 1.8x with fewer tokens: ${met ? "met" : "NOT met"}`,
    );
  }
  if (rewoo && react) {
    const ratio = (react.inputTokens + react.outputTokens) / Math.max(1, rewoo.inputTokens + rewoo.outputTokens);
    lines.push(
      `- fanout, width ≥ 3: rewoo uses ${ratio.toFixed(2)}x fewer tokens than react — target fewer: ${ratio > 1 ? "met" : "NOT met"}`,
    );
  }
  const replan = strategyStats(records.filter((record) => record.suite === "replan"));
  const planner = replan.find((entry) => entry.strategy === "plan-and-execute");
  const fixed = replan.find((entry) => entry.strategy === "rewoo");
  if (planner && fixed) {
    const met = planner.successRate > fixed.successRate;
    lines.push(
      `- replan: plan-and-execute succeeds ${Math.round(planner.successRate * 100)}%, rewoo ${Math.round(fixed.successRate * 100)}% — target plan-and-execute succeeds where rewoo fails: ${met ? "met" : "NOT met"}`,
    );
  }
  return lines;
}

/** The whole report in Markdown: per suite, per strategy and per task, then the targets. */
export function benchMarkdown(records: readonly BenchRecord[], options: { model: string; offline: boolean }): string {
  const parts = ["# planloop benchmark", "", `Model: ${options.model}. Runs: ${records.length}.`, ""];
  if (options.offline) parts.push(`> ${offlineNote}`, "");
  for (const suite of [...new Set(records.map((record) => record.suite))]) {
    const mine = records.filter((record) => record.suite === suite);
    parts.push(`## ${suite}`, "", statsTable(strategyStats(mine)), "", "### per task", "");
    for (const task of [...new Set(mine.map((record) => record.task))]) {
      const runs = mine.filter((record) => record.task === task);
      parts.push(`**${task}** (width ${runs[0]!.width})`, "", statsTable(strategyStats(runs)), "");
    }
  }
  parts.push("## Cost by model tier", "", tierTable(records), "");
  const targets = targetLines(records);
  if (targets.length > 0) parts.push("## Targets", "", ...targets, "");
  return parts.join("\n");
}

/** A self-contained page with bar charts of latency and tokens per strategy, per suite. */
export function benchHtml(records: readonly BenchRecord[], options: { model: string; offline: boolean }): string {
  const suites = [...new Set(records.map((record) => record.suite))];
  const charts = suites.map((suite) => {
    const stats = strategyStats(records.filter((record) => record.suite === suite));
    return `<h2>${escape(suite)}</h2><div class="charts">${bars(
      "median latency (ms)",
      stats.map((entry) => [entry.strategy, entry.medianMs]),
    )}${bars(
      "tokens per task (input + output)",
      stats.map((entry) => [entry.strategy, entry.inputTokens + entry.outputTokens]),
    )}${bars(
      "success rate (%)",
      stats.map((entry) => [entry.strategy, entry.successRate * 100]),
    )}</div>`;
  });
  const targets = targetLines(records);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>planloop benchmark</title><style>
body { font: 14px/1.45 system-ui, sans-serif; margin: 24px; color: #1f2328; } .charts { display: flex; gap: 24px; flex-wrap: wrap; }
svg text { font: 11px system-ui, sans-serif; } .note { color: #57606a; }
</style></head><body><h1>planloop benchmark</h1><p>Model: ${escape(options.model)}. Runs: ${records.length}.</p>
${options.offline ? `<p class="note">${escape(offlineNote)}</p>` : ""}${charts.join("")}
${targets.length ? `<h2>Targets</h2><ul>${targets.map((line) => `<li>${escape(line.slice(2))}</li>`).join("")}</ul>` : ""}</body></html>
`;
}

export const palette: Record<string, string> = {
  react: "#d1495b",
  "plan-and-execute": "#00798c",
  rewoo: "#edae49",
  "llm-compiler": "#30638e",
};

function bars(title: string, values: Array<[string, number]>): string {
  const width = 360;
  const rowHeight = 26;
  const max = Math.max(1, ...values.map(([, value]) => value));
  const rows = values.map(([name, value], index) => {
    const y = 24 + index * rowHeight;
    const length = (value / max) * (width - 200);
    return `<g class="bar" data-strategy="${escape(name)}"><text x="0" y="${y + 15}">${escape(name)}</text><rect x="110" y="${y + 3}" width="${Math.max(1, length)}" height="${rowHeight - 8}" fill="${palette[name] ?? "#555"}"/><text x="${116 + length}" y="${y + 15}">${Math.round(value)}</text></g>`;
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${30 + values.length * rowHeight}"><text x="0" y="14" font-weight="600">${escape(title)}</text>${rows.join("")}</svg>`;
}

export function escape(text: string): string {
  return text.replace(/[&<>"]/g, (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[char]!);
}
