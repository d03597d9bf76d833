// One process of `crashTest`: runs the user's scenario against a SQLite file, logs every
// tool call (with its idempotency key) and every commit to a file as it happens, and kills
// itself with SIGKILL right after the commit it was told to die at, or right after the call it
// was told to die in returned (its effect made, its end not yet kept). Arguments: the scenario
// module, the store file, the run id, where to die (`commit:<n>`, `call:<n>`, or 0: never), the
// log file, this process's number, and the decisions to continue with (JSON).
import { appendFileSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { CheckpointStore } from "../journal/checkpoint-store.js";
import { effectOf, type Tool } from "../core/tools/define-tool.js";
import { sqliteStore } from "../stores/sqlite/sqlite-store.js";
import type { CrashScenario } from "./crash-test.js";

const [modulePath, storePath, runId, killAtText, logPath, processText, decisionsText] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string,
  string,
  string,
];
const [killKind, killNumber] = killAtText.includes(":") ? (killAtText.split(":") as [string, string]) : ["commit", killAtText];
const killAt = killKind === "commit" ? Number(killNumber) : 0;
const killInCall = killKind === "call" ? Number(killNumber) : 0;
const processNumber = Number(processText);
const log = (line: object) => appendFileSync(logPath, `${JSON.stringify({ p: processNumber, ...line })}\n`);

const store = sqliteStore({ path: storePath });
let commits = 0;
const committed = () => {
  commits += 1;
  log({ commit: commits });
  if (killAt > 0 && commits >= killAt) process.kill(process.pid, "SIGKILL");
};
// SQLite writes are synchronous: when the call returns, the commit is on disk.
const counted: CheckpointStore = {
  ...store,
  append(...args) {
    store.append(...args);
    committed();
  },
  finishRun(...args) {
    store.finishRun(...args);
    committed();
  },
};

const scenario = (await import(pathToFileURL(isAbsolute(modulePath) ? modulePath : resolve(modulePath)).href)) as CrashScenario;
let calls = 0;
const tools = scenario.tools.map((tool: Tool): Tool => {
  const effect = effectOf(tool);
  const execute: Tool["execute"] = async (args, context) => {
    calls += 1;
    const call = calls;
    log({ call: { key: context.idempotencyKey ?? "-", tool: tool.name, effect } });
    const output: unknown = await tool.execute!(args, context);
    // Killed with the call's effect made and its end not kept: the worst moment for a side effect.
    if (killInCall > 0 && call === killInCall) process.kill(process.pid, "SIGKILL");
    return output;
  };
  return Object.freeze({ ...tool, execute });
});
const decisions = JSON.parse(decisionsText) as { approvals?: Record<string, unknown>; answers?: Record<string, string> };
const result = await scenario.start({
  store: counted,
  runId,
  tools,
  // Short, so the next process takes a killed one's run over soon; it waits for it.
  lease: { ttlMs: 300, onBusy: "wait" },
  approvals: (decisions.approvals ?? {}) as never,
  answers: decisions.answers ?? {},
});
log({ result: { status: result.status, pending: result.pending ?? [], output: result.output ?? null } });
store.close();
