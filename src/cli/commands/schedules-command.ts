import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { Command } from "commander";
import { cappedList } from "../../core/errors.js";
import { isRecord } from "../../core/is-record.js";
import type { CheckpointStore } from "../../journal/checkpoint-store.js";
import { validatePlan } from "../../plan/validate-plan.js";
import {
  checkSchedule,
  listSchedules,
  nextFireTime,
  removeSchedule,
  saveSchedule,
  scheduleState,
  setSchedulePaused,
  type ScheduleInput,
  type ScheduleOverlap,
} from "../../waits/schedules.js";
import { CliError, readJsonFile } from "../cli-error.js";
import type { CliIo } from "../cli-io.js";
import { loadTools } from "../load-tools.js";
import { modelArguments, modelFromFlags, type ModelFlags } from "../model-option.js";
import { usingStore } from "../continue-run.js";
import { defaultStore } from "../store-option.js";

const writable = { readonly: false };

interface AddFlags extends ModelFlags {
  store: string;
  cron: string;
  tz?: string;
  plan?: string;
  task?: string;
  strategy?: string;
  tools?: string;
  overlap: string;
  catchUp: string;
  planCache: boolean;
}

/** What a schedule kept by the command line starts: a `planloop run` or `planloop ask` line, run in `cwd`. */
export interface ScheduledLaunch {
  argv: string[];
  cwd: string;
}

/**
 * `planloop schedules add|list|pause|resume|remove`: schedules kept in the store, which
 * `planloop serve` starts. A schedule starts a `planloop run` of a plan file or a `planloop ask`
 * of a task, with the store and a run id per fire time added.
 */
export function schedulesCommand(program: Command, io: CliIo): void {
  const schedules = program.command("schedules");
  const withStore = (command: Command) =>
    command.option("--store <sqlite:path|postgres://…>", "the store the schedules are kept in", defaultStore);
  withStore(
    schedules.command("add").description("Add a schedule (or replace the one of that name): a plan or a task started on a cron pattern"),
  )
    .argument("<name>", "letters, digits, '.', '_' or '-': the runs are named <name>@<fire time>")
    .requiredOption("--cron <pattern>", 'when: five fields, or six with seconds first (e.g. "0 8 * * MON")')
    .option("--tz <zone>", "the time zone the pattern is read in (e.g. Europe/Berlin); default UTC")
    .option("--plan <plan.json>", "start this plan (planloop run)")
    .option("--task <text>", "or ask this task (planloop ask)")
    .option("--strategy <name>", "with --task: the strategy (default plan-and-execute)")
    .option("--tools <module>", "the tools module the runs use")
    .option("--model <spec>", "with --task: the model (openai:<name>, <name> with --base-url, or a module)")
    .option("--base-url <url>", "with --task: an OpenAI-compatible server")
    .option("--api-key-env <name>", "with --task: the environment variable holding the API key", "OPENAI_API_KEY")
    .option("--overlap <mode>", "while the last run still runs or waits: skip, allow or cancel-previous", "skip")
    .option("--catch-up <n>", "after downtime, start at most n of the missed fire times (the latest)", "1")
    .option("--no-plan-cache", "with --task: plan anew every time (default: reuse the plan that last succeeded)")
    .action(async (name: string, flags: AddFlags) => {
      const input: ScheduleInput = {
        name,
        cron: flags.cron,
        ...(flags.tz === undefined ? {} : { tz: flags.tz }),
        run: launchOf(flags),
        overlap: flags.overlap as ScheduleOverlap,
        catchUp: Number(flags.catchUp),
      };
      checkSchedule(input);
      // What would fail at every fire time fails now, while someone is here to read it.
      await checkLaunchLoads(flags);
      await usingStore(
        flags.store,
        async (store) => {
          const schedule = await saveSchedule(store, input);
          const next = nextFireTime(schedule, Date.now());
          io.out(
            `schedule ${name}: "${schedule.cron}"${schedule.tz ? ` (${schedule.tz})` : ""}, next at ${iso(next)}; planloop serve starts it`,
          );
        },
        writable,
      );
    });
  withStore(schedules.command("list").description("The schedules: pattern, what they start, next and last run")).action(
    (flags: { store: string }) =>
      usingStore(flags.store, async (store) => {
        const all = await listSchedules(store);
        if (all.length === 0) io.out(`no schedules in ${flags.store}: add one with planloop schedules add`);
        for (const schedule of all) {
          const state = await scheduleState(store, schedule);
          // A program's schedule keeps what it likes in `run` (null, a string): only ours is a command line.
          const launch = (isRecord(schedule.run) ? schedule.run : {}) as Partial<ScheduledLaunch>;
          const what = Array.isArray(launch.argv) ? launch.argv.slice(0, 2).join(" ") : "(started by your program)";
          const next = schedule.paused ? "paused" : `next ${iso(nextFireTime(schedule, Date.now()))}`;
          const last = state.lastRunId === undefined ? "no run yet" : `last ${await lastRunLine(store, state.lastRunId)}`;
          io.out(
            `${schedule.name}  "${schedule.cron}"${schedule.tz ? ` ${schedule.tz}` : ""}  ${what}  ${next}  ${last}  overlap ${schedule.overlap}`,
          );
        }
      }),
  );
  for (const [verb, paused] of [
    ["pause", true],
    ["resume", false],
  ] as const) {
    withStore(
      schedules
        .command(verb)
        .description(paused ? "Start no more runs of a schedule until it is resumed" : "Start a paused schedule's runs again, from now"),
    )
      .argument("<name>")
      .action((name: string, flags: { store: string }) =>
        usingStore(
          flags.store,
          async (store) => {
            await setSchedulePaused(store, name, paused);
            io.out(`schedule ${name}: ${paused ? "paused" : "resumed; the fire times it slept through are not caught up"}`);
          },
          writable,
        ),
      );
  }
  withStore(schedules.command("remove").description("Remove a schedule; the runs it started stay in the store"))
    .argument("<name>")
    .action((name: string, flags: { store: string }) =>
      usingStore(
        flags.store,
        async (store) => {
          await removeSchedule(store, name);
          io.out(`schedule ${name}: removed`);
        },
        writable,
      ),
    );
}

/** The command line a schedule starts, with every path made absolute (serve runs it from the folder it was added in). */
function launchOf(flags: AddFlags): ScheduledLaunch {
  if ((flags.plan === undefined) === (flags.task === undefined))
    throw new CliError("give a schedule --plan <plan.json> or --task <text>, one of them");
  if (flags.plan !== undefined) {
    if (!existsSync(flags.plan)) throw new CliError(`--plan ${flags.plan}: there is no such file`);
    if (flags.tools === undefined) throw new CliError("a plan's schedule needs --tools <module>: the tools its steps call");
    return { argv: ["run", resolve(flags.plan), "--tools", resolve(flags.tools)], cwd: process.cwd() };
  }
  if (flags.model === undefined) throw new CliError("a task's schedule needs --model: the model that plans and answers");
  return {
    argv: [
      "ask",
      flags.task!,
      "--strategy",
      flags.strategy ?? "plan-and-execute",
      ...modelArguments(flags),
      ...(flags.tools === undefined ? [] : ["--tools", resolve(flags.tools)]),
      ...(flags.planCache && (flags.strategy ?? "plan-and-execute") === "plan-and-execute" ? ["--plan-cache"] : []),
    ],
    cwd: process.cwd(),
  };
}

/**
 * Loads what the schedule's runs will load (the tools module, the model, the plan against the
 * tools): a module that does not load or a model without its key is an error at `add`, not at
 * the first fire time. `planloop serve` continues runs with its own modules; these are the ones
 * named here.
 */
async function checkLaunchLoads(flags: AddFlags): Promise<void> {
  const tools = flags.tools === undefined ? undefined : await loadTools(flags.tools);
  if (flags.task !== undefined) {
    await modelFromFlags(flags);
    return;
  }
  const checked = validatePlan(readJsonFile(flags.plan!, "plan"), { tools: tools ?? [] });
  if (!checked.ok)
    throw new CliError(
      `--plan ${flags.plan}: the plan is invalid: ${cappedList(
        checked.errors.map((error) => error.message),
        (count) => `and ${count} more`,
      ).join("; ")}`,
    );
}

/** The schedule's last run and how it stands: a run that could not start says why. */
async function lastRunLine(store: CheckpointStore, runId: string): Promise<string> {
  const run = await store.getRun(runId);
  if (run === undefined) return `${runId} (not in the store)`;
  const result = run.result as { status?: unknown; reason?: unknown } | undefined;
  if (run.status !== "finished" || typeof result?.status !== "string") return `${runId} (${run.status})`;
  return `${runId} (${result.status}${result.status === "failed" && typeof result.reason === "string" ? `: ${result.reason}` : ""})`;
}

function iso(ms: number | undefined): string {
  return ms === undefined ? "never" : new Date(ms).toISOString();
}
