/**
 * The ready steps, best first: the highest priority, and among equals the one that comes
 * first in the plan, so runs are deterministic.
 *
 * Steps often arrive already in that order (a fan-out's branches, all equal, in plan
 * order): each one that ranks after the last one in line joins a plain line, taken from the
 * front at no cost; the others go into a max-heap. The next step is the better of the
 * line's front and the heap's top. Neither array shrinks, so ten thousand ready steps are
 * not copied as they drain. Priorities are read from a typed array (a callback returning
 * numbers would box each one).
 */
export class ReadyQueue {
  private readonly line: number[] = [];
  private lineStart = 0;
  private lineEnd = 0;
  private readonly heap: number[] = [];
  private heapCount = 0;

  /**
   * `priorities[step]`, higher first; without them, steps come in plan order. `capacity`: how
   * many steps may wait at once, if known (a plan's size): the line is made that long at
   * once rather than grown and copied as ten thousand steps arrive.
   */
  constructor(
    private readonly priorities?: Float64Array,
    capacity = 0,
  ) {
    if (capacity > 0) this.line = new Array<number>(capacity).fill(0);
  }

  get size(): number {
    return this.lineEnd - this.lineStart + this.heapCount;
  }

  push(step: number): void {
    if (this.lineStart === this.lineEnd || this.before(this.line[this.lineEnd - 1]!, step)) {
      this.line[this.lineEnd++] = step;
      return;
    }
    const heap = this.heap;
    let child = this.heapCount;
    this.heapCount += 1;
    while (child > 0) {
      const parent = (child - 1) >> 1;
      if (!this.before(step, heap[parent]!)) break;
      heap[child] = heap[parent]!;
      child = parent;
    }
    heap[child] = step;
  }

  pop(): number | undefined {
    const inLine = this.lineStart < this.lineEnd;
    if (inLine && (this.heapCount === 0 || this.before(this.line[this.lineStart]!, this.heap[0]!))) {
      const step = this.line[this.lineStart++]!;
      if (this.lineStart === this.lineEnd) this.lineStart = this.lineEnd = 0;
      return step;
    }
    return this.popHeap();
  }

  /** Puts the waiting steps in order again after their priorities changed. */
  reorder(): void {
    // Copied element by element: spreading a few hundred thousand steps into a call's
    // arguments overflows the stack.
    const waiting = this.line.slice(this.lineStart, this.lineEnd);
    for (let position = 0; position < this.heapCount; position += 1) waiting.push(this.heap[position]!);
    waiting.sort((a, b) => (this.before(a, b) ? -1 : this.before(b, a) ? 1 : 0));
    this.line.length = 0;
    for (const step of waiting) this.line.push(step);
    this.lineStart = 0;
    this.lineEnd = waiting.length;
    this.heapCount = 0;
  }

  private popHeap(): number | undefined {
    if (this.heapCount === 0) return undefined;
    const heap = this.heap;
    const top = heap[0]!;
    this.heapCount -= 1;
    const count = this.heapCount;
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
