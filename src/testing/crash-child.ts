// One process of `crashTest`: runs the user's scenario against a SQLite file, logs every
// tool call (with its idempotency key) and every commit to a file as it happens, and kills
// itself with SIGKILL right after the commit it was told to die at. Arguments: the scenario
// module, the store file, the run id, the commit to die after (0: never), the log file, this
// process's number, and the decisions to continue with (JSON).
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
const killAt = Number(killAtText);
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
const tools = scenario.tools.map((tool: Tool): Tool => {
  const effect = effectOf(tool);
  const execute: Tool["execute"] = (args, context) => {
    log({ call: { key: context.idempotencyKey ?? "-", tool: tool.name, effect } });
    return tool.execute!(args, context);
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
