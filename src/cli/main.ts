#!/usr/bin/env node
import { runCli } from "./program.js";

const code = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  exitCode: () => {},
});
process.exitCode = code;
