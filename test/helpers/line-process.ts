// A fixture process spoken to in lines: each JSON line sent on its stdin is answered by one line
// on its stdout (the first, before any is sent, is its `ready`).
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { repoRoot } from "./paths.js";

export interface LineProcess {
  child: ChildProcessWithoutNullStreams;
  /** Its first line. */
  ready: Promise<string>;
  /** Sends one JSON line; resolves with the line that answers it (rejects if the process exits). */
  send(message: unknown): Promise<string>;
  /** Ends its stdin; resolves with its exit code. */
  stop(): Promise<number | null>;
}

/** Starts `script` (a TypeScript file, run with tsx) with `args`; `name` names it in errors. */
export function startLineProcess(script: string, args: string[], name: string): LineProcess {
  const child = spawn(process.execPath, ["--import", "tsx", script, ...args], { cwd: repoRoot });
  const lines: string[] = [];
  const waiting: Array<(line: string) => void> = [];
  let buffered = "";
  let err = "";
  child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
  child.stdout.on("data", (chunk: Buffer) => {
    buffered += chunk.toString();
    for (let at = buffered.indexOf("\n"); at >= 0; at = buffered.indexOf("\n")) {
      const line = buffered.slice(0, at);
      buffered = buffered.slice(at + 1);
      const next = waiting.shift();
      if (next) next(line);
      else lines.push(line);
    }
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  const nextLine = () =>
    Promise.race([
      new Promise<string>((resolve) => {
        const line = lines.shift();
        if (line === undefined) waiting.push(resolve);
        else resolve(line);
      }),
      exited.then((code) => {
        throw new Error(`${name} exited ${code}: ${err}`);
      }),
    ]);
  return {
    child,
    ready: nextLine(),
    send: (message) => {
      child.stdin.write(`${JSON.stringify(message)}\n`);
      return nextLine();
    },
    stop: () => {
      child.stdin.end();
      return exited;
    },
  };
}
