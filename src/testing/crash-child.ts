// One process of `crashTest`: runs the user's scenario against a SQLite file, logs every
// tool call (with its idempotency key), its return, and every commit to a file as it happens,
// and kills itself with SIGKILL where it was told to die (a `KillAt`: right after a commit,
// inside a call right after the tool returned, at a time after the scenario started, or a
// delay after a call returned). Arguments: the scenario module, the store file, the run id,
// where to die (`KillAt` as JSON, or null: never), the log file, this process's number, and
// the decisions to continue with (JSON).
import { appendFileSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { CheckpointStore } from "../journal/checkpoint-store.js";
import { effectOf, type Tool } from "../core/tools/define-tool.js";
import { sqliteStore } from "../stores/sqlite/sqlite-store.js";
import type { CrashScenario } from "./crash-test.js";
import { SETTLED_MS, type KillAt } from "./crash-kills.js";

const [modulePath, storePath, runId, killAtText, logPath, processText, decisionsText] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string,
  string,
  string,
];
const killAt = JSON.parse(killAtText) as KillAt | null;
const processNumber = Number(processText);
const log = (line: object) => appendFileSync(logPath, `${JSON.stringify({ p: processNumber, ...line })}\n`);
const die = () => process.kill(process.pid, "SIGKILL");

const store = sqliteStore({ path: storePath });
let commits = 0;
const committed = () => {
  commits += 1;
  log({ commit: commits });
  if (killAt !== null && "commit" in killAt && commits >= killAt.commit) die();
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
    const key = context.idempotencyKey ?? "-";
    log({ call: { key, tool: tool.name, effect } });
    let output: unknown;
    try {
      output = await tool.execute!(args, context);
    } catch (error) {
      log({ ended: { key, ok: false } });
      throw error;
    }
    // Killed with the call's effect made and its end not kept: the worst moment for a side effect.
    if (killAt !== null && "call" in killAt && call === killAt.call) die();
    log({ ended: { key, ok: true } });
    // A process that lives on this long after a return has had time to keep the call's end.
    setTimeout(() => log({ settled: key }), SETTLED_MS).unref();
    if (killAt !== null && "afterCall" in killAt && call === killAt.afterCall) {
      // Unref'd: a run that ends first is not killed after its result.
      if (killAt.ms === 0) setImmediate(die).unref();
      else setTimeout(die, killAt.ms).unref();
    }
    return output;
  };
  return Object.freeze({ ...tool, execute });
});
const decisions = JSON.parse(decisionsText) as { approvals?: Record<string, unknown>; answers?: Record<string, string> };
const startedAt = performance.now();
const timedKill = killAt !== null && !("afterCall" in killAt) && "ms" in killAt ? setTimeout(die, killAt.ms) : undefined;
const result = await scenario.start({
  store: counted,
  runId,
  tools,
  // Short, so the next process takes a killed one's run over soon; it waits for it.
  lease: { ttlMs: 300, onBusy: "wait" },
  approvals: (decisions.approvals ?? {}) as never,
  answers: decisions.answers ?? {},
});
clearTimeout(timedKill);
const ms = Math.round(performance.now() - startedAt);
log({ result: { status: result.status, pending: result.pending ?? [], output: result.output ?? null }, ms });
store.close();
