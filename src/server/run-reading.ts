import type { CheckpointStore, StoredRun } from "../journal/checkpoint-store.js";

/** A run and the runs kept inside it (oldest first), as a stream reads them. */
export interface RunAndChildren {
  run: StoredRun;
  children: StoredRun[];
}

/**
 * A stream's copy of its run and the runs kept inside it: read whole at the first look, then
 * at each change only what was appended (`getRunFrom`), and a kept run whose row says nothing
 * was added not at all. Following a run of a thousand entries so costs a change what it wrote,
 * not the whole journal parsed again (a step's end reached a client 2.8 ms after it, p50, over
 * 400 steps: bench/serve-cost.bench.ts, item 2). A store without `getRunFrom` is read whole.
 */
export class RunReading {
  private readonly copies = new Map<string, StoredRun>();
  private children: StoredRun[] | undefined;
  /**
   * Whether a run kept inside may have changed since the last read (a stream's `KeptChanges`):
   * when not, a read takes the run's own new entries and leaves the kept runs' rows unread.
   */
  keptChanged: () => boolean = () => true;

  constructor(
    private readonly store: CheckpointStore,
    private readonly runId: string,
  ) {}

  /** The run and its kept runs as they are now; undefined when there is no such run. */
  async read(): Promise<RunAndChildren | undefined> {
    const run = await this.fresh(this.runId, undefined);
    if (run === undefined) return undefined;
    // Asked before the rows are read: a kept run that changes while they are read is read at the next look.
    const keptChanged = this.keptChanged();
    if (this.children !== undefined && !keptChanged) return { run, children: this.children };
    const children: StoredRun[] = [];
    for (const row of (await this.store.listRuns({ within: this.runId })).reverse()) {
      const child = await this.fresh(row.runId, row);
      if (child !== undefined) children.push(child);
    }
    this.children = children;
    return { run, children };
  }

  /** The run's copy brought up to date; `row` (its line of `listRuns`) may say it is up to date already. */
  private async fresh(
    runId: string,
    row: { entries: number; status: string; updatedAt: number } | undefined,
  ): Promise<StoredRun | undefined> {
    const copy = this.copies.get(runId);
    const unchanged =
      copy !== undefined &&
      row !== undefined &&
      row.entries === copy.journal.length &&
      row.status === copy.status &&
      row.updatedAt === copy.updatedAt;
    if (unchanged) return copy;
    const read = copy === undefined || this.store.getRunFrom === undefined;
    const found = read ? await this.store.getRun(runId) : await this.store.getRunFrom!(runId, copy.journal.length);
    if (found === undefined) return undefined;
    // A journal only grows: what was read before stays, the new entries follow it.
    if (!read) found.journal = copy.journal.concat(found.journal);
    this.copies.set(runId, found);
    return found;
  }
}
