#!/usr/bin/env node
import { runCli } from "./program.js";

// A reader that stops early (`planloop runs list | head -1`) closes the pipe: that ends the command, quietly.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
    throw error;
  });
}

const code = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  exitCode: () => {},
});
process.exitCode = code;
