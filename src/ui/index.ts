export { startUi, type UiOptions, type UiServer } from "./ui-server.js";
export type { ContinueRun, Decision } from "./ui-decisions.js";
export type { RunPage, RunRow } from "./run-rows.js";
export type { InboxItem, RunDetail, StepDetail } from "./run-detail.js";
export type { RunPageDetail } from "./run-details.js";
