import { isRecord } from "../core/is-record.js";

/** A table's rows as objects, read from the shapes tools return them in besides an array of objects. */
export type Rows = Array<Record<string, unknown>>;

const headerKeys = ["columns", "fields", "headers", "header"] as const;
const rowKeys = ["rows", "data", "values"] as const;

/**
 * `{ columns: ["region", "revenue"], rows: [["North", 48200], …] }`, as SQL tools and sheets
 * return results (also `fields`/`headers` and `data`/`values`, a column as `{ name }`): the
 * rows as objects, so a sentence can name a row and a column can be summed. Undefined for
 * any other object. The key the rows were under is returned too, for their paths.
 */
export function rowsOfColumnar(value: Record<string, unknown>): { rows: Rows; under: string; header: string } | undefined {
  const header = headerKeys.find((key) => Array.isArray(value[key]));
  const under = rowKeys.find((key) => Array.isArray(value[key]));
  if (header === undefined || under === undefined) return undefined;
  const names = (value[header] as unknown[]).map((column) =>
    typeof column === "string" ? column : isRecord(column) && typeof column.name === "string" ? column.name : undefined,
  );
  const rows = value[under] as unknown[];
  if (names.length === 0 || names.some((name) => name === undefined) || rows.length === 0) return undefined;
  if (!rows.every((row) => Array.isArray(row) && row.length === names.length)) return undefined;
  return {
    rows: rows.map((row) => Object.fromEntries(names.map((name, index) => [name!, (row as unknown[])[index]]))),
    under,
    header,
  };
}

const plainNumber = /^-?\d+(?:\.\d+)?$/;

/**
 * A CSV or TSV export as text ("week,tickets\n2026-W46,412\n…"): its rows as objects, numbers
 * read as numbers, when the first line is a header of names and every other line has as many
 * cells. Undefined for any other text (a sentence with commas has no such header).
 */
export function rowsOfDelimited(text: string): Rows | undefined {
  const lines = text.trim().split(/\r?\n/);
  if (lines.length < 2) return undefined;
  const delimiter = lines[0]!.includes("\t") ? "\t" : ",";
  const names = lines[0]!.split(delimiter).map((name) => name.trim());
  if (names.length < 2 || !names.every((name) => /^[\p{L}_][\p{L}\p{N}_ .()%-]*$/u.test(name))) return undefined;
  const cells = lines.slice(1).map((line) => line.split(delimiter).map((cell) => cell.trim()));
  if (!cells.every((row) => row.length === names.length)) return undefined;
  // A header's names end in no full stop, and some cell below them is a number.
  if (names.some((name) => name.endsWith(".")) || !cells.some((row) => row.some((cell) => plainNumber.test(cell)))) return undefined;
  return cells.map((row) =>
    Object.fromEntries(names.map((name, index) => [name, plainNumber.test(row[index]!) ? Number(row[index]) : row[index]])),
  );
}
