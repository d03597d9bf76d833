// One task, every strategy, the same tools and model: usage side by side.
// Run: npx tsx examples/react-vs-plan/main.ts
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { offlineModel, runStrategy, strategyNames, type StrategyResult } from "planloop";
import { createDemoDatabase, generateDemoData, reportTools, sqlTools, weeklyReportTask, weeklyReportTaskText } from "planloop/demo";

export async function main(options: { print?: boolean; latencyMs?: number } = {}) {
  const rows: StrategyResult[] = [];
  for (const strategy of strategyNames) {
    // A fresh database per strategy, so no run sees another's work.
    const db = createDemoDatabase(join(mkdtempSync(join(tmpdir(), "react-vs-plan-")), "shop.sqlite"), generateDemoData());
    try {
      const model = offlineModel({ tasks: [weeklyReportTask], latencyMs: options.latencyMs ?? 50, onNotice: () => {} });
      rows.push(
        await runStrategy(strategy, {
          task: weeklyReportTaskText,
          model,
          tools: [...sqlTools(db, { latencyMs: 20 }), ...reportTools()],
          maxSteps: 15,
        }),
      );
    } finally {
      db.close();
    }
  }
  if (options.print !== false) {
    console.log("Offline model: these numbers measure orchestration, not model quality.\n");
    console.log(table(rows));
  }
  return rows;
}

export function table(rows: readonly StrategyResult[]): string {
  const header = ["strategy", "status", "model calls", "input tokens", "output tokens", "tool calls", "replans", "wall ms"];
  const lines = rows.map((row) =>
    [
      row.strategy,
      row.status,
      row.usage.modelCalls,
      row.usage.inputTokens,
      row.usage.outputTokens,
      row.usage.toolCalls,
      row.replans,
      Math.round(row.durationMs),
    ].map(String),
  );
  const widths = header.map((title, column) => Math.max(title.length, ...lines.map((line) => line[column]!.length)));
  const format = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column]!)).join("  ");
  return [format(header), format(widths.map((width) => "-".repeat(width))), ...lines.map(format)].join("\n");
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
