export { ScriptedModel, ScriptedModelError } from "./scripted-model.js";
export type { ScriptedReply, ScriptedTurn, ScriptedStream, RecordedRequest } from "./scripted-model.js";
export { FakeClock, flush } from "./fake-clock.js";
