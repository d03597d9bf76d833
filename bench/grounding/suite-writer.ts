/**
 * Writes the grounding suite's cases: steps with outputs, and answers built sentence by
 * sentence from slots, each figure a slot that records where it is and whether it is true.
 * The slots chosen for corruption (by number, across the whole suite) are written wrong.
 */

export type Slot =
  | { money: number; others?: number[] }
  | { count: number; others?: number[] }
  | { percent: number; digits: number }
  | { points: number; digits: number }
  | { rounded: number; to: number; prefix: string }
  | { date: string; row?: boolean }
  | { name: string; bare?: boolean; wrong?: string[] }
  | { id: string };

export interface SlotRecord {
  start: number;
  end: number;
  text: string;
  kind: string;
  wrong: boolean;
  /** For a wrong slot: what the true figure reads. */
  truth?: string;
}

export interface SuiteCase {
  id: string;
  task: string;
  steps: Array<{ id: string; tool: string; output: unknown }>;
  answer: string;
  slots: SlotRecord[];
}

const money = (value: number) => `¥${value.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const wrongNames = ["billing error", "lost parcel", "missing invoice", "Ma Rui", "Gao Yan", "wrong colour"];

export class SuiteWriter {
  readonly cases: SuiteCase[] = [];
  /** Slots written so far, across cases: the number a corruption is chosen by. */
  slots = 0;
  private current: SuiteCase | undefined;
  private style: "prose" | "list" = "prose";

  constructor(
    private readonly corrupt: ReadonlySet<number>,
    private readonly random: () => number,
  ) {}

  start(id: string, task: string): void {
    this.current = { id, task, steps: [], answer: "", slots: [] };
    this.style = this.random() < 0.4 ? "list" : "prose";
  }

  step(id: number, tool: string, output: unknown): void {
    this.current!.steps.push({ id: String(id), tool, output });
  }

  /** One sentence: text between slots, each slot rendered (wrong when chosen); a string is text. */
  say(strings: TemplateStringsArray, ...slots: Array<Slot | string>): void {
    const target = this.current!;
    const separator = target.answer === "" ? "" : this.style === "list" ? "\n" : " ";
    target.answer += separator + (this.style === "list" ? "- " : "");
    strings.forEach((text, index) => {
      target.answer += text;
      const slot = slots[index];
      if (slot === undefined) return;
      if (typeof slot === "string") {
        target.answer += slot;
        return;
      }
      const wrong = this.corrupt.has(this.slots);
      this.slots += 1;
      const truth = render(slot);
      const written = wrong ? this.corrupted(slot, truth) : truth;
      const start = target.answer.length;
      target.answer += written;
      const record: SlotRecord = { start, end: target.answer.length, text: written, kind: Object.keys(slot)[0]!, wrong };
      if (wrong) record.truth = truth;
      target.slots.push(record);
    });
  }

  end(): void {
    this.cases.push(this.current!);
    this.current = undefined;
  }

  private corrupted(slot: Slot, truth: string): string {
    for (let attempt = 0; attempt < 20; attempt += 1) {
      const wrong = render(this.wrongSlot(slot));
      if (wrong !== truth) return wrong;
    }
    throw new Error(`could not corrupt ${truth}`);
  }

  private wrongSlot(slot: Slot): Slot {
    const random = this.random;
    const factor = () => (random() < 0.5 ? -1 : 1) * (0.03 + random() * 0.3);
    if ("money" in slot) {
      const others = slot.others?.filter((other) => other !== slot.money) ?? [];
      if (others.length > 0 && random() < 0.3) return { money: others[Math.floor(random() * others.length)]! };
      if (random() < 0.3) return { money: Number(changeDigit(slot.money.toFixed(2), random)) };
      return { money: slot.money * (1 + factor()) };
    }
    if ("count" in slot) {
      const others = slot.others?.filter((other) => other !== slot.count) ?? [];
      if (others.length > 0 && random() < 0.3) return { count: others[Math.floor(random() * others.length)]! };
      const step = random() < 0.5 ? 1 + Math.floor(random() * 3) : Math.max(1, Math.round(slot.count * Math.abs(factor())));
      return { count: Math.max(0, slot.count + (random() < 0.5 ? -step : step)) };
    }
    if ("percent" in slot) return { ...slot, percent: Math.max(0, slot.percent * (1 + factor()) + (random() - 0.5)) };
    if ("points" in slot) return { ...slot, points: Math.max(0, slot.points + (random() < 0.5 ? -1 : 1) * (0.1 + random())) };
    if ("rounded" in slot) return { ...slot, rounded: slot.rounded + (random() < 0.5 ? -1 : 1) * (2 + Math.floor(random() * 4)) * slot.to };
    if ("date" in slot) {
      const date = new Date(`${slot.date}T00:00:00Z`);
      date.setUTCDate(date.getUTCDate() + (random() < 0.5 ? -1 : 1) * (1 + Math.floor(random() * 3)));
      return { date: date.toISOString().slice(0, 10) };
    }
    if ("name" in slot) {
      const names = slot.wrong ?? wrongNames;
      return { ...slot, name: names[Math.floor(random() * names.length)]! };
    }
    return { id: changeDigit(slot.id, random) };
  }
}

/** The slot's figure as a solver writes it. */
function render(slot: Slot): string {
  if ("money" in slot) return money(slot.money);
  if ("count" in slot) return String(Math.round(slot.count));
  if ("percent" in slot) return `${slot.percent.toFixed(slot.digits)}%`;
  if ("points" in slot) return `${slot.points.toFixed(slot.digits)} percentage points`;
  if ("rounded" in slot) return `${slot.prefix}${(Math.round(slot.rounded / slot.to) * slot.to).toLocaleString("en-US")}`;
  if ("date" in slot) return slot.date;
  if ("name" in slot) return slot.bare ? slot.name : `"${slot.name}"`;
  return slot.id;
}

/** One digit (not the first) changed to another. */
function changeDigit(text: string, random: () => number): string {
  const positions = [...text].flatMap((char, index) => (/\d/.test(char) && index > 0 ? [index] : []));
  if (positions.length === 0) return `${text}1`;
  const at = positions[Math.floor(random() * positions.length)]!;
  const digit = (Number(text[at]) + 1 + Math.floor(random() * 9)) % 10;
  return text.slice(0, at) + String(digit) + text.slice(at + 1);
}
