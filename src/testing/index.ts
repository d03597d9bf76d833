export { ScriptedModel, ScriptedModelError } from "./scripted-model.js";
export type { ScriptedReply, ScriptedTurn, RecordedRequest } from "./scripted-model.js";
export { FakeClock, flush } from "./fake-clock.js";
