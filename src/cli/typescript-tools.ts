import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
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
  for (const from of [join(process.cwd(), "package.json"), import.meta.url]) {
    try {
      // The ESM entry its exports name: require.resolve would give the CommonJS one.
      const manifestPath = createRequire(from).resolve("tsx/package.json");
      const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as { exports?: Record<string, unknown> };
      const entry = manifest.exports?.["./esm/api"] as { import?: { default?: string } } | undefined;
      if (typeof entry?.import?.default === "string") return pathToFileURL(join(dirname(manifestPath), entry.import.default)).href;
    } catch {
      // not installed there
    }
  }
  return undefined;
}
