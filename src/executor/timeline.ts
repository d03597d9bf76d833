/** One bar of a Gantt chart: when a step ran, and on which lane. */
export interface TimelineEntry {
  stepId: string;
  /** Lanes are reused: a step takes the lowest lane free when it starts. */
  lane: number;
  startedAt: number;
  endedAt: number;
  status: string;
  attempts: number;
}

type Bar = { startedAt?: number | undefined; endedAt?: number | undefined; status: string; attempts: number };

/**
 * Assigns lanes so that steps running at the same time never share one; steps that never
 * ran have no bar. `idOf` names the bar at each index. Pure.
 */
export function buildTimeline(bars: readonly Bar[], idOf: (index: number) => string): TimelineEntry[] {
  const all = new Int32Array(bars.length);
  let count = 0;
  for (let index = 0; index < bars.length; index += 1) {
    if (bars[index]!.startedAt !== undefined && bars[index]!.endedAt !== undefined) all[count++] = index;
  }
  const ran = all.subarray(0, count);
  // Steps usually start in plan order: sort only when they did not.
  let inOrder = true;
  for (let position = 1; position < ran.length && inOrder; position += 1)
    inOrder = bars[ran[position - 1]!]!.startedAt! <= bars[ran[position]!]!.startedAt!;
  if (!inOrder) ran.sort((a, b) => bars[a]!.startedAt! - bars[b]!.startedAt!);
  const laneFreeAt: number[] = [];
  const entries: TimelineEntry[] = new Array(ran.length);
  for (let position = 0; position < ran.length; position += 1) {
    const index = ran[position]!;
    const bar = bars[index]!;
    let lane = 0;
    while (lane < laneFreeAt.length && laneFreeAt[lane]! > bar.startedAt!) lane += 1;
    laneFreeAt[lane] = bar.endedAt!;
    entries[position] = {
      stepId: idOf(index),
      lane,
      startedAt: bar.startedAt!,
      endedAt: bar.endedAt!,
      status: bar.status,
      attempts: bar.attempts,
    };
  }
  return entries;
}
