import { readFileSync, writeFileSync } from "node:fs";
import { canonicalJson } from "../core/canonical-json.js";
import { isRecord } from "../core/is-record.js";
import type { Tool } from "../core/tools/define-tool.js";

/**
 * Tool calls and what they gave, by tool and arguments: recorded once, replayed after, so
 * strategies and models are compared on identical tool results without touching real systems.
 * A call made more than once keeps each answer, replayed in turn (the last one again after).
 */
export interface ToolCassette {
  kind: "planloop/tool-cassette";
  version: 1;
  calls: Record<string, Array<{ output: unknown } | { error: string }>>;
}

export function emptyCassette(): ToolCassette {
  return { kind: "planloop/tool-cassette", version: 1, calls: {} };
}

/** A call's place in a cassette: the tool's name and its arguments as canonical JSON. */
export function cassetteKey(tool: string, args: unknown): string {
  return `${tool} ${canonicalJson(args)}`;
}

type Execute = NonNullable<Tool["execute"]>;

/** The tools, each tool's execute wrapped by `wrap` (a tool without one is left as it is). */
function wrapped(tools: readonly Tool[], wrap: (tool: Tool, execute: Execute) => Execute): Tool[] {
  return tools.map((tool) => (tool.execute === undefined ? tool : { ...tool, execute: wrap(tool, tool.execute) }));
}

/** The tools, each call kept in `cassette` as it ends (its output, or its error's message). */
export function recordingTools(tools: readonly Tool[], cassette: ToolCassette): Tool[] {
  return wrapped(tools, (tool, execute) => async (args, context) => {
    const kept = (cassette.calls[cassetteKey(tool.name, args)] ??= []);
    try {
      const output: unknown = await execute(args, context);
      kept.push({ output });
      return output;
    } catch (error) {
      kept.push({ error: error instanceof Error ? error.message : String(error) });
      throw error;
    }
  });
}

/**
 * The tools answered from `cassette`: no tool runs. A call it does not hold fails naming the
 * call (`miss: "error"`, the default), or runs for real (`miss: "run"`).
 */
export function replayingTools(tools: readonly Tool[], cassette: ToolCassette, options: { miss?: "error" | "run" } = {}): Tool[] {
  const turns = new Map<string, number>();
  return wrapped(tools, (tool, execute) => async (args, context) => {
    const key = cassetteKey(tool.name, args);
    const kept = Object.hasOwn(cassette.calls, key) ? cassette.calls[key]! : [];
    if (kept.length === 0) {
      if (options.miss === "run") return execute(args, context);
      throw Object.assign(new Error(`the cassette holds no call ${key} (record it, or replay with --replay-miss run)`), {
        retryable: false,
      });
    }
    const turn = turns.get(key) ?? 0;
    turns.set(key, turn + 1);
    const answer = kept[Math.min(turn, kept.length - 1)]!;
    if ("error" in answer) throw Object.assign(new Error(answer.error), { retryable: false });
    return answer.output;
  });
}

export function readCassette(path: string): ToolCassette {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new Error(`cannot read the cassette ${path}: ${(error as Error).message}`);
  }
  if (!isRecord(parsed) || parsed.kind !== "planloop/tool-cassette" || !isRecord(parsed.calls))
    throw new Error(`${path} is not a planloop tool cassette (record one with --record)`);
  return parsed as unknown as ToolCassette;
}

export function writeCassette(path: string, cassette: ToolCassette): void {
  writeFileSync(path, `${JSON.stringify(cassette, null, 1)}\n`);
}
