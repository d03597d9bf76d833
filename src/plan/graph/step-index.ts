/**
 * Step key → position in the plan, with the reading part of a `Map`'s interface. Plans
 * mostly number their steps: those keys ("0", "17") are kept in an array, other keys in a
 * `Map`. With every key in a `Map`, a 10,000-step chain's cost grew 11.7-12.8x from 1,000
 * steps (the target is 12x); with the array, 10.9-11.5x (bench:scheduler, chain line).
 */
export class StepIndex {
  private readonly byNumber: number[] = [];
  private readonly byText = new Map<string, number>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  get(key: string): number | undefined {
    const number = smallNumber(key);
    return number === undefined ? this.byText.get(key) : this.byNumber[number];
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  set(key: string, index: number): this {
    const number = smallNumber(key);
    if (number === undefined) {
      if (this.byText.get(key) === undefined) this.count += 1;
      this.byText.set(key, index);
    } else {
      if (this.byNumber[number] === undefined) this.count += 1;
      this.byNumber[number] = index;
    }
    return this;
  }
}

/** The value of a key written as a plain decimal below a million ("7", not "07" or "7.0"). */
function smallNumber(key: string): number | undefined {
  const length = key.length;
  if (length === 0 || length > 6 || (length > 1 && key.charCodeAt(0) === 48)) return undefined;
  let value = 0;
  for (let position = 0; position < length; position += 1) {
    const digit = key.charCodeAt(position) - 48;
    if (digit < 0 || digit > 9) return undefined;
    value = value * 10 + digit;
  }
  return value;
}
