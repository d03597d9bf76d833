// Seed 001's weekly report with planloop's pieces, wired by hand: a SQLite database, SQL and
// report tools, and Plan-and-Execute with replanning. `npm run demo` is this with a live view.
// Run: npx tsx examples/weekly-report/main.ts
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { offlineModel, planAndExecute, type Model } from "planloop";
import { createDemoDatabase, generateDemoData, reportTools, sqlTools, weeklyReportTask, weeklyReportTaskText } from "planloop/demo";

export async function main(options: { model?: Model; print?: boolean } = {}) {
  const db = createDemoDatabase(join(mkdtempSync(join(tmpdir(), "weekly-report-")), "shop.sqlite"), generateDemoData());
  try {
    // The offline model knows this task; pass openAICompatible({ ... }) to plan with a real model.
    const model = options.model ?? offlineModel({ tasks: [weeklyReportTask], onNotice: () => {} });
    const result = await planAndExecute({
      task: weeklyReportTaskText,
      planner: model,
      tools: [...sqlTools(db), ...reportTools()],
      maxReplans: 3,
      onEvent: (event) => {
        if (options.print === false) return;
        if (event.type === "replan-start") console.log(`replan ${event.replans}: ${event.reason}`);
        if (event.type === "step-end") console.log(`  step ${event.stepId} ${event.status}${event.error ? `: ${event.error}` : ""}`);
      },
    });
    if (options.print !== false) console.log(`\n${result.status} after ${result.replans} replans\n\n${result.output ?? result.reason}`);
    return result;
  } finally {
    db.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
