export { ScriptedModel, ScriptedModelError } from "./scripted-model.js";
export type { ScriptedReply, ScriptedTurn, ScriptedStream, RecordedRequest } from "./scripted-model.js";
export { FakeClock, flush } from "./fake-clock.js";
export { crashTest } from "./crash-test.js";
export type { CrashScenario, CrashStartOptions, CrashTestOptions, CrashReport, CrashRun, CrashCall } from "./crash-test.js";
export { storeConformance } from "./store-conformance.js";
export type { ConformanceFramework, ConformanceMatchers } from "./store-conformance.js";
