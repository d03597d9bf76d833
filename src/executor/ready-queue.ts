/**
 * A max-heap of ready steps: the highest priority first, and among equals the one that
 * comes first in the plan, so runs are deterministic. The array only grows: popping does
 * not shrink it, so a plan of ten thousand ready steps is not copied as the queue drains.
 * Priorities are read from a typed array (a callback returning numbers would box each one).
 */
export class ReadyQueue {
  private readonly heap: number[] = [];
  private count = 0;

  /** `priorities[step]`, higher first; without them, steps come in plan order. */
  constructor(private readonly priorities?: Float64Array) {}

  get size(): number {
    return this.count;
  }

  push(step: number): void {
    const heap = this.heap;
    let child = this.count;
    this.count += 1;
    while (child > 0) {
      const parent = (child - 1) >> 1;
      if (!this.before(step, heap[parent]!)) break;
      heap[child] = heap[parent]!;
      child = parent;
    }
    heap[child] = step;
  }

  pop(): number | undefined {
    if (this.count === 0) return undefined;
    const heap = this.heap;
    const top = heap[0]!;
    this.count -= 1;
    const count = this.count;
    if (count === 0) return top;
    // Sift the last step down from the root, moving better children up into the hole.
    const last = heap[count]!;
    let parent = 0;
    for (;;) {
      const left = parent * 2 + 1;
      if (left >= count) break;
      const right = left + 1;
      const better = right < count && this.before(heap[right]!, heap[left]!) ? right : left;
      if (!this.before(heap[better]!, last)) break;
      heap[parent] = heap[better]!;
      parent = better;
    }
    heap[parent] = last;
    return top;
  }

  private before(a: number, b: number): boolean {
    const priorities = this.priorities;
    const difference = priorities === undefined ? 0 : priorities[a]! - priorities[b]!;
    return difference > 0 || (difference === 0 && a < b);
  }
}
