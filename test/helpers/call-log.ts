// The log file the scale-out tests' tools write a line to per call (start, end, aborted), and
// waiting on it: shared by the BullMQ tests.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A new, empty log file in a folder of its own. */
export function logFile(): string {
  const log = join(mkdtempSync(join(tmpdir(), "planloop-calls-")), "calls.log");
  writeFileSync(log, "");
  return log;
}

export const lines = (log: string) => readFileSync(log, "utf8").trim().split("\n").filter(Boolean);

/** The calls that started, one line each: `start <pid> <name> <key>`. */
export const starts = (log: string) => lines(log).filter((line) => line.startsWith("start"));

/**
 * Waits until `done` holds, checking every 10 ms; throws after `ms`. What it waits for is often
 * a process started with tsx: 20 s was too little at a load of 12 on two cores.
 */
export async function until(done: () => boolean, ms = 120_000): Promise<void> {
  const start = Date.now();
  while (!done()) {
    if (Date.now() - start > ms) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
