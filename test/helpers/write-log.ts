// The log write-key fixture processes append to, one line per event in the order they happened:
// `start|end|aborted <table> <process>/<call>` (end and aborted: the call left the table).

/** Every time a table had a second call start in it before the first left. */
export function overlaps(log: string): string[] {
  const inside = new Map<string, string>();
  const found: string[] = [];
  for (const line of log.trim().split("\n").filter(Boolean)) {
    const [what, table, call] = line.split(" ") as [string, string, string];
    if (what === "start") {
      const other = inside.get(table);
      if (other !== undefined) found.push(`${call} started in ${table} while ${other} was inside`);
      inside.set(table, call);
    } else if (inside.get(table) === call) inside.delete(table);
  }
  return found;
}
