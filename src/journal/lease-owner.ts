import { randomUUID } from "node:crypto";
import { readFileSync, readlinkSync } from "node:fs";
import { hostname } from "node:os";

/**
 * Who holds a stored run's lease: `host:pid:process:nonce`, where `process` tells this pid's
 * process apart from any other that may show the same host and pid: the pid namespace and the
 * boot it runs in, and the kernel's start time (`<namespace>.<boot>.<start>`, Linux; empty
 * elsewhere). Written as text into the store, read back by other processes.
 */
export function leaseOwnerName(): string {
  return `${hostname()}:${process.pid}:${ownIdentity()}:${randomUUID().slice(0, 8)}`;
}

let own: string | undefined;

/**
 * This process's identity, read from /proc once: it cannot change while the process lives, and
 * reading it was a sixth of a run's start through the API (three file reads per lease taken;
 * bench/serve-cost.bench.ts, item 1).
 */
function ownIdentity(): string {
  own ??= processIdentity(process.pid) ?? "";
  return own;
}

/**
 * True when `owner` names a process that is gone, as far as this process can see: the same
 * host, pid namespace and boot, and its pid not alive or alive with another start time (a new
 * process under a reused pid). False whenever it cannot tell: another host, another pid
 * namespace (a container that shares the host's name) or boot, a name of an older version or of
 * another form. A lease whose owner is gone may be taken at once instead of after it runs out.
 */
export function leaseOwnerIsGone(owner: string): boolean {
  const parts = /^(.+):(\d+):([\w.]*):([0-9a-f]{8})$/.exec(owner);
  if (parts === null || parts[1] !== hostname()) return false;
  const [, , pidText, identity] = parts as unknown as [string, string, string, string];
  const mine = ownIdentity();
  const place = (text: string) => text.split(".").slice(0, 2).join(".");
  // Without /proc (not Linux) on both sides, a pid on this host is the only evidence there is.
  if (identity !== "" || mine !== "") {
    if (identity === "" || place(identity) !== place(mine)) return false;
  }
  const pid = Number(pidText);
  if (!isAlive(pid)) return true;
  if (identity === "") return false;
  const now = processIdentity(pid);
  return now !== undefined && now !== identity;
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

/** `<pid namespace>.<boot>.<start ticks>` of a process, read from /proc, where there is one. */
function processIdentity(pid: number): string | undefined {
  try {
    const namespace = /\[(\d+)\]/.exec(readlinkSync(`/proc/${pid}/ns/pid`))?.[1];
    const boot = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").replaceAll("-", "").slice(0, 12);
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) is in parentheses and may hold spaces: count after it.
    const start = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
    return namespace === undefined || start === undefined ? undefined : `${namespace}.${boot}.${start}`;
  } catch {
    return undefined;
  }
}
