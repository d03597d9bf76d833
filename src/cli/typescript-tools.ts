import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { CliError } from "./cli-error.js";

const typeScriptFile = /\.(?:ts|mts|cts)$/;
let registered = false;

/**
 * Makes a TypeScript tools module importable. Node 22.18 and later strip the types themselves;
 * on older Node, the `tsx` loader of the user's project is registered when it has one.
 * Otherwise a `CliError` says what to install.
 */
export async function prepareTypeScript(modulePath: string): Promise<void> {
  if (!typeScriptFile.test(modulePath) || registered || nodeStripsTypes()) return;
  const api = tsxApi();
  if (api === undefined) {
    throw new CliError(
      `cannot load tools from ${modulePath}: Node ${process.versions.node} cannot load TypeScript by itself; ` +
        "run with Node 22.18 or later, install tsx in this project (npm i -D tsx), or write the tools module as .mjs",
    );
  }
  const { register } = (await import(api)) as { register: () => unknown };
  register();
  registered = true;
}

function nodeStripsTypes(): boolean {
  const features = process.features as { typescript?: string | false };
  return typeof features.typescript === "string";
}

/** The URL of tsx's ESM API, from the working folder's project or from where planloop is installed. */
function tsxApi(): string | undefined {
  const manifestPath = tsxManifest();
  if (manifestPath === undefined) return undefined;
  try {
    const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as { exports?: Record<string, unknown> };
    // The ESM entry its exports name: require.resolve would give the CommonJS one.
    const entry = manifest.exports?.["./esm/api"] as { import?: { default?: string } } | undefined;
    return typeof entry?.import?.default === "string" ? pathToFileURL(join(dirname(manifestPath), entry.import.default)).href : undefined;
  } catch {
    return undefined;
  }
}

/** tsx's package.json, from the working folder's project or from where planloop is installed. */
function tsxManifest(): string | undefined {
  for (const from of [join(process.cwd(), "package.json"), import.meta.url]) {
    try {
      return createRequire(from).resolve("tsx/package.json");
    } catch {
      // not installed there
    }
  }
  return undefined;
}

/** A syntax error in a TypeScript module: esbuild's words and where (line from 1, column from 1). */
export interface TypeScriptSyntaxError {
  message: string;
  file: string;
  line: number;
  column: number;
}

/**
 * The first syntax error in a TypeScript module, as esbuild (the compiler under tsx) reports it.
 * tsx's loader loses it: a module it cannot transform is handed to Node as CommonJS, and the
 * error that comes back is about `require()` of an ES module, not the module's text. Undefined
 * when the module parses, or when no esbuild is at hand (Node stripping the types itself).
 */
export function typeScriptSyntaxError(modulePath: string): TypeScriptSyntaxError | undefined {
  if (!typeScriptFile.test(modulePath)) return undefined;
  const esbuild = esbuildNextToTsx();
  if (esbuild === undefined) return undefined;
  const file = resolve(modulePath);
  try {
    esbuild.transformSync(readFileSync(file, "utf8"), { loader: "ts", format: "esm", sourcefile: file });
    return undefined;
  } catch (error) {
    const first = (error as { errors?: EsbuildMessage[] }).errors?.[0];
    if (first?.location == null) return undefined;
    return { message: first.text, file, line: first.location.line, column: first.location.column + 1 };
  }
}

interface EsbuildMessage {
  text: string;
  location: { line: number; column: number } | null;
}
interface Esbuild {
  transformSync(source: string, options: { loader: "ts"; format: "esm"; sourcefile: string }): unknown;
}

/** esbuild, as tsx depends on it: resolved from tsx's own folder. */
function esbuildNextToTsx(): Esbuild | undefined {
  const manifestPath = tsxManifest();
  try {
    return manifestPath === undefined ? undefined : (createRequire(manifestPath)("esbuild") as Esbuild);
  } catch {
    return undefined;
  }
}
