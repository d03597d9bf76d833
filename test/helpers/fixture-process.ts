// A fixture process that prints `ready` when it is set up, then (if it ends by itself) one line
// of results: the many-process tests of limits start theirs with this.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { join } from "node:path";
import { repoRoot } from "./paths.js";

export interface FixtureProcess {
  child: ChildProcessWithoutNullStreams;
  /** Resolves at its `ready` line; rejects if it exits before (with its stderr). */
  ready: Promise<void>;
  /** Its line after `ready`, once it has exited 0; rejects on any other exit (with its stderr). */
  done: Promise<string>;
}

/** Starts test/fixtures/`fixture` (run with tsx) with `args`. */
export function startFixture(fixture: string, args: string[]): FixtureProcess {
  const child = spawn(process.execPath, ["--import", "tsx", join(repoRoot, "test", "fixtures", fixture), ...args], { cwd: repoRoot });
  let out = "";
  let err = "";
  let onReady: () => void = () => {};
  let onEarlyExit: (error: Error) => void = () => {};
  const ready = new Promise<void>((resolve, reject) => ((onReady = resolve), (onEarlyExit = reject)));
  child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
  child.stdout.on("data", (chunk: Buffer) => {
    out += chunk.toString();
    if (out.startsWith("ready\n")) onReady();
  });
  const done = new Promise<string>((resolve, reject) =>
    child.on("close", (code) => {
      const failure = new Error(`${fixture} exited ${code}: ${err}`);
      onEarlyExit(failure);
      if (code === 0) resolve(out.split("\n")[1]!);
      else reject(failure);
    }),
  );
  // A test awaiting only one of them must not see the other's rejection as unhandled.
  ready.catch(() => {});
  done.catch(() => {});
  return { child, ready, done };
}
