#!/usr/bin/env node
import { runCli } from "./program.js";
import { terminalWriter } from "./terminal-text.js";

// A reader that stops early (`planloop runs list | head -1`) closes the pipe: that ends the command, quietly.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
    throw error;
  });
}

// A command `planloop serve` runs in a process of its own ends with serve: when serve's end of
// its stdin closes (serve exited, or was killed), it stops at once, as a crash would; the run is
// then adopted by whichever serve finds its owner gone, and nothing that finished runs again.
if (process.env.PLANLOOP_ENDS_WITH_PARENT === "1") {
  // Its own children (a tool's) are not serve's.
  delete process.env.PLANLOOP_ENDS_WITH_PARENT;
  process.stdin.on("close", () => process.exit(137));
  process.stdin.resume();
  // Watching serve does not keep this process alive once its command is done.
  (process.stdin as { unref?: () => void }).unref?.();
}

const code = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  // Lines carry text from runs: on a terminal, their control characters are shown, not obeyed.
  out: terminalWriter(process.stdout),
  err: terminalWriter(process.stderr),
  exitCode: () => {},
});
process.exitCode = code;
