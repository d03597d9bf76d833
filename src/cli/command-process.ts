import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { RunBusyError } from "../core/errors.js";
import { CliError } from "./cli-error.js";
import type { CliIo } from "./cli-io.js";

/**
 * The environment a continued command runs with: this process's, less the secrets that are
 * serve's own (the server's, the webhooks'): a command-line run never needs them, and a line
 * planted in the store must not be able to send them anywhere.
 */
function commandEnvironment(): NodeJS.ProcessEnv {
  const { PLANLOOP_SERVER_SECRET: _server, PLANLOOP_WEBHOOK_SECRET: _webhook, ...rest } = process.env;
  return rest;
}

/** The exit code of a command refused because another process runs its run (`RunBusyError`): EX_TEMPFAIL, try again later. */
export const busyExitCode = 75;

/**
 * Runs a planloop command line in a process of its own, in `cwd`: how `planloop serve` continues
 * the command line's runs side by side, each in its folder, none holding another (a tool that
 * hangs holds only its own process). Its lines go to `io`, each after `prefix`. Resolves with
 * its last line on stderr when it exits having run, or crashed as a run that failed does (0, 1,
 * 3: whether the run moved is the caller's to check); a run another process holds is a
 * `RunBusyError`; bad input (2) or anything else, an error with its last line.
 */
export async function runCommandProcess(
  argv: readonly string[],
  where: { cwd: string; io: CliIo; prefix: string; runId: string },
): Promise<{ lastLine: string }> {
  // The same Node and the same entry as this process (dist/cli/main.js, or src/cli/main.ts under a loader).
  const child = spawn(process.execPath, [...process.execArgv, process.argv[1]!, ...argv], {
    cwd: where.cwd,
    // It ends with this process (see main.ts): a serve that is killed takes its runs with it, as when they ran inside it.
    env: { ...commandEnvironment(), PLANLOOP_ENDS_WITH_PARENT: "1" },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let last = "";
  createInterface({ input: child.stdout }).on("line", (line) => where.io.out(`${where.prefix}${line}`));
  createInterface({ input: child.stderr }).on("line", (line) => {
    last = line;
    where.io.err(`${where.prefix}${line}`);
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", resolve);
  });
  const lastLine = last.replace(/^planloop: /, "");
  if (code === 0 || code === 1 || code === 3) return { lastLine };
  if (code === busyExitCode) throw new RunBusyError(where.runId, { owner: "another process", expiresAt: Date.now() });
  throw new CliError(`its command exited with ${code ?? "a signal"}${lastLine === "" ? "" : `: ${lastLine}`}`);
}
