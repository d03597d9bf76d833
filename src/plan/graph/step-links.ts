/**
 * Every step's links in one direction (its dependencies, or its dependents), in a few typed
 * arrays that grow as steps and links are added: no array per step, so a plan of ten
 * thousand steps does not make ten thousand small lists for V8 to copy and collect. A step's
 * links come back in the order they were added. Code that runs once per plan or per failure
 * walks them plainly, `for (const target of links.linked(step))`; the scheduler's and the
 * check's per-step loops walk the links without an iterator:
 *
 *     for (let link = links.first(step); link !== -1; link = links.next(link)) use(links.target(link));
 */
export class StepLinks {
  private heads: Int32Array;
  private tails: Int32Array;
  private counts: Int32Array;
  private targets: Int32Array;
  private nexts: Int32Array;
  private stepCount = 0;
  private linkCount = 0;

  /** Room for `steps` steps and `links` links up front; both grow as needed. */
  constructor(steps = 0, links = 0) {
    this.heads = new Int32Array(Math.max(steps, 4));
    this.tails = new Int32Array(this.heads.length);
    this.counts = new Int32Array(this.heads.length);
    this.targets = new Int32Array(Math.max(links, 4));
    this.nexts = new Int32Array(this.targets.length);
  }

  /** How many steps there are (numbered from 0). */
  get size(): number {
    return this.stepCount;
  }

  /** Adds a step without links and returns its number. */
  addStep(): number {
    if (this.stepCount === this.heads.length) {
      const size = this.heads.length * 2;
      this.heads = grown(this.heads, size);
      this.tails = grown(this.tails, size);
      this.counts = grown(this.counts, size);
    }
    this.heads[this.stepCount] = -1;
    this.tails[this.stepCount] = -1;
    return this.stepCount++;
  }

  /** Links `step` to `target`, after its other links. The caller keeps links unique. */
  add(step: number, target: number): void {
    if (this.linkCount === this.targets.length) {
      const size = this.targets.length * 2;
      this.targets = grown(this.targets, size);
      this.nexts = grown(this.nexts, size);
    }
    const link = this.linkCount++;
    this.targets[link] = target;
    this.nexts[link] = -1;
    const tail = this.tails[step]!;
    if (tail === -1) this.heads[step] = link;
    else this.nexts[tail] = link;
    this.tails[step] = link;
    this.counts[step]! += 1;
  }

  count(step: number): number {
    return this.counts[step]!;
  }

  /** The step's first link, or -1 when it has none. */
  first(step: number): number {
    return this.heads[step]!;
  }

  /** The link after `link` from the same step, or -1. */
  next(link: number): number {
    return this.nexts[link]!;
  }

  /** The step a link leads to. */
  target(link: number): number {
    return this.targets[link]!;
  }

  has(step: number, target: number): boolean {
    for (let link = this.heads[step]!; link !== -1; link = this.nexts[link]!) if (this.targets[link] === target) return true;
    return false;
  }

  /** The steps `step` links to, in order. */
  *linked(step: number): IterableIterator<number> {
    for (let link = this.heads[step]!; link !== -1; link = this.nexts[link]!) yield this.targets[link]!;
  }

  /** The steps `step` links to, as a new array. */
  list(step: number): number[] {
    const steps: number[] = new Array(this.counts[step]!);
    let position = 0;
    for (let link = this.heads[step]!; link !== -1; link = this.nexts[link]!) steps[position++] = this.targets[link]!;
    return steps;
  }
}

function grown(array: Int32Array, size: number): Int32Array {
  const larger = new Int32Array(size);
  larger.set(array);
  return larger;
}
