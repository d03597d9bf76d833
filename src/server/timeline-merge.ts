/** An event as a run's journal draws it: its kind and when it happened. */
interface Timed {
  type: string;
  time: number;
}

/** A run's pause comes after whatever else happened in the same millisecond: a step ends before the run it ends stops. */
const closing = new Set(["run-paused", "run-end"]);

/**
 * The events of a run and of the runs kept inside it as one timeline: each list keeps its own
 * order (a stream's cursor counts how many of each list were sent), and the lists are
 * interleaved by time, the earliest head first; in the same millisecond a pause comes last, then
 * the earlier list (the run before the runs inside it). A run's end comes after everything: the
 * runs inside it write nothing after it, and its time is the store's clock, not the journal's.
 * It is a merge, so where the heads alone decide, the timeline from given positions on is the
 * rest of the whole one: a stream resumed from a cursor goes on exactly as the stream from the
 * start does.
 *
 * @example
 * mergeTimelines([[plan, answer], [stepStart, stepEnd]]) // plan, stepStart, stepEnd, answer (by their times)
 */
export function mergeTimelines<T extends Timed>(lists: ReadonlyArray<readonly T[]>): Array<{ list: number; event: T }> {
  const next = lists.map(() => 0);
  const merged: Array<{ list: number; event: T }> = [];
  for (;;) {
    let chosen = -1;
    for (let list = 0; list < lists.length; list += 1) {
      const head = lists[list]![next[list]!];
      if (head === undefined) continue;
      if (chosen === -1 || before(head, lists[chosen]![next[chosen]!]!)) chosen = list;
    }
    if (chosen === -1) return merged;
    merged.push({ list: chosen, event: lists[chosen]![next[chosen]!]! });
    next[chosen] = next[chosen]! + 1;
  }
}

/**
 * Whether `a` goes strictly before `b` (a tie keeps the earlier list first). Times are compared
 * to the millisecond: a run's start is kept in whole milliseconds, its steps and model calls
 * finer, so a plan run made in the millisecond of the call that planned it is no earlier.
 */
function before(a: Timed, b: Timed): boolean {
  if ((a.type === "run-end") !== (b.type === "run-end")) return b.type === "run-end";
  const [first, second] = [Math.floor(a.time), Math.floor(b.time)];
  if (first !== second) return first < second;
  return !closing.has(a.type) && closing.has(b.type);
}
