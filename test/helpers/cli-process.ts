// A planloop command in a process of its own (from the source, through tsx), as a person starts
// it: the lines it printed so far, waiting for one, and stopping it (a signal, or SIGKILL).
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { repoRoot } from "./paths.js";

export interface CliProcess {
  child: ChildProcess;
  /** Every line of stdout and stderr, in the order they came. */
  lines: string[];
  /** Resolves with the first line (printed so far or later) that matches; rejects if the process exits first or after `ms`. */
  line(pattern: RegExp, ms?: number): Promise<string>;
  /** Sends the signal and resolves with the exit code (or the signal's name) once it exited. */
  stop(signal?: NodeJS.Signals): Promise<number | string>;
}

export function startCli(args: string[], env: Record<string, string> = {}): CliProcess {
  const child = spawn(process.execPath, ["--import", "tsx", join(repoRoot, "src", "cli", "main.ts"), ...args], {
    cwd: repoRoot,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...env },
  });
  const lines: string[] = [];
  const listeners = new Set<() => void>();
  for (const stream of [child.stdout!, child.stderr!]) {
    createInterface({ input: stream }).on("line", (line) => {
      lines.push(line);
      for (const listener of listeners) listener();
    });
  }
  const exited = new Promise<number | string>((resolve) => child.once("exit", (code, signal) => resolve(code ?? signal ?? "")));
  return {
    child,
    lines,
    line: (pattern, ms = 60_000) =>
      new Promise((resolve, reject) => {
        const look = () => {
          const found = lines.find((line) => pattern.test(line));
          if (found === undefined) return;
          done();
          resolve(found);
        };
        const timer = setTimeout(() => (done(), reject(new Error(`no line matched ${pattern} in ${ms} ms:\n${lines.join("\n")}`))), ms);
        const done = () => {
          clearTimeout(timer);
          listeners.delete(look);
        };
        listeners.add(look);
        void exited.then(() =>
          setTimeout(() => {
            if (!listeners.has(look)) return;
            done();
            reject(new Error(`the process exited before a line matched ${pattern}:\n${lines.join("\n")}`));
          }, 50),
        );
        look();
      }),
    stop: (signal = "SIGTERM") => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** Resolves once the child process has exited (at once if it has already). */
export function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.on("close", () => resolve()));
}
