import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { Tool } from "../core/tools/define-tool.js";
import { CliError } from "./cli-error.js";
import { prepareTypeScript, typeScriptSyntaxError } from "./typescript-tools.js";

/**
 * A module of the user's (tools, a model, scorers), imported: TypeScript where Node or tsx can
 * load it; one that fails to load is a `CliError` saying where (`file:line:column` and the
 * lines around it). `what` names it in the message ("tools", "the model").
 */
export async function importUserModule(modulePath: string, what: string): Promise<Record<string, unknown>> {
  await prepareTypeScript(modulePath);
  try {
    return (await import(pathToFileURL(resolve(modulePath)).href)) as Record<string, unknown>;
  } catch (error) {
    // A TypeScript syntax error is the compiler's to say: the loader's own error names something else.
    const syntax = typeScriptSyntaxError(modulePath);
    if (syntax !== undefined) {
      throw new CliError(`cannot load ${what} from ${modulePath}: ${syntax.message}`, codeFrame(syntax.file, syntax.line, syntax.column));
    }
    const where = error instanceof Error ? whereItFailed(error, modulePath) : undefined;
    throw new CliError(`cannot load ${what} from ${modulePath}: ${firstLines(error)}`, where);
  }
}

/** An error's first line; with the next one when it only announces it ("Transform failed with 1 error:"). */
function firstLines(error: unknown): string {
  const [first = "", ...rest] = (error instanceof Error ? error.message : String(error)).split("\n").filter((line) => line.trim() !== "");
  return first.endsWith(":") && rest.length > 0 ? `${first} ${rest[0]!.trim()}` : first;
}

/** The tools a module (.js, .mjs, or .ts where Node or tsx can load it) exports: an array named `tools` or the default export, or every export made with defineTool. */
export async function loadTools(modulePath: string): Promise<Tool[]> {
  const exports = await importUserModule(modulePath, "tools");
  const isTool = (value: unknown): value is Tool =>
    typeof value === "object" && value !== null && "inputSchema" in value && "name" in value;
  const listed = [exports.tools, exports.default].find(Array.isArray) as unknown[] | undefined;
  const tools = (listed ?? Object.values(exports)).filter(isTool);
  if (tools.length === 0) throw new CliError(`${modulePath} exports no tools: export an array \`tools\` of tools made with defineTool`);
  return tools;
}

/**
 * Where loading a tools module failed: the first place in the module's own files the error
 * points to (`file:line:column`, from a syntax error's location or the stack), with the line
 * before and after it and a caret. Undefined when the error points nowhere in them.
 */
function whereItFailed(error: Error, modulePath: string): string | undefined {
  const stack = error.stack ?? "";
  // Frames name files as file:// URLs or as paths (a loader of another kind); the first outside node_modules wins.
  const frames = [...stack.matchAll(/(?:file:\/\/)?(\/[^\s():]+):(\d+):(\d+)/g)].filter(
    ([, file]) => !file!.includes("/node_modules/") && existsSync(file!),
  );
  const found = frames[0];
  if (found === undefined) return error.name === "SyntaxError" ? syntaxErrorAt(resolve(modulePath)) : undefined;
  return codeFrame(found[1]!, Number(found[2]), Number(found[3]));
}

/** `at file:line:column`, with the line before and after it and a caret under the place; undefined for a file it cannot read. */
function codeFrame(path: string, line: number, column: number): string | undefined {
  let source: string[];
  try {
    source = readFileSync(path, "utf8").split("\n");
  } catch {
    return undefined;
  }
  const frame: string[] = [];
  for (let number = Math.max(1, line - 1); number <= Math.min(source.length, line + 1); number += 1) {
    frame.push(`${number === line ? ">" : " "} ${String(number).padStart(4)} | ${source[number - 1]}`);
    if (number === line) frame.push(`       | ${" ".repeat(Math.max(0, column - 1))}^`);
  }
  return [`  at ${path}:${line}:${column}`, ...frame].join("\n");
}

/**
 * Where a module's syntax error is: Node's loader does not say, `node --check` does (its first
 * lines are `path:line`, the line, and a caret under the place).
 */
function syntaxErrorAt(path: string): string | undefined {
  const checked = spawnSync(process.execPath, ["--check", path], { encoding: "utf8", timeout: 10_000 });
  const [at, code, caret] = (checked.stderr ?? "").split("\n");
  if (at === undefined || !/:\d+$/.test(at) || code === undefined) return undefined;
  const column = caret === undefined ? -1 : caret.indexOf("^");
  return [`  at ${at}${column >= 0 ? `:${column + 1}` : ""}`, `> ${code}`, ...(column >= 0 ? [`  ${caret}`] : [])].join("\n");
}
