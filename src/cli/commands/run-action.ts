import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { cappedList } from "../../core/errors.js";
import type { PlanloopEvent } from "../../core/events.js";
import { previewOf } from "../../core/tools/tool-output.js";
import { executePlan } from "../../executor/execute-plan.js";
import type { ExecutePlanOptions } from "../../executor/execution-options.js";
import { validatePlan } from "../../plan/validate-plan.js";
import { bullmqRunner } from "../../workers/bullmq-runner.js";
import { CliError, readJsonFile } from "../cli-error.js";
import type { CliIo } from "../cli-io.js";
import { onInterrupt } from "../interrupt.js";
import { leaseFromFlags, resumeFromFlags, savePaused, settleResumedFile, statePathOf, type PauseFlags } from "../pause-resume.js";
import { createProgress } from "../progress.js";
import { openRunStore, storeFlag } from "../store-option.js";
import { recordLaunch } from "../stored-runs.js";
import { loadTools } from "../load-tools.js";
import { modelArguments, modelFromFlags, type ModelFlags } from "../model-option.js";

/** The flags of `planloop run`. */
export interface RunFlags extends PauseFlags, ModelFlags {
  tools: string;
  concurrency: string;
  json?: boolean;
  events?: string;
  store: string | false;
  runId?: string;
  /** Set by planloop serve for a schedule's run: `{"name":…,"fireAt":…}`. */
  scheduleFire?: string;
  redis?: string;
  queue: string;
}

/** The command that ran, whole (every flag that changes the run or what it writes), to print as the one to continue with. */
function runCommandLine(path: string, flags: RunFlags): string {
  const parts = [`planloop run ${path}`, `--tools ${flags.tools}`, ...modelArguments(flags)];
  if (flags.concurrency !== "4") parts.push(`--concurrency ${flags.concurrency}`);
  if (flags.events) parts.push(`--events ${flags.events}`);
  if (flags.json) parts.push("--json");
  if (flags.redis) parts.push(`--redis ${flags.redis}`, `--queue ${flags.queue}`);
  return parts.join(" ");
}

/** `planloop run <plan.json>`: the plan checked against the tools, run, and its result printed. */
export async function runPlanFile(io: CliIo, path: string, flags: RunFlags): Promise<void> {
  const plan = readJsonFile(path, "plan");
  const tools = await loadTools(flags.tools);
  const model = await modelFromFlags(flags);
  const checked = validatePlan(plan, { tools });
  if (!checked.ok) {
    throw new CliError(
      `the plan is invalid: ${cappedList(
        checked.errors.map((error) => error.message),
        (count) => `and ${count} more`,
      ).join("; ")}`,
    );
  }
  const concurrency = Number(flags.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new CliError("--concurrency must be a whole number >= 1");
  const { finished, ...resumed } = resumeFromFlags(flags) as Pick<ExecutePlanOptions, "resume" | "approvals" | "answers" | "decidedBy"> & {
    finished?: string;
  };
  if (finished !== undefined) {
    io.out(finished);
    return;
  }
  // With --json, stdout is the result alone (for `| jq`): progress goes to stderr.
  const progress = createProgress(flags.json ? io.stderr : io.stdout);
  const events: PlanloopEvent[] = [];
  const onEvent = (event: PlanloopEvent) => {
    events.push(event);
    progress.listener(event);
  };
  const interrupt = onInterrupt();
  const runner =
    flags.redis === undefined
      ? undefined
      : bullmqRunner({ connection: flags.redis, queue: flags.queue, secret: process.env.PLANLOOP_QUEUE_SECRET });
  const store = await openRunStore(io, flags.store);
  const launchLine = [
    "run",
    resolve(path),
    "--tools",
    resolve(flags.tools),
    "--concurrency",
    flags.concurrency,
    ...modelArguments(flags),
    ...(flags.redis === undefined ? [] : ["--redis", flags.redis, "--queue", flags.queue]),
  ];
  const runId =
    store === undefined
      ? flags.runId
      : await recordLaunch(store, {
          runId: flags.runId,
          scheduleFire: flags.scheduleFire,
          entry: "executePlan",
          lease: leaseFromFlags(flags),
          argv: launchLine,
        });
  const result = await executePlan({
    plan: checked.plan,
    tools,
    ...(model === undefined ? {} : { model }),
    concurrency,
    onEvent,
    signal: interrupt.signal,
    store,
    runId,
    lease: leaseFromFlags(flags, runId),
    runner,
    ...resumed,
  }).finally(() => {
    interrupt.dispose();
    void store?.close();
    void runner?.close();
  });
  // With --json, stdout is the result alone.
  if (store) (flags.json ? io.err : io.out)(`run ${result.runId} (planloop runs show ${result.runId}${storeFlag(flags.store)})`);
  progress.stop();
  settleResumedFile(flags, result);
  if (flags.json) io.out(JSON.stringify(result, null, 2));
  else io.out(`${result.status}${result.reason ? `: ${result.reason}` : ""}`);
  if (!flags.json && result.status === "completed") io.out(`output: ${previewOf(result.output, 2_000)}`);
  if (flags.events) writeFileSync(flags.events, events.map((event) => JSON.stringify(event)).join("\n") + "\n");
  if ((result.status === "waiting" || interrupt.interrupted()) && result.state) {
    const statePath = statePathOf(flags, path.replace(/(\.json)?$/i, ".state.json"));
    savePaused(io, {
      state: result.state,
      pending: result.pending ?? [],
      waits: result.waits ?? [],
      statePath,
      command: runCommandLine(path, flags),
      ...(store ? { runId: result.runId, storeFlag: storeFlag(flags.store), launch: launchLine } : {}),
    });
  }
  io.exitCode(interrupt.interrupted() ? 130 : result.status === "completed" ? 0 : result.status === "waiting" ? 3 : 1);
}
