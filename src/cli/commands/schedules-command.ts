import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { Command } from "commander";
import {
  listSchedules,
  nextFireTime,
  removeSchedule,
  saveSchedule,
  scheduleState,
  setSchedulePaused,
  type ScheduleOverlap,
} from "../../waits/schedules.js";
import { CliError } from "../cli-error.js";
import type { CliIo } from "../cli-io.js";
import { modelArguments, type ModelFlags } from "../model-option.js";
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
    .action((name: string, flags: AddFlags) =>
      usingStore(
        flags.store,
        async (store) => {
          const schedule = await saveSchedule(store, {
            name,
            cron: flags.cron,
            ...(flags.tz === undefined ? {} : { tz: flags.tz }),
            run: launchOf(flags),
            overlap: flags.overlap as ScheduleOverlap,
            catchUp: Number(flags.catchUp),
          });
          const next = nextFireTime(schedule, Date.now());
          io.out(
            `schedule ${name}: "${schedule.cron}"${schedule.tz ? ` (${schedule.tz})` : ""}, next at ${iso(next)}; planloop serve starts it`,
          );
        },
        writable,
      ),
    );
  withStore(schedules.command("list").description("The schedules: pattern, what they start, next and last run")).action(
    (flags: { store: string }) =>
      usingStore(flags.store, async (store) => {
        const all = await listSchedules(store);
        if (all.length === 0) io.out(`no schedules in ${flags.store}: add one with planloop schedules add`);
        for (const schedule of all) {
          const state = await scheduleState(store, schedule);
          const launch = schedule.run as Partial<ScheduledLaunch>;
          const what = Array.isArray(launch.argv) ? launch.argv.slice(0, 2).join(" ") : "(started by your program)";
          const next = schedule.paused ? "paused" : `next ${iso(nextFireTime(schedule, Date.now()))}`;
          const last = state.lastRunId === undefined ? "no run yet" : `last ${state.lastRunId}`;
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

function iso(ms: number | undefined): string {
  return ms === undefined ? "never" : new Date(ms).toISOString();
}
