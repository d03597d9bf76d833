import { cancelStoredRun } from "../../journal/cancel-run.js";
import { protectStore } from "../../journal/protected-store.js";
import { defaultSecretKeys, maskSecrets } from "../../trust/secrets.js";
import { codeStepsOf } from "../../strategies/code-mode/code-steps.js";
import { InvalidOptionsError } from "../../core/errors.js";
import { resolve } from "node:path";
import type { Command } from "commander";
import type { CheckpointStore, JournalEntry, RunOutcome, StoredRun } from "../../journal/checkpoint-store.js";
import { resumeRun, storedRun, usingStore, type ContinueFlags, type Rerun } from "../continue-run.js";
import { previewOf } from "../../core/tools/tool-output.js";
import { CliError, readJsonFile } from "../cli-error.js";
import type { CliIo } from "../cli-io.js";
import { pendingLine } from "../pause-resume.js";
import { defaultStore } from "../store-option.js";
import { childrenOf, lastPause, pendingOf, standing } from "../../strategies/stored-runs.js";
import { suggestLimits, type LimitSuggestion } from "../../react/suggest-limits.js";
import { readEvents } from "./trace-command.js";
import { decisionWord } from "../../trace/stored-trace.js";
import { forkCommand } from "./runs-fork.js";
import { checkDecisions, commandLine } from "./runs-decide.js";
import { waitCommands } from "./runs-waits.js";
import { wordOptions } from "../word-options.js";
import { confirmWord } from "../launch-line.js";
import { stopQueuedRun } from "../../workers/stop-queued-run.js";
import { leftAloneLine, leftAloneReasons } from "../../runs/left-alone.js";

/**
 * `planloop runs …`: what a store holds of its runs, and continuing them by id: `resume`,
 * `approve`, `deny` and `answer` run the command that started the run again with the same
 * id (nothing that finished runs again), `cancel` ends a run for good.
 */
export function runsCommand(program: Command, io: CliIo, rerun: Rerun): void {
  const runs = program.command("runs");
  const withStore = (command: Command) => command.option("--store <sqlite:path|postgres://…>", "the checkpoint store", defaultStore);
  withStore(runs.command("list").description("The runs, newest first: id, entry point, status, steps ended/planned, cost, started"))
    .option("--limit <n>", "how many", "20")
    .option("--status <status>", "only runs of this status: running, waiting, paused, completed, failed, cancelled, …")
    .option("--task-type <type>", "only runs of this task type")
    .option("--before <runId>", "only runs older than this one (the last of the page before)")
    .option("--schedule <name>", "only the runs this schedule started (planloop schedules; as each run's origin says, not its id)")
    .action(async (flags: ListFlags) =>
      usingStore(flags.store, async (store) => {
        const limit = positiveCount(flags.limit, "--limit");
        const before = flags.before === undefined ? undefined : await storedRun(store, flags.before, flags.store);
        // A strategy's plan runs and loops (`<runId>/…`) are shown with it, not as runs of their own.
        const query = { topLevel: true, limit, before, status: flags.status, taskType: flags.taskType, schedule: flags.schedule };
        const listed = await store.listRuns(query);
        const filtered = flags.status || flags.taskType || flags.schedule || before;
        if (listed.length === 0) io.out(`no runs in ${flags.store}${filtered ? " that match" : ""}`);
        const leftAlone = await leftAloneReasons(store, listed);
        for (const row of listed) {
          const run = (await store.getRun(row.runId))!;
          const { status, steps, cost } = standing(run, await childrenOf(store, run.runId));
          const shown = leftAlone.has(run.runId) ? `${status} (left alone by serve)` : status;
          io.out(`${run.runId}  ${run.entry}  ${shown}  ${steps} steps  ${cost}  ${new Date(run.createdAt).toISOString()}`);
        }
        if (listed.length === limit) io.out(`(more: planloop runs list --before ${listed.at(-1)!.runId})`);
      }),
    );
  withStore(runs.command("show").description("One run: its plans, each step's last start and end, what it waits for, its result"))
    .argument("<runId>")
    .action(async (runId: string, flags: { store: string }) =>
      usingStore(flags.store, async (store) => {
        const run = await storedRun(store, runId, flags.store);
        const children = await childrenOf(store, runId);
        io.out(`run ${run.runId} (${run.entry}): ${standing(run, children).status}`);
        const leftAlone = (await leftAloneReasons(store, await store.listRuns({ runId, limit: 1 }))).get(runId);
        if (leftAlone !== undefined) io.out(`${leftAloneLine(leftAlone)} (planloop runs resume ${runId} continues it by hand)`);
        for (const each of [run, ...children]) for (const line of stepLines(each.journal)) io.out(line);
        const paused = lastPause(run, children);
        for (const call of paused === undefined ? [] : pendingOf(paused)) io.out(pendingLine(call));
        const result = run.result as { status?: string; reason?: string; output?: unknown } | undefined;
        if (result?.status) io.out(`result: ${result.status}${result.reason ? `: ${result.reason}` : ""}`);
        if (result?.output !== undefined) io.out(`output: ${previewOf(result.output, 2_000)}`);
      }),
    );
  withStore(runs.command("stats").description("Per task type: success rate, steps and cost of the runs, and a suggested maxSteps"))
    .option("--task-type <type>", "only this task type")
    .option("--percentile <p>", "the percentile the suggestion starts from", "95")
    .option("--events <files...>", "read events JSONL files (planloop ask --events) instead of the store")
    .action(async (flags: { store: string; taskType?: string; percentile: string; events?: string[] }) => {
      const runsRead = flags.events ? flags.events.flatMap((file) => readEvents(file)) : await storedOutcomes(flags.store, flags.taskType);
      const suggestions = suggestLimits(runsRead, { percentile: Number(flags.percentile) }).filter(
        (suggestion) => flags.taskType === undefined || suggestion.taskType === flags.taskType,
      );
      if (suggestions.length === 0)
        io.out("no runs to learn from (give runs a taskType: runAgent({ taskType }), planloop ask --task-type)");
      for (const line of statsLines(suggestions)) io.out(line);
    });
  const continuing = (name: string, description: string) =>
    wordOptions(withStore(runs.command(name).description(description)))
      .argument("<runId>")
      .option("--wait", "if another process is running it, wait until it is free instead of failing")
      .option("--tools <module>", "the tools module to continue it with (the store's launch line is not trusted to name one)")
      .option("--decided-by <name>", "who gives the decision (kept with it in the run's journal)");
  continuing("resume", "Continue a run that was interrupted or crashed: only what had not ended runs").action(
    (runId: string, flags: ContinueFlags) => resumeRun(io, rerun, { runId, flags, decisions: waiting(flags) }),
  );
  continuing("approve", "Approve calls or a plan the run waits for (several at once: a wave), and continue it")
    .argument("<pendingIds...>")
    .option("--plan <file>", "for a plan waiting for review (plan:<v>): run this edited plan (JSON) instead")
    .action(async (runId: string, pendingIds: string[], flags: ContinueFlags & { plan?: string }) => {
      if (flags.plan && pendingIds.length > 1) throw new CliError("--plan goes with one pending id: the plan under review");
      const plan = flags.plan === undefined ? undefined : readJsonFile(flags.plan, "plan");
      const decisions = pendingIds.map((pendingId) =>
        plan === undefined ? { pendingId, action: "approve" as const } : { pendingId, action: "edit" as const, plan },
      );
      await checkDecisions(runId, decisions, flags);
      return resumeRun(io, rerun, {
        runId,
        flags,
        decisions: [
          "--approve",
          ...pendingIds,
          ...(flags.plan ? ["--plan", resolve(flags.plan)] : []),
          ...decidedBy(flags),
          ...waiting(flags),
        ],
      });
    });
  continuing("deny", "Deny calls the run waits for, or reject a plan (the planner writes a new one), and continue it")
    .argument("<pendingIds...>")
    .option("--reason <text>", "why (the run sees it)")
    .action(async (runId: string, pendingIds: string[], flags: ContinueFlags & { reason?: string }) => {
      const decisions = pendingIds.map((pendingId) => ({ pendingId, action: "deny" as const, reason: flags.reason }));
      await checkDecisions(runId, decisions, flags);
      return resumeRun(io, rerun, {
        runId,
        flags,
        decisions: [
          "--deny",
          ...pendingIds,
          ...(flags.reason ? ["--deny-reason", flags.reason] : []),
          ...decidedBy(flags),
          ...waiting(flags),
        ],
      });
    });
  continuing("answer", "Answer a question the run waits for, and continue it")
    .argument("<pendingId>")
    .argument("<text>")
    .action(async (runId: string, pendingId: string, text: string, flags: ContinueFlags) => {
      const decisions = [{ pendingId, action: "answer" as const, text }];
      await checkDecisions(runId, decisions, flags);
      return resumeRun(io, rerun, {
        runId,
        flags,
        decisions: ["--answer", `${pendingId}=${text}`, ...decidedBy(flags), ...waiting(flags)],
      });
    });
  wordOptions(
    withStore(
      runs
        .command("expire")
        .description("Deny the requests for approval that lapsed: each run waiting on one is continued, and the call is denied"),
    ),
  )
    .option("--wait", "if another process is running a run, wait until it is free instead of failing")
    .option("--tools <module>", "the tools module to continue the runs with (the store's launch line is not trusted to name one)")
    .action(async (flags: ContinueFlags) => {
      const lapsed = await lapsedRequests(flags.store, Date.now());
      if (lapsed.length === 0) io.out(`no request for approval has lapsed in ${flags.store}`);
      for (const { runId, ids } of lapsed) {
        io.out(`run ${runId}: ${ids.join(", ")} lapsed; continuing it, which denies them`);
        try {
          await resumeRun(io, rerun, { runId, flags, decisions: waiting(flags) });
        } catch (error) {
          // One run that cannot be continued here (started from a program) does not stop the others.
          if (!(error instanceof CliError)) throw error;
          io.err(`run ${runId}: ${error.message}`);
        }
      }
      // Denying was the job: how each continued run then ended is in what it printed.
      io.exitCode(0);
    });
  waitCommands(runs, withStore, io, (runId, flags) => resumeRun(io, rerun, { runId, flags, decisions: [] }));
  forkCommand(withStore(runs.command("fork")), io, (runId, flags) => resumeRun(io, rerun, { runId, flags, decisions: waiting(flags) }));
  // --redis (from `continuing`): the Redis its steps went to; its command line's only with a yes on a terminal.
  continuing("cancel", "End a run for good: it is marked finished, cancelled, and can no longer continue")
    .option("--queue <name>", "the queue its steps went to (default: its command line's, or planloop)")
    .action((runId: string, flags: { store: string; wait?: boolean; redis?: string; queue?: string }) =>
      usingStore(
        flags.store,
        async (opened) => {
          // A run kept with a stateSecret is read, and its end signed, with the same secret.
          const store = signedStore(opened);
          const run = await readable(() => storedRun(store, runId, flags.store));
          // Asked before the run is ended: a refusal leaves it to be cancelled again with --redis.
          const queued = await queueOf(run, flags);
          // Under the run's lease: a run another process is running is not ended under it.
          const lease = { onBusy: flags.wait ? ("wait" as const) : ("fail" as const) };
          const outcome = await cancelStoredRun(store, runId, { reason: "cancelled with planloop runs cancel", lease });
          if (outcome === "finished") throw new CliError(`run "${runId}" has finished already; there is nothing to cancel`);
          io.out(`run ${runId}: cancelled`);
          // Its coordinator is gone (the lease was free): its steps still in the queue are stopped from here.
          if (queued === undefined) return;
          const stopped = await stopQueuedRun({ connection: queued.redis, queue: queued.queue, runId });
          io.out(
            `run ${runId}: on queue ${queued.queue}, ${stopped.removed} queued steps removed, ${stopped.aborted} running steps aborted`,
          );
        },
        writable,
      ),
    );
}

/**
 * Where a run's steps went: the flags, else the `--redis`/`--queue` of the command line that
 * started it, whose Redis is opened only with the person's word, as when the run is continued.
 */
async function queueOf(run: StoredRun, flags: { redis?: string; queue?: string }): Promise<{ redis: string; queue: string } | undefined> {
  const launch = run.journal.find((entry): entry is Extract<JournalEntry, { kind: "launch" }> => entry.kind === "launch");
  const named = (flag: string) => {
    const at = launch?.argv.indexOf(flag) ?? -1;
    return at >= 0 ? launch?.argv[at + 1] : undefined;
  };
  const stored = named("--redis");
  if (flags.redis === undefined && stored !== undefined)
    await confirmWord(run.runId, [{ flag: "--redis", value: stored }], "on a terminal");
  const redis = flags.redis ?? stored;
  return redis === undefined ? undefined : { redis, queue: flags.queue ?? named("--queue") ?? "planloop" };
}

const writable = { readonly: false };

/** Who decides (`--decided-by`, else the command line), handed on to the command that continues the run. */
function decidedBy(flags: { decidedBy?: string }): string[] {
  return ["--decided-by", flags.decidedBy || commandLine];
}

/** `--wait`, handed on to the command that continues the run. */
function waiting(flags: { wait?: boolean }): string[] {
  return flags.wait ? ["--wait"] : [];
}

/** Per step, in the order steps first appear: how it stands by the journal. */
function stepLines(journal: readonly JournalEntry[]): string[] {
  const steps = new Map<string, { starts: number; status: string }>();
  const lines: string[] = [];
  const programs = new Set<number>();
  for (const entry of journal) {
    if (entry.kind === "plan") lines.push(`plan v${entry.version}: ${(entry.plan as { steps?: unknown[] }).steps?.length ?? 0} steps`);
    if (entry.kind === "code-start" && !programs.has(entry.attempt)) {
      programs.add(entry.attempt);
      lines.push(`program ${entry.attempt + 1}:`, ...(entry.source ?? "(its text was not kept)").split("\n").map((line) => `  | ${line}`));
    }
    if (entry.kind === "human-decision") lines.push(`  decision ${entry.id}: ${decisionWord(entry.decision)}`);
    if (entry.kind === "step-start") {
      const step = steps.get(entry.stepKey) ?? { starts: 0, status: "running" };
      steps.set(entry.stepKey, { starts: step.starts + 1, status: "running" });
    } else if (entry.kind === "step-end") {
      const step = steps.get(entry.stepKey) ?? { starts: 0, status: "" };
      steps.set(entry.stepKey, { ...step, status: (entry.record as { status?: string }).status ?? "ended" });
    }
  }
  // A code-mode program's calls are the run's steps: which tool, with what, how it ended.
  const calls = codeStepsOf(journal).map(
    (call) =>
      `  step ${call.place} (program ${call.program}) ${call.tool}(${previewOf(maskSecrets(call.arguments ?? {}), 200)}): ${call.status} (started ${call.starts}x)`,
  );
  return [...lines, ...[...steps].map(([key, step]) => `  step ${key}: ${step.status} (started ${step.starts}x)`), ...calls];
}

/**
 * How each run that stopped stands (status, task type, spend), from the rows alone: no
 * journal is read. Counted once: a strategy run, not also the loop or plan runs it keeps
 * inside it; runs still running or waiting for a human have not ended, and fixed plans
 * (executePlan) have no model deciding their steps: neither counts.
 */
async function storedOutcomes(flag: string, taskType: string | undefined): Promise<RunOutcome[]> {
  let outcomes: RunOutcome[] = [];
  await usingStore(flag, async (store) => {
    const rows = await store.runOutcomes({ topLevel: true, taskType });
    // Step limits are a loop's: a fixed plan's runs (no model decides their steps) do not count.
    outcomes = rows.flatMap(({ entry, outcome }) => (outcome.status === "waiting" || entry === "executePlan" ? [] : [outcome]));
  });
  return outcomes;
}

/** The waiting runs with a request for approval past its deadline, and the ids of those requests. */
async function lapsedRequests(flag: string, now: number): Promise<Array<{ runId: string; ids: string[] }>> {
  const lapsed: Array<{ runId: string; ids: string[] }> = [];
  await usingStore(flag, async (store) => {
    for (const row of await store.listRuns({ topLevel: true, status: "waiting" })) {
      const run = await store.getRun(row.runId);
      if (run === undefined) continue;
      const paused = lastPause(run, await childrenOf(store, run.runId));
      const ids = (paused === undefined ? [] : pendingOf(paused)).flatMap((call) =>
        call.kind === "approval" && call.expiresAt !== undefined && call.expiresAt <= now ? [call.id] : [],
      );
      if (ids.length > 0) lapsed.push({ runId: run.runId, ids });
    }
  });
  return lapsed;
}

/** The store as a run kept with `PLANLOOP_STATE_SECRET`'s secret writes to it: what is written is signed with it. */
function signedStore(store: CheckpointStore): CheckpointStore {
  return protectStore(store, { secret: process.env.PLANLOOP_STATE_SECRET || undefined, secretKeys: defaultSecretKeys, given: new Map() });
}

/** A run kept with a stateSecret, read without it, says which variable to set. */
async function readable<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof InvalidOptionsError && /kept with a stateSecret/.test(error.message))
      throw new CliError(`${error.message}: set PLANLOOP_STATE_SECRET to it for planloop runs cancel`);
    throw error;
  }
}

/** The flags of `runs list`. */
interface ListFlags {
  store: string;
  limit: string;
  status?: string;
  taskType?: string;
  before?: string;
  schedule?: string;
}

function positiveCount(text: string, flag: string): number {
  const count = Number(text);
  if (!Number.isInteger(count) || count < 1) throw new CliError(`${flag} takes a whole number of at least 1; got "${text}"`);
  return count;
}

function statsLines(suggestions: readonly LimitSuggestion[]): string[] {
  return suggestions.flatMap((each) => [
    `${each.taskType}: ${each.runs} runs, ${(each.successRate * 100).toFixed(0)}% succeeded, $${each.costPerRun.toFixed(4)} per run`,
    `  model calls of successful runs: p50 ${each.steps.p50}, high ${each.steps.high}, max ${each.steps.max}; tool calls: p50 ${each.toolCalls.p50}, high ${each.toolCalls.high}, max ${each.toolCalls.max}`,
    `  suggested maxSteps: ${each.suggestedMaxSteps ?? "-"} (${each.rule})`,
    ...each.cutOff.map(
      ({ limit, successfulRunsCut }) => `  maxSteps ${limit} would have cut ${successfulRunsCut} of ${each.succeeded} successful runs`,
    ),
  ]);
}
