import { updateValue, type CheckpointStore, type RunSummary } from "../journal/checkpoint-store.js";

/**
 * The runs a service gave up continuing, and why (its command kept failing to start, it names a
 * module serve was not given): kept beside the runs so that `planloop runs list|show` and the ui
 * say why a run stands still, instead of one line in serve's log. A note holds while the run has
 * not moved since it was written: once someone continues the run (`planloop runs resume`), it
 * no longer shows. Newest first, the oldest let go past `keep`.
 */
const leftAloneKey = "planloop:serve:left-alone";
const keep = 500;

export interface LeftAlone {
  runId: string;
  reason: string;
  /** When the service gave up on it (ms since 1970). */
  at: number;
}

/** Notes that a service leaves the run alone from now, and why. */
export async function noteLeftAlone(store: CheckpointStore, note: LeftAlone): Promise<void> {
  await updateValue(store, leftAloneKey, (current) =>
    [note, ...notesOf(current).filter((old) => old.runId !== note.runId)].sort((a, b) => b.at - a.at).slice(0, keep),
  );
}

/** Why a service left each of these runs alone, for those that have not moved since. */
export async function leftAloneReasons(
  store: CheckpointStore,
  runs: ReadonlyArray<Pick<RunSummary, "runId" | "updatedAt">>,
): Promise<Map<string, string>> {
  const notes = new Map(notesOf(await store.getValue(leftAloneKey)).map((note) => [note.runId, note]));
  const reasons = new Map<string, string>();
  for (const run of runs) {
    const note = notes.get(run.runId);
    if (note !== undefined && run.updatedAt <= note.at) reasons.set(run.runId, note.reason);
  }
  return reasons;
}

/** The line a person reads: `left alone by planloop serve: <reason>`. */
export function leftAloneLine(reason: string): string {
  return `left alone by planloop serve: ${reason}`;
}

/** What the store holds, checked: it is input, not truth. */
function notesOf(value: unknown): LeftAlone[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (item): item is LeftAlone =>
      typeof item === "object" &&
      item !== null &&
      typeof item.runId === "string" &&
      typeof item.reason === "string" &&
      typeof item.at === "number",
  );
}
