/**
 * A max-heap of ready steps: the highest priority first, and among equals the one that
 * comes first in the plan, so runs are deterministic.
 */
export class ReadyQueue {
  private readonly heap: number[] = [];

  constructor(private readonly priority: (step: number) => number) {}

  get size(): number {
    return this.heap.length;
  }

  push(step: number): void {
    const heap = this.heap;
    heap.push(step);
    let child = heap.length - 1;
    while (child > 0) {
      const parent = (child - 1) >> 1;
      if (!this.before(heap[child]!, heap[parent]!)) break;
      [heap[child], heap[parent]] = [heap[parent]!, heap[child]!];
      child = parent;
    }
  }

  pop(): number | undefined {
    const heap = this.heap;
    const top = heap[0];
    const last = heap.pop();
    if (heap.length === 0 || last === undefined) return top;
    heap[0] = last;
    let parent = 0;
    for (;;) {
      const left = parent * 2 + 1;
      const right = left + 1;
      let best = parent;
      if (left < heap.length && this.before(heap[left]!, heap[best]!)) best = left;
      if (right < heap.length && this.before(heap[right]!, heap[best]!)) best = right;
      if (best === parent) return top;
      [heap[parent], heap[best]] = [heap[best]!, heap[parent]!];
      parent = best;
    }
  }

  private before(a: number, b: number): boolean {
    const difference = this.priority(a) - this.priority(b);
    return difference > 0 || (difference === 0 && a < b);
  }
}
