import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { hostname } from "node:os";

/**
 * Who holds a stored run's lease: `host:pid:start:nonce`, where `start` tells this pid's process
 * from a later one that reuses the number (the kernel's start time on Linux, empty elsewhere).
 * Written as text into the store, read back by other processes.
 */
export function leaseOwnerName(): string {
  return `${hostname()}:${process.pid}:${processStart(process.pid) ?? ""}:${randomUUID().slice(0, 8)}`;
}

/**
 * True when `owner` names a process on this host that is gone: its pid is not alive, or is alive
 * with another start time (a new process under a reused pid). False when it cannot tell: another
 * host, a name from an older version without a start time whose pid is alive, or a name not of
 * this form. A lease whose owner is gone may be taken at once instead of after it runs out.
 */
export function leaseOwnerIsGone(owner: string): boolean {
  const parts = /^(.+):(\d+):(\d*):([0-9a-f]{8})$/.exec(owner) ?? /^(.+):(\d+):()([0-9a-f]{8})$/.exec(owner);
  if (parts === null || parts[1] !== hostname()) return false;
  const pid = Number(parts[2]);
  if (!isAlive(pid)) return true;
  const start = parts[3];
  if (start === undefined || start === "") return false;
  const now = processStart(pid);
  return now !== undefined && now !== start;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, another user's.
    return (error as NodeJS.ErrnoException).code !== "ESRCH";
  }
}

/** The process's start time in clock ticks since boot (field 22 of /proc/<pid>/stat), where there is one. */
function processStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) is in parentheses and may hold spaces: count after it.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return fields[19];
  } catch {
    return undefined;
  }
}
