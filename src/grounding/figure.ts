// A figure read out of text (read-figures.ts): what it is, where it stands, and what it says.

export type FigureKind = "number" | "date" | "name" | "id";

/** How a number was qualified in words: "about 1,200", "over 40", "under 5%". */
export type Hedge = "about" | "over" | "under";

/** What a number measures, as far as the text says: a percentage, percentage points, a multiple, money. */
export type NumberUnit = "%" | "pp" | "x" | "currency";

export interface Figure {
  kind: FigureKind;
  /** As written in the text. */
  text: string;
  start: number;
  end: number;
  /** number: the value at its scale (12% is 12, ¥1.2M is 1,200,000). */
  value?: number;
  /** number: the scale written after it ("$12.4m": 1,000,000), when it has one: a step may show the value at that scale (12.4). */
  scale?: number;
  /** number: one unit of the last digit written, at the value's scale (1.2M: 100,000). */
  precision?: number;
  unit?: NumberUnit;
  currency?: string;
  hedge?: Hedge;
  /** number: written in parentheses as accounting writes a negative ("(1,200.00)"); an aside reads the same ("7 (¥2,916.44)"), so either sign may be meant. */
  parenthesised?: boolean;
  /** number: one bound of a range ("12–15%", "between 1,200 and 1,300"), and the range's bounds. */
  range?: [number, number];
  /** number: a plain integer from 1900 to 2100 with nothing around it may be a year. */
  year?: boolean;
  /** date: every reading of it as yyyy-mm-dd, yyyy-mm, --mm-dd (no year) or yyyy. */
  dates?: string[];
  /** name, id: the text to look for in the evidence. */
  name?: string;
}
