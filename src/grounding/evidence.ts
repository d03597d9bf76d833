import { isRecord } from "../core/is-record.js";
import { dayOf, periodOf, stemOf, wordsOf, type Period } from "./periods.js";
import { nameOf, otherNames, periodLabel, rowLabels, rowPeriod } from "./row-labels.js";
import { readFigures } from "./read-figures.js";
import { conversionsOf, inMinorUnits, minorUnitsOf, scaledKey, scaleOf } from "./field-units.js";
import { rowsOfColumnar, rowsOfDelimited } from "./tabular-output.js";

/** One number a step's output shows: a value, or an aggregate of a table's column. */
export interface EvidenceNumber {
  source: string;
  /** Where in the output: `rows[3].total_cny`, `rows[*].total_cny (sum)`. */
  path: string;
  /** The field's name ("total_cny"): values of one field are compared with each other. */
  key: string;
  value: number;
  /** A value of one row of a table (an array of objects), or an aggregate over some of its rows. */
  table?: number;
  row?: number;
  /** The field names an identifier ("id", "order_id"): a quantity only when the sentence says so. */
  identifier?: boolean;
  /** An aggregate over the rows that hold this label. */
  group?: string;
  /** An aggregate of a table's column (with `table`, without `row`). */
  aggregate?: "sum" | "mean" | "min" | "max" | "count";
  /** What the field measures, its name without periods (`revenue` of `revenue_this_week`): measures pair with themselves. */
  stem?: string;
  /** The period its name, its path or its row's date speaks of: a change runs from the earlier to the later. */
  period?: Period;
  /** A row of a table the sentence names no row of: it pairs only with a figure of the sentence ("fell by $2,808 million to $96,995 million"). */
  unnamedRow?: boolean;
  /** A sum or mean of fields of several steps: each of them (`source` is the first). */
  sources?: string[];
  /** For a figure of the sentence (source "sentence"): the step's value it shows, if any. */
  shows?: EvidenceNumber;
}

/** An object of the output whose siblings are objects too, by name (`{ north: {...}, south: {...} }`): an entity a sentence may name. */
export interface EntityObject {
  /** Where its siblings sit (`regions`, or "" at the top). */
  parent: string;
  /** Its path (`regions.north`). */
  path: string;
  /** Its name as words ("north", "new york"). */
  name: string;
  /** The name it gives itself in a field (`name`, `title`, `label`), lower case: `{ acc_1: { name: "Northwind" } }`. */
  alias?: string;
}

/** What one step (or the task) showed, ready for the checker. */
export interface SourceFacts {
  id: string;
  numbers: EvidenceNumber[];
  dates: Set<string>;
  /** Every string and key, lower case, whitespace folded: for names. */
  text: string;
  /** Every string, key and number as written: for identifiers. */
  raw: string;
  /** Per table: each row's labels (its strings, lower case). */
  tables: Array<{ path: string; labels: string[][] }>;
  entities: EntityObject[];
}

const identifierKey = /^(?:ids?|.*[_-]ids?|.*Ids?|.*IDs?|uuid|zip|zip_?code|postcode|phone)$/;
const fold = (text: string) => text.toLowerCase().replace(/\s+/g, " ").trim();

class FactsBuilder {
  readonly facts: SourceFacts;
  private readonly texts: string[] = [];
  private readonly raws: string[] = [];
  /** Values of an object that names its period in a field (`{ week: "2026-W47", tickets: 455 }`), given it once fields have theirs. */
  private readonly ofObjectPeriod: Array<[EvidenceNumber, Period]> = [];

  constructor(id: string) {
    this.facts = { id, numbers: [], dates: new Set(), text: "", raw: "", tables: [], entities: [] };
  }

  add(value: unknown, at: Place): void {
    if (typeof value === "number" && Number.isFinite(value)) this.number(value, at);
    else if (typeof value === "string") this.string(value, at);
    else if (Array.isArray(value)) this.array(value, at.path);
    else if (isRecord(value) && rowsOfColumnar(value) !== undefined) this.columnar(value, at);
    else if (isRecord(value)) {
      // `{ amount: 12900, currency: "usd" }`: Stripe's cents, shown in dollars too.
      const minor = minorUnitsOf(value);
      if (minor !== undefined || at.minor !== undefined) at = { ...at, minor };
      // `{ week: "2026-W47", tickets: 455 }` in one step and week 46's in another: a change between them runs from 46 to 47.
      if (at.row === undefined && at.period === undefined && at.objectPeriod === undefined) {
        const period = rowPeriod(value);
        if (period !== undefined) at = { ...at, objectPeriod: period };
      }
      const objects = Object.entries(value).filter(([key, inner]) => isRecord(inner) && periodOf(wordsOf(key)) === undefined);
      if (objects.length > 1) {
        for (const [key, inner] of objects) {
          const entity: EntityObject = { parent: at.path, path: at.path === "" ? key : `${at.path}.${key}`, name: wordsOf(key).join(" ") };
          // `{ acc_1: { name: "Northwind", … } }`: the object is named by its name too.
          const own = nameOf(inner as Record<string, unknown>);
          // `{ de: {…} }` is Germany's; `{ name: "Acme Corp" }` is Acme's.
          const alias = /^[a-z]{2}$/i.test(key)
            ? otherNames(key.toUpperCase())[0]
            : own === undefined
              ? undefined
              : (otherNames(own)[0] ?? own);
          if (alias !== undefined && alias !== entity.name) entity.alias = alias;
          this.facts.entities.push(entity);
        }
        this.siblings(
          objects.map(([, inner]) => inner as Record<string, unknown>),
          at.path,
        );
      }
      for (const [key, inner] of Object.entries(value)) {
        this.texts.push(fold(key.replace(/_/g, " ")));
        // `revenue_2023_eur_m`: the output speaks of 2023.
        const words = wordsOf(key);
        words.forEach((word, at) => {
          const year = /^(?:fy|cy)?((?:19|20)\d\d)$/.exec(word)?.[1];
          if (year !== undefined) this.addDate(year);
          // `week_ending_2026_11_22`: the output speaks of 2026-11-22.
          const day = dayOf(words, at);
          if (day !== undefined) this.addDate(day);
        });
        this.add(inner, { ...at, path: at.path === "" ? key : `${at.path}.${key}`, key });
      }
    } else if (typeof value === "boolean") this.raws.push(String(value));
  }

  /** A result of `columns` and `rows` (`rowsOfColumnar`) is a table of row objects, beside its other fields. */
  private columnar(value: Record<string, unknown>, at: Place): void {
    const { rows, under, header } = rowsOfColumnar(value)!;
    const inside = (key: string) => (at.path === "" ? key : `${at.path}.${key}`);
    this.array(rows, inside(under));
    for (const [key, inner] of Object.entries(value)) {
      this.texts.push(fold(key.replace(/_/g, " ")));
      if (key !== under && key !== header) this.add(inner, { ...at, path: inside(key), key });
    }
  }

  /**
   * Sibling objects of entities (`regions: { emea: {…}, apac: {…} }`) are rows by another
   * name: how many there are ("the three regions"), and each shared field's total and mean.
   */
  private siblings(objects: Array<Record<string, unknown>>, parent: string): void {
    const path = parent === "" ? "*" : `${parent}.*`;
    this.facts.numbers.push({ source: this.facts.id, path: `${path} (count)`, key: "count", value: objects.length, aggregate: "count" });
    const keys = new Set(objects.flatMap((object) => Object.keys(object)));
    for (const key of keys) {
      const numbers = objects.map((object) => object[key]).flatMap(numeric);
      if (numbers.length < 2 || (identifierKey.test(key) && !numbers.every((value) => /^phone$/i.test(key) && Math.abs(value) < 1e6)))
        continue;
      const sum = numbers.reduce((total, value) => total + value, 0);
      const scale = scaleOf(wordsOf(key));
      for (const [what, value] of [
        ["sum", sum],
        ["mean", sum / numbers.length],
      ] as const) {
        this.facts.numbers.push({ source: this.facts.id, path: `${path}.${key} (${what})`, key, value, aggregate: what });
        if (scale !== undefined)
          this.facts.numbers.push({
            source: this.facts.id,
            path: `${path}.${key} (${what}, ×${scale.toExponential()})`,
            key: scaledKey(key, scale),
            value: value * scale,
            aggregate: what,
          });
      }
    }
  }

  private number(value: number, at: Place): void {
    this.one(value, at);
    // A field in millions (`revenue_usd_m`, `sales_chf_mn`, `revenue_inr_cr`) shows its value at that scale too: "$383,285 million".
    const scale = scaleOf(wordsOf(at.key));
    if (scale !== undefined)
      this.one(value * scale, { ...at, path: `${at.path} (×${scale.toExponential()})`, key: scaledKey(at.key, scale) });
    // A field whose name states a unit (`weight_kg`, `duration_min`) shows its value in the unit next to it: "3.4 tonnes".
    for (const [unit, factor] of conversionsOf(wordsOf(at.key)))
      this.one(value * factor, { ...at, path: `${at.path} (in ${unit})`, key: `${at.key} in ${unit}` });
    if (at.minor !== undefined && Number.isInteger(value) && inMinorUnits(at.key))
      this.one(value / at.minor.per, { ...at, path: `${at.path} (in ${at.minor.currency})`, key: `${at.key} in ${at.minor.currency}` });
  }

  private one(value: number, at: Place): void {
    const number: EvidenceNumber = { source: this.facts.id, path: at.path, key: at.key, value };
    const period = periodOf(wordsOf(at.key)) ?? periodOf(wordsOf(at.path.replace(/ ".*"$/, ""))) ?? at.period;
    if (period) number.period = period;
    else if (at.objectPeriod !== undefined) this.ofObjectPeriod.push([number, at.objectPeriod]);
    if (at.table !== undefined) Object.assign(number, { table: at.table, row: at.row });
    // `phone: 90` counts calls; a phone number has seven digits or more.
    if (identifierKey.test(at.key) && !(/^phone$/i.test(at.key) && Math.abs(value) < 1e6)) number.identifier = true;
    this.facts.numbers.push(number);
    this.raws.push(String(value));
  }

  private string(value: string, at: Place): void {
    this.texts.push(fold(value));
    this.raws.push(value);
    // A CSV export is a table: its rows can be named and its columns summed.
    const rows = value.includes("\n") ? rowsOfDelimited(value) : undefined;
    if (rows !== undefined) return this.array(rows, at.path === "" ? "rows" : at.path);
    // "2026-W47", "2025-Q4", "FY2025": a period's name, whose year is no quantity (it is a date: "in 2026").
    const period = value.length <= 12 ? periodLabel(value.trim()) : undefined;
    if (period !== undefined) {
      const year = /(?:19|20)\d\d/.exec(value)?.[0];
      if (year !== undefined) this.addDate(year);
      return;
    }
    for (const figure of readFigures(value)) {
      if (figure.kind === "date") for (const date of figure.dates!) this.addDate(date);
      if (figure.kind === "number") {
        if (figure.year) this.addDate(String(figure.value));
        this.number(figure.value!, { ...at, path: `${at.path} "${figure.text}"` });
      }
    }
  }

  private addDate(date: string): void {
    this.facts.dates.add(date);
    if (/^\d{4}-\d{2}-\d{2}$/.test(date)) {
      this.facts.dates.add(date.slice(0, 7));
      this.facts.dates.add(`--${date.slice(5)}`);
    }
    this.facts.dates.add(date.slice(0, 4));
  }

  private array(items: unknown[], path: string): void {
    const rows = items.every(isRecord) && items.length > 0;
    if (!rows) {
      items.forEach((item, index) => this.add(item, { path: `${path}[${index}]`, key: path.split(".").at(-1) ?? "" }));
      const numbers = items.filter((item): item is number => typeof item === "number");
      this.aggregates(numbers, { path: `${path}[*]`, key: path.split(".").at(-1) ?? "" }, items.length);
      return;
    }
    const table = this.facts.tables.length;
    const labels: string[][] = [];
    this.facts.tables.push({ path, labels });
    items.forEach((item, row) => {
      labels.push(rowLabels(item as Record<string, unknown>));
      const period = rowPeriod(item as Record<string, unknown>);
      this.add(item, { path: `${path}[${row}]`, key: "", table, row, ...(period ? { period } : {}) });
    });
    this.columns(items as Array<Record<string, unknown>>, { path, table });
  }

  /** A table's columns: the sum, mean, smallest and largest of each numeric one, its row count, and per label. */
  private columns(given: Array<Record<string, unknown>>, at: { path: string; table: number }): void {
    const rows = inMajorUnits(given);
    this.facts.numbers.push({
      source: this.facts.id,
      path: `${at.path}.length`,
      key: "count",
      value: rows.length,
      table: at.table,
      aggregate: "count",
    });
    const keys = new Set(rows.flatMap((row) => Object.keys(row)));
    for (const key of keys) {
      const numbers = rows.map((row) => row[key]).flatMap(numeric);
      if (numbers.length > 1 && !identifierKey.test(key))
        this.aggregates(numbers, { path: `${at.path}[*].${key}`, key, table: at.table }, undefined);
    }
    for (const key of keys) {
      const values = rows.map((row) => row[key]);
      if (!values.every((value) => typeof value === "string" || value === undefined)) continue;
      const distinct = new Set(values.filter((value): value is string => typeof value === "string").map(fold));
      if (distinct.size > 50 || distinct.size === rows.length) continue;
      for (const label of distinct) {
        const members = rows.filter((row) => typeof row[key] === "string" && fold(row[key]) === label);
        const group = { table: at.table, group: label };
        this.facts.numbers.push({
          source: this.facts.id,
          path: `${at.path}[${key}=${label}].length`,
          key: "count",
          value: members.length,
          ...group,
        });
        for (const column of keys) {
          const numbers = members.map((row) => row[column]).flatMap(numeric);
          if (numbers.length === 0 || identifierKey.test(column)) continue;
          const sum = numbers.reduce((total, value) => total + value, 0);
          this.facts.numbers.push({
            source: this.facts.id,
            path: `${at.path}[${key}=${label}].${column} (sum)`,
            key: column,
            value: sum,
            ...group,
          });
        }
      }
    }
  }

  private aggregates(numbers: number[], at: { path: string; key: string; table?: number }, count: number | undefined): void {
    if (count !== undefined)
      this.facts.numbers.push({ source: this.facts.id, path: `${at.path.replace(/\[\*\]$/, "")}.length`, key: "count", value: count });
    if (numbers.length < 2) return;
    const sum = numbers.reduce((total, value) => total + value, 0);
    const scale = scaleOf(wordsOf(at.key));
    const found = (value: number, what: "sum" | "mean" | "min" | "max") => {
      const table = at.table === undefined ? {} : { table: at.table, aggregate: what };
      this.facts.numbers.push({ source: this.facts.id, path: `${at.path} (${what})`, key: at.key, value, ...table });
      if (scale !== undefined)
        this.facts.numbers.push({
          source: this.facts.id,
          path: `${at.path} (${what}, ×${scale.toExponential()})`,
          key: scaledKey(at.key, scale),
          value: value * scale,
          ...table,
        });
    };
    found(sum, "sum");
    found(sum / numbers.length, "mean");
    found(Math.min(...numbers), "min");
    found(Math.max(...numbers), "max");
  }

  done(): SourceFacts {
    // `{ jan: 200, feb: 230 }`: fields named by their period alone measure one thing, whatever it is called.
    for (const number of this.facts.numbers)
      number.stem = stemOf(wordsOf(number.key)) || parentStem(number.path) || (number.period === undefined ? number.key : "(periods)");
    currentPeriods(this.facts.numbers);
    for (const [number, period] of this.ofObjectPeriod) number.period ??= period;
    this.facts.text = this.texts.join("\n");
    this.facts.raw = this.raws.join("\n");
    return this.facts;
  }
}

/** A number, or a price written as a string (`"total_price": "129.90"`, as shop APIs send money): summed with the column. */
function numeric(value: unknown): number[] {
  if (typeof value === "number") return Number.isFinite(value) ? [value] : [];
  return typeof value === "string" && /^-?(?:0|[1-9]\d*)\.\d+$/.test(value) ? [Number(value)] : [];
}

/** Where a value sits in an output, and the period its row is of. */
interface Place {
  path: string;
  key: string;
  table?: number;
  row?: number;
  period?: Period;
  /** The period of the object the value sits in, when a field of that object names one (not a row of a table). */
  objectPeriod?: Period;
  /** The currency the object the value sits in counts its money in, in minor units (`minorUnitsOf`). */
  minor?: { currency: string; per: number } | undefined;
}

/** Rows of money in minor units (Stripe's list of balance transactions), with each money column in major units beside it. */
function inMajorUnits(rows: Array<Record<string, unknown>>): Array<Record<string, unknown>> {
  const minor = minorUnitsOf(rows[0]!);
  if (minor === undefined || !rows.every((row) => row.currency === rows[0]!.currency)) return rows;
  return rows.map((row) => {
    const shown: Record<string, unknown> = { ...row };
    for (const [key, value] of Object.entries(row))
      if (inMinorUnits(key) && typeof value === "number" && Number.isInteger(value))
        shown[`${key} in ${minor.currency}`] = value / minor.per;
    return shown;
  });
}

/** `revenue.q3`: a field named by its period alone measures what its parent object names ("revenue"). */
function parentStem(path: string): string {
  const segments = path.replace(/ \(.*$| ".*"$/, "").split(/\.|\[\d+\]/);
  return stemOf(wordsOf(segments.at(-2) ?? ""));
}

/**
 * `revenue` beside `revenue_prev` (or `prior_revenue`, `revenue_last_week`): the field without
 * a period is the later one, the period its twin is measured against.
 */
function currentPeriods(numbers: EvidenceNumber[]): void {
  const earlier = new Map<string, Period["kind"]>();
  for (const number of numbers)
    if ((number.period?.kind === "relative" || number.period?.kind === "plan") && number.period.rank === 0)
      earlier.set(number.stem!, number.period.kind);
  // `revenue` beside `revenue_target`: the one without a plan's word is what happened.
  for (const number of numbers) {
    const kind = number.period === undefined && number.table === undefined ? earlier.get(number.stem!) : undefined;
    if (kind !== undefined) number.period = { kind, rank: 1 };
  }
}

/** The facts of one step's output (or of the task's text, as source "task"). */
export function sourceFacts(id: string, output: unknown): SourceFacts {
  const builder = new FactsBuilder(id);
  // A step whose id names a period (`this_week`, `last_week`, `2025-Q4`) shows that period's values.
  const period = /\p{L}/u.test(id) ? periodOf(wordsOf(id)) : undefined;
  builder.add(output, { path: "", key: "", ...(period === undefined ? {} : { objectPeriod: period }) });
  return builder.done();
}
