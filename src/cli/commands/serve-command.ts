import { resolve } from "node:path";
import type { Command } from "commander";
import { InvalidOptionsError, RunBusyError, shown } from "../../core/errors.js";
import { serveTokensCommand } from "./serve-tokens.js";
import { startApi, wholeNumber, type ApiFlags, type Served } from "./serve-api.js";
import { coveredByGrants, grantTargets } from "../../runs/standing-grants.js";
import { orphanedRuns } from "../../runs/orphaned-runs.js";
import { runSchedules, type ScheduleFire } from "../../waits/run-schedules.js";
import { listSchedules } from "../../waits/schedules.js";
import { dueOutermostRuns } from "../../waits/wake-due-runs.js";
import { CliError } from "../cli-error.js";
import type { CliIo } from "../cli-io.js";
import { resumeRun, type Rerun } from "../continue-run.js";
import { trustedLaunchLine } from "../launch-line.js";
import { defaultStore, openStore } from "../store-option.js";
import type { ScheduledLaunch } from "./schedules-command.js";

interface ServeFlags extends ApiFlags {
  store: string;
  tools?: string;
  model?: string;
  tickMs: string;
  limit: string;
  orphanAfterMs: string;
}

/**
 * `planloop serve`: until Ctrl-C (or SIGTERM), on every tick, continues the runs whose wait is
 * over, starts the schedules' runs that are due, and continues runs whose owner is gone (a
 * process that crashed or was killed). Each run is continued by the command line that started
 * it, in its folder, with this command's modules, one at a time. Several may serve one store:
 * every run is continued under its lease, and a fire time has one run id.
 */
export function serveCommand(program: Command, io: CliIo, rerun: Rerun): void {
  const serve = program
    .command("serve")
    // Checked in the action, not by commander: `serve tokens …` needs no tools.
    .option("--tools <module>", "the tools module every run continues with (the store is not trusted to name one)")
    .option("--model <module>", "for runs started with a model module: the module to continue them with")
    .option("--store <sqlite:path|postgres://…>", "the store to serve", defaultStore)
    .option("--tick-ms <ms>", "how often the store is looked at", "1000")
    .option("--limit <n>", "at most this many runs woken per tick", "100")
    .option("--orphan-after-ms <ms>", "a running run untouched this long whose lease is free has lost its owner: continue it", "10000")
    .option("--port <port>", "also serve the HTTP API (docs/server.md) on this port (0: a free one)")
    .option("--host <host>", "where the API listens; beyond 127.0.0.1 only with a token (planloop serve tokens add)", "127.0.0.1")
    .option("--concurrency <n>", "runs the API started that run at once in this process", "8")
    .option("--step-slots <n>", "steps at once across those runs, a freed slot going to the run that holds the fewest", "32")
    .option("--redis <url>", "run the API's runs' steps on BullMQ workers (planloop worker) through this Redis")
    .option("--queue <name>", "the BullMQ queue, with --redis", "planloop")
    .option("--webhook <url>", "POST every API run's waits and ends here, signed with $PLANLOOP_WEBHOOK_SECRET (docs/server.md#webhooks)")
    .action(async (flags: ServeFlags) => {
      if (flags.tools === undefined) throw new CliError("planloop serve needs --tools <module>: the tools every run continues with");
      const tickMs = wholeNumber(flags.tickMs, "--tick-ms");
      const limit = wholeNumber(flags.limit, "--limit");
      const orphanAfterMs = wholeNumber(flags.orphanAfterMs, "--orphan-after-ms");
      const storeFlag = flags.store.startsWith("sqlite:") ? `sqlite:${resolve(flags.store.slice("sqlite:".length))}` : flags.store;
      const store = await openStore(storeFlag, { readonly: false });
      const served: Served = {
        store,
        storeFlag,
        tools: resolve(flags.tools),
        model: flags.model === undefined ? undefined : resolve(flags.model),
        io,
        rerun,
        leftAlone: new Set(),
        server: undefined,
      };
      if (flags.port !== undefined)
        served.server = await startApi(served, flags).catch(async (error: unknown) => {
          await store.close();
          throw error instanceof InvalidOptionsError ? new CliError(error.message) : error;
        });
      const stop = stopper(io);
      const schedules = (await listSchedules(store)).filter((schedule) => !schedule.paused).length;
      io.out(
        `planloop serve: ${storeFlag}, tools ${served.tools}; wakes waiting runs, starts ${schedules} schedules, continues runs whose owner is gone; every ${tickMs} ms. Ctrl-C stops`,
      );
      try {
        while (!stop.requested()) {
          await tick(served, { limit, orphanAfterMs }, stop.requested);
          await stop.sleep(tickMs);
        }
      } finally {
        stop.dispose();
        await served.server?.close();
        await store.close();
      }
      io.out("planloop serve: stopped");
      io.exitCode(0);
    });
  serveTokensCommand(serve, io);
}

/** One look at the store: due runs, due schedules, orphaned runs, in that order. */
async function tick(served: Served, options: { limit: number; orphanAfterMs: number }, stopped: () => boolean): Promise<void> {
  const { store, io } = served;
  for (const { runId } of await dueOutermostRuns(store, { at: Date.now(), limit: options.limit })) {
    if (stopped()) return;
    await continueRun(served, runId, "its wait is over");
  }
  if (stopped()) return;
  const report = await runSchedules({ store, launch: (fire) => launchFire(served, fire) });
  for (const run of report.started) io.out(`schedule ${run.schedule}: started ${run.runId}: ${run.status}`);
  for (const skip of report.skipped) io.out(`schedule ${skip.schedule}: not started at ${skip.fireAt}: ${skip.reason}`);
  for (const failure of report.failed) io.err(`schedule ${failure.schedule}: ${failure.runId} could not start: ${failure.error}`);
  for (const runId of await orphanedRuns(store, { afterMs: options.orphanAfterMs })) {
    if (stopped()) return;
    await continueRun(served, runId, "its owner is gone");
  }
  await applyGrants(served, options.limit, stopped);
}

/**
 * Waiting runs a standing grant covers (their own, or their schedule's: see docs/server.md) are
 * approved and continued: the API's runs here, the way they were started; others by their
 * command line (`planloop runs approve <run> <ids…>`).
 */
async function applyGrants(served: Served, limit: number, stopped: () => boolean): Promise<void> {
  const now = Date.now();
  const granted = await grantTargets(served.store, now);
  for (const row of await served.store.listRuns({ topLevel: true, status: "waiting", limit })) {
    if (stopped()) return;
    if (!granted(row)) continue;
    const host = served.server?.host;
    if (host !== undefined && (await host.hosts(row.runId))) {
      if (served.leftAlone.has(row.runId)) continue;
      try {
        const approved = await host.applyGrants(row.runId);
        if (approved.length > 0) served.io.out(`run ${row.runId}: a standing grant approves ${approved.join(", ")}`);
      } catch (error) {
        served.leftAlone.add(row.runId);
        served.io.err(`run ${row.runId}: ${shown(error)}; serve leaves it alone from now`);
      }
      continue;
    }
    const covered = await coveredByGrants(served.store, row.runId, now);
    if (covered.length > 0)
      await continueRun(served, row.runId, `a standing grant approves ${covered.map((item) => item.id).join(", ")}`, [
        "--approve",
        ...covered.map((item) => item.id),
        "--decided-by",
        `standing grant of ${[...new Set(covered.map((item) => item.by))].join(", ")}`,
      ]);
  }
}

async function continueRun(served: Served, runId: string, why: string, decisions: string[] = []): Promise<void> {
  if (served.leftAlone.has(runId)) return;
  served.io.out(`run ${runId}: ${why}; continuing it`);
  try {
    const host = served.server?.host;
    if (host !== undefined && (await host.hosts(runId))) {
      // A run the API started: continued here, the way it was started, with this process's tools and model.
      if (host.isLive(runId)) return;
      return await (
        await host.continue(runId)
      ).done;
    }
    const flags = { store: served.storeFlag, tools: served.tools, ...(served.model === undefined ? {} : { model: served.model }) };
    await resumeRun(served.io, served.rerun, { runId, flags, decisions });
  } catch (error) {
    if (error instanceof RunBusyError) return served.io.out(`run ${runId}: another process is on it`);
    served.leftAlone.add(runId);
    served.io.err(`run ${runId}: ${error instanceof CliError ? error.message : shown(error)}; serve leaves it alone from now`);
  }
}

/** Starts a schedule's run: its command line, checked as a stored launch line is, with the fire's run id. */
async function launchFire(served: Served, fire: ScheduleFire): Promise<{ status: string }> {
  const launch = fire.schedule.run as Partial<ScheduledLaunch>;
  if (!Array.isArray(launch.argv) || typeof launch.cwd !== "string")
    throw new CliError(
      `schedule ${fire.schedule.name} was not added by planloop schedules add; start its runs from your program (runSchedules)`,
    );
  const argv = await trustedLaunchLine(
    fire.runId,
    { kind: "launch", argv: launch.argv, cwd: launch.cwd },
    { tools: served.tools, model: served.model },
  );
  process.chdir(launch.cwd);
  // The run's origin names the schedule (its grants hold for it); its id alone would not.
  const scheduleFire = JSON.stringify({ name: fire.schedule.name, fireAt: fire.fireAt });
  await served.rerun([...argv, "--store", served.storeFlag, "--run-id", fire.runId, "--schedule-fire", scheduleFire]);
  const run = await served.store.getRun(fire.runId);
  const result = run?.result as { status?: string } | undefined;
  return { status: result?.status ?? (run === undefined ? "not started" : "waiting") };
}

/** The first Ctrl-C (or SIGTERM) stops serving once the work in hand is done; a second exits at once. */
function stopper(io: CliIo): { requested(): boolean; sleep(ms: number): Promise<void>; dispose(): void } {
  let requested = false;
  let wake: (() => void) | undefined;
  const stop = () => {
    if (requested) process.exit(130);
    requested = true;
    io.out("planloop serve: stopping once the run in hand is done (Ctrl-C again exits now)");
    wake?.();
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  return {
    requested: () => requested,
    sleep: (ms) =>
      new Promise((done) => {
        const timer = setTimeout(done, ms);
        wake = () => {
          clearTimeout(timer);
          done();
        };
      }),
    dispose: () => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
    },
  };
}
