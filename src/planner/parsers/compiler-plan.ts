import type { Tool } from "../../core/tools/define-tool.js";
import { findPlaceholders } from "../../plan/placeholders.js";
import type { PlanStep } from "../../plan/plan-schema.js";
import type { PlanTextResult } from "./json-plan.js";
import { argumentNames } from "./tool-arguments.js";
import { readPythonLiteral } from "./python-literal.js";

const taskLine = /^\s*(\d+)\s*\.\s*([A-Za-z0-9_-]+)\s*\((.*)\)\s*(?:<END_OF_PLAN>)?\s*$/;

export type CompilerLine = { kind: "task"; step: PlanStep } | { kind: "join" } | { kind: "thought" } | { kind: "error"; error: string };

/**
 * Reads an LLMCompiler plan line by line: `1. search("Paris")`, `2. compare($1, "x")`,
 * `3. join()`. `Thought:` lines describe the next task. A task depends on the tasks its
 * arguments reference (`$1`, `${1}`). Positional arguments fill the tool's parameters in
 * schema order; `name=value` names one.
 */
export class CompilerPlanReader {
  private buffer = "";
  private thought = "";
  /** Ids of the tasks read so far: a task may refer only to those. */
  private readonly written = new Set<string>();

  constructor(private readonly tools: readonly Tool[] = []) {}

  /** Feeds streamed text; returns the lines completed by it. */
  push(text: string): CompilerLine[] {
    this.buffer += text;
    // Split only when a line ended: a long line streamed in small pieces is not split again
    // with every piece (that would be quadratic in its length).
    if (!text.includes("\n")) return [];
    const lines = this.buffer.split("\n");
    this.buffer = lines.pop()!;
    const read: CompilerLine[] = [];
    for (const line of lines) {
      if (line.length === 0) continue;
      const found = this.readLine(line);
      if (found.kind !== "thought") read.push(found);
    }
    return read;
  }

  /** The last line, when the text did not end with a newline. */
  end(): CompilerLine[] {
    const rest = this.buffer;
    this.buffer = "";
    return rest.trim() === "" ? [] : [this.readLine(rest)].filter((line) => line.kind !== "thought");
  }

  private readLine(line: string): CompilerLine {
    const trimmed = line.trim();
    if (trimmed === "") return { kind: "thought" };
    if (/^thought\s*:/i.test(trimmed)) {
      this.thought = trimmed.replace(/^thought\s*:\s*/i, "");
      return { kind: "thought" };
    }
    const match = taskLine.exec(line) ?? looseTaskLine(line);
    if (match === undefined) return { kind: "thought" };
    if ("error" in match) return { kind: "error", error: match.error };
    const [, id, name, argumentText] = match;
    if (name!.toLowerCase() === "join") return { kind: "join" };
    const tool = this.tools.find((candidate) => candidate.name === name);
    const parsed = parseArguments(argumentText!, argumentNames(tool).names);
    if (!parsed.ok) return { kind: "error", error: `task ${id}: ${parsed.error}` };
    // Tasks refer only to tasks written before them: "$100" in "under $100" is a price, not task 100.
    const depends = [
      ...new Set(findPlaceholders(parsed.args, { isStep: (key) => this.written.has(key) }).map((reference) => Number(reference.step))),
    ];
    this.written.add(String(Number(id)));
    const task = this.thought || `${name}(${argumentText})`;
    this.thought = "";
    return { kind: "task", step: { id: Number(id), task, tool: name!, args: parsed.args, depends_on: depends } };
  }
}

/**
 * A task line that is not quite one: text after its last `)` is left aside (as LangGraph's
 * parser does, whose format example ends a line with `)'`); a line that never closes its
 * parenthesis is an error the planner is asked to repair. Never a task dropped in silence:
 * its `$n` would reach a later tool as text.
 */
function looseTaskLine(line: string): RegExpExecArray | string[] | { error: string } | undefined {
  const start = /^\s*(\d+)\s*\.\s*([A-Za-z0-9_-]+)\s*\(/.exec(line);
  if (!start) return undefined;
  const close = line.lastIndexOf(")");
  if (close < start[0].length - 1) {
    return {
      error: `task ${start[1]}: the line does not close its parenthesis (${line.trim()}); write it as ${start[1]}. ${start[2]}(arguments)`,
    };
  }
  return [line, start[1]!, start[2]!, line.slice(start[0].length, close)];
}

/** Reads a whole LLMCompiler plan at once. */
export function parseCompilerPlan(text: string, tools: readonly Tool[] = []): PlanTextResult {
  const reader = new CompilerPlanReader(tools);
  const lines = [...reader.push(text), ...reader.end()];
  const error = lines.find((line) => line.kind === "error");
  if (error?.kind === "error") return { ok: false, error: error.error };
  const steps = lines.flatMap((line) => (line.kind === "task" ? [line.step] : []));
  if (steps.length === 0) return { ok: false, error: 'no task lines were found; write tasks as 1. tool(arguments) and end with "join()"' };
  return { ok: true, plan: { steps } };
}

type Parsed = { ok: true; args: Record<string, unknown> } | { ok: false; error: string };

function parseArguments(text: string, names: readonly string[]): Parsed {
  const args: Record<string, unknown> = {};
  const items = splitTopLevel(text);
  const whole = items.length === 1 ? argumentsObject(items[0]!, names) : undefined;
  if (whole) return { ok: true, args: whole };
  for (const [position, item] of items.entries()) {
    const named = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=(?!=)\s*([\s\S]*)$/.exec(item);
    const key = named ? named[1]! : names[position];
    if (key === undefined)
      return { ok: false, error: `argument ${position + 1} (${item.trim()}) has no parameter to fill; name it as key=value` };
    args[key] = readValue(named ? named[2]! : item);
  }
  return { ok: true, args };
}

/**
 * `search({"query": "a"})`: one JSON object whose keys are all the tool's own parameters is
 * the arguments themselves, not the value of the first parameter.
 */
function argumentsObject(item: string, names: readonly string[]): Record<string, unknown> | undefined {
  if (!item.trim().startsWith("{")) return undefined;
  const value = readValue(item);
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((key) => names.includes(key)) ? (value as Record<string, unknown>) : undefined;
}

/** Splits on commas outside quotes and brackets. */
function splitTopLevel(text: string): string[] {
  const items: string[] = [];
  let depth = 0;
  let quote: string | undefined;
  let current = "";
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index]!;
    if (quote) {
      current += char;
      if (char === "\\") current += text[++index] ?? "";
      else if (char === quote) quote = undefined;
    } else if (char === '"' || char === "'") {
      quote = char;
      current += char;
    } else if ("[{(".includes(char)) {
      depth += 1;
      current += char;
    } else if ("]})".includes(char)) {
      depth -= 1;
      current += char;
    } else if (char === "," && depth === 0) {
      items.push(current);
      current = "";
    } else current += char;
  }
  if (current.trim() !== "") items.push(current);
  return items;
}

/**
 * JSON when it parses; else a Python literal as the papers write them (`['$1', '$2']`, `True`,
 * `{'k': 1}`); otherwise the text itself (`$1` stays a placeholder).
 */
function readValue(raw: string): unknown {
  const text = raw.trim();
  try {
    return JSON.parse(text);
  } catch {
    const literal = readPythonLiteral(text);
    return literal ? literal.value : text;
  }
}
