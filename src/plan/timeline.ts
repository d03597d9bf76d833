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
  // Lanes in use, by when they come free, and lanes free again, lowest first: each bar costs
  // O(log lanes), where a scan of every lane made a wide plan quadratic.
  const busy = new MinHeap();
  const free = new MinHeap();
  let lanes = 0;
  const entries: TimelineEntry[] = new Array(ran.length);
  for (let position = 0; position < ran.length; position += 1) {
    const index = ran[position]!;
    const bar = bars[index]!;
    while (busy.size > 0 && busy.topKey() <= bar.startedAt!) {
      const released = busy.pop();
      free.push(released, released);
    }
    const lane = free.size > 0 ? free.pop() : lanes++;
    busy.push(lane, bar.endedAt!);
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

/** Numbers (lanes) ordered by a key: push, and pop the one with the smallest key. */
class MinHeap {
  private readonly keys: number[] = [];
  private readonly values: number[] = [];

  get size(): number {
    return this.keys.length;
  }

  topKey(): number {
    return this.keys[0]!;
  }

  push(value: number, key: number): void {
    const { keys, values } = this;
    let child = keys.length;
    keys.push(key);
    values.push(value);
    while (child > 0) {
      const parent = (child - 1) >> 1;
      if (keys[parent]! <= key) break;
      keys[child] = keys[parent]!;
      values[child] = values[parent]!;
      child = parent;
    }
    keys[child] = key;
    values[child] = value;
  }

  pop(): number {
    const { keys, values } = this;
    const top = values[0]!;
    const lastKey = keys.pop()!;
    const lastValue = values.pop()!;
    const count = keys.length;
    if (count === 0) return top;
    let parent = 0;
    for (;;) {
      let child = 2 * parent + 1;
      if (child >= count) break;
      if (child + 1 < count && keys[child + 1]! < keys[child]!) child += 1;
      if (keys[child]! >= lastKey) break;
      keys[parent] = keys[child]!;
      values[parent] = values[child]!;
      parent = child;
    }
    keys[parent] = lastKey;
    values[parent] = lastValue;
    return top;
  }
}
