import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { isRecord } from "../core/is-record.js";

/**
 * What a task's answer must be: a value compared exactly (after trimming), or a scorer:
 * `{ contains }` (a text, or a list the answer must all contain), `{ number, tolerance? }` (a number in the answer within `tolerance` of it,
 * default 0), `{ oneOf }`, `{ regex }`, or `{ scorer }`, the name of a function exported by
 * the `--scorers` module.
 */
export type Expected =
  | string
  | number
  | boolean
  | { contains: string | string[] }
  | { number: number; tolerance?: number }
  | { oneOf: unknown[] }
  | { regex: string }
  | { scorer: string; reference?: unknown };

/** One task of a suite of the user's own. */
export interface SuiteTask {
  id: string;
  task: string;
  expected?: Expected;
  /** A gold plan in planloop's JSON plan format. */
  plan?: unknown;
  tags?: string[];
  /** The names of the tools this task's runs get, of the tools module's; default all of them. */
  tools?: string[];
}

export interface TaskSuite {
  name: string;
  tasks: SuiteTask[];
}

/**
 * A suite from a file: JSON (an array of tasks, or `{ "tasks": [...] }`) or JSONL (one task a
 * line). Every task is checked; a bad one is an error naming the file, its line or index, and
 * what is wrong.
 */
export function readTaskSuite(path: string): TaskSuite {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    throw new SuiteError(`cannot read the suite ${path}: no such file (check the path)`);
  }
  const rows = path.endsWith(".jsonl") ? jsonLines(text, path) : jsonDocument(text, path);
  const tasks = rows.map(({ value, where }) => readTask(value, `${path} ${where}`));
  if (tasks.length === 0) throw new SuiteError(`the suite ${path} has no tasks`);
  const seen = new Set<string>();
  for (const task of tasks) {
    if (seen.has(task.id)) throw new SuiteError(`the suite ${path} has two tasks with the id "${task.id}"`);
    seen.add(task.id);
  }
  return { name: basename(path).replace(/\.jsonl?$/, ""), tasks };
}

/** A suite file that cannot be used, said in one line. */
export class SuiteError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SuiteError";
  }
}

function jsonLines(text: string, path: string): Array<{ value: unknown; where: string }> {
  const rows: Array<{ value: unknown; where: string }> = [];
  for (const [index, line] of text.split("\n").entries()) {
    if (line.trim() === "") continue;
    try {
      rows.push({ value: JSON.parse(line), where: `line ${index + 1}` });
    } catch (error) {
      throw new SuiteError(`${path} line ${index + 1} is not JSON: ${(error as Error).message}`);
    }
  }
  return rows;
}

function jsonDocument(text: string, path: string): Array<{ value: unknown; where: string }> {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw new SuiteError(`${path} is not JSON: ${(error as Error).message} (one task a line? name it .jsonl)`);
  }
  const list = Array.isArray(document) ? document : isRecord(document) ? document.tasks : undefined;
  if (!Array.isArray(list)) throw new SuiteError(`${path} must be an array of tasks or { "tasks": [...] }`);
  return list.map((value, index) => ({ value, where: `task ${index + 1}` }));
}

function readTask(value: unknown, where: string): SuiteTask {
  if (!isRecord(value)) throw new SuiteError(`${where}: a task is an object { "id", "task", "expected"?, "plan"?, "tags"? }`);
  const id = typeof value.id === "number" ? String(value.id) : value.id;
  if (typeof id !== "string" || id === "") throw new SuiteError(`${where}: "id" must be a non-empty string`);
  if (typeof value.task !== "string" || value.task.trim() === "")
    throw new SuiteError(`${where} (${id}): "task" must be a non-empty string`);
  for (const list of ["tags", "tools"] as const)
    if (value[list] !== undefined && !(Array.isArray(value[list]) && value[list].every((item) => typeof item === "string")))
      throw new SuiteError(`${where} (${id}): "${list}" must be a list of strings`);
  if (value.expected !== undefined) checkExpected(value.expected, `${where} (${id})`);
  return {
    id,
    task: value.task,
    ...(value.expected === undefined ? {} : { expected: value.expected as Expected }),
    ...(value.plan === undefined ? {} : { plan: value.plan }),
    ...(value.tags === undefined ? {} : { tags: value.tags as string[] }),
    ...(value.tools === undefined ? {} : { tools: value.tools as string[] }),
  };
}

function checkExpected(expected: unknown, where: string): void {
  if (typeof expected === "string" || typeof expected === "number" || typeof expected === "boolean") return;
  const ok =
    isRecord(expected) &&
    ((isText(expected.contains) && Object.keys(expected).length === 1) ||
      (typeof expected.number === "number" && (expected.tolerance === undefined || typeof expected.tolerance === "number")) ||
      Array.isArray(expected.oneOf) ||
      (typeof expected.regex === "string" && isRegex(expected.regex)) ||
      typeof expected.scorer === "string");
  if (!ok)
    throw new SuiteError(
      `${where}: "expected" must be a value, or one of { "contains": text or [texts] }, { "number", "tolerance"? }, { "oneOf": [...] }, { "regex" } (a valid one), { "scorer": "<name>" }`,
    );
}

const isText = (value: unknown) =>
  typeof value === "string" || (Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === "string"));

function isRegex(source: string): boolean {
  try {
    new RegExp(source);
    return true;
  } catch {
    return false;
  }
}
