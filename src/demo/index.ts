// planloop/demo: the pieces of the weekly-report demo, for the examples and your own experiments.
export { generateDemoData, demoWeek } from "./demo-data.js";
export type { DemoData } from "./demo-data.js";
export { createDemoDatabase } from "./demo-database.js";
export type { DemoDatabase } from "./demo-database.js";
export { sqlTools } from "./sql-tools.js";
export { reportTools, weeklyReportMarkdown } from "./report-tools.js";
export type { WeeklyMetrics } from "./report-tools.js";
export { tieredWeeklyReportTask, weeklyReportTask, weeklyReportTaskText } from "./weekly-report-task.js";
export { runDemo } from "./run-demo.js";
export type { DemoOptions, DemoFiles } from "./run-demo.js";
