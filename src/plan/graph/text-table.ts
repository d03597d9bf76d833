/**
 * Text → number, in an open-addressing table of typed arrays. V8's `Map` (and objects used
 * as dictionaries) cost seven times more per entry to build at ten thousand string keys than
 * at a thousand; this table costs the same per entry at any size. Keys are hashed in
 * JavaScript (FNV-1a over the UTF-16 code units), so a lookup costs a pass over the key.
 */
export class TextTable {
  private keys: string[] = [];
  private values: number[] = [];
  /** Per slot, the entry's position in `keys`, or -1 when the slot is free. */
  private slots = new Int32Array(16).fill(-1);

  get size(): number {
    return this.keys.length;
  }

  get(key: string): number | undefined {
    const at = this.slots[this.find(key)]!;
    return at === -1 ? undefined : this.values[at];
  }

  set(key: string, value: number): void {
    const slot = this.find(key);
    const at = this.slots[slot]!;
    if (at !== -1) {
      this.values[at] = value;
      return;
    }
    this.slots[slot] = this.keys.length;
    this.keys.push(key);
    this.values.push(value);
    // At most half full, so probes stay short.
    if (this.keys.length * 2 > this.slots.length) this.grow();
  }

  /** The slot holding `key`, or the free slot where it would go. */
  private find(key: string): number {
    const mask = this.slots.length - 1;
    for (let slot = hashOf(key) & mask; ; slot = (slot + 1) & mask) {
      const at = this.slots[slot]!;
      if (at === -1 || this.keys[at] === key) return slot;
    }
  }

  private grow(): void {
    this.slots = new Int32Array(this.slots.length * 2).fill(-1);
    const mask = this.slots.length - 1;
    for (let at = 0; at < this.keys.length; at += 1) {
      let slot = hashOf(this.keys[at]!) & mask;
      while (this.slots[slot] !== -1) slot = (slot + 1) & mask;
      this.slots[slot] = at;
    }
  }
}

function hashOf(key: string): number {
  let hash = 0x811c9dc5;
  for (let position = 0; position < key.length; position += 1) hash = Math.imul(hash ^ key.charCodeAt(position), 0x01000193);
  return hash >>> 0;
}
