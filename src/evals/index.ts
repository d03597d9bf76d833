// planloop/evals: your own tasks through the strategies, scored, side by side (what `planloop
// bench --suite` runs): suites, scorers, tool cassettes, the baseline gate, plan scorecards.
export { runBench } from "./run-bench.js";
export type { TaskSuiteOptions, TrialRecord } from "./run-bench.js";
export { taskSuiteStats, suiteTable } from "./task-suite-stats.js";
export type { SuiteColumnStats } from "./task-suite-stats.js";
export { readTaskSuite } from "./task-suite.js";
export type { Expected, SuiteTask, TaskSuite } from "./task-suite.js";
export { llmJudge, grounded } from "./scorers.js";
export type { Scorer, ScorerInput } from "./scorers.js";
export { recordingTools, replayingTools, emptyCassette, readCassette, writeCassette } from "./tool-cassette.js";
export type { ToolCassette } from "./tool-cassette.js";
export { baselinePairs, gateAgainstBaseline } from "./baseline-gate.js";
export type { GateLimits, GateOptions, SuiteResults } from "./baseline-gate.js";
export { planScorecard } from "./plan-scorecard.js";
export type { PlanScorecard } from "./plan-scorecard.js";
