// Runs the planloop CLI in-process and collects what it prints and its exit code.
import { PassThrough } from "node:stream";
import { runCli } from "../../src/cli/program.js";

export async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const stdout = Object.assign(new PassThrough(), { isTTY: false }) as unknown as NodeJS.WriteStream;
  stdout.on("data", (chunk: Buffer) => out.push(chunk.toString()));
  const stderr = Object.assign(new PassThrough(), { isTTY: false }) as unknown as NodeJS.WriteStream;
  stderr.on("data", (chunk: Buffer) => err.push(chunk.toString()));
  const code = await runCli(argv, {
    stdout,
    stderr,
    out: (line) => out.push(`${line}\n`),
    err: (line) => err.push(`${line}\n`),
    exitCode: () => {},
  });
  return { code, out: out.join(""), err: err.join("") };
}
