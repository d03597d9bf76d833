// Every TypeScript snippet in the README and docs/ type-checks against planloop's real API.
// Names a snippet leaves to the reader (model, tools, plan, ...) are declared for it; any
// other error (a wrong option, a missing import, a property that does not exist) fails.
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../helpers/paths.js";

const root = repoRoot;
const sources = ["README.md", ...readdirSync(join(root, "docs")).map((name) => join("docs", name))].filter((name) => name.endsWith(".md"));
// Provider packages a snippet imports to show where a model comes from; not installed here.
const providers = 'declare module "@ai-sdk/anthropic" { export const anthropic: (model: string) => any; }\n';
const unknownName = new Set([2304, 2552, 18004]);

function snippets(): Array<{ name: string; code: string }> {
  return sources.flatMap((source) =>
    [...readFileSync(join(root, source), "utf8").matchAll(/```ts(?: runnable)?\n([\s\S]*?)```/g)].map((match, index) => ({
      name: `${source.replace(/[/.]/g, "-")}-${index + 1}`,
      code: match[1]!,
    })),
  );
}

function check(files: string[]): readonly ts.Diagnostic[] {
  const program = ts.createProgram(files, {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    types: ["node"],
    baseUrl: root,
    paths: {
      planloop: ["./src/index.ts"],
      "planloop/testing": ["./src/testing/index.ts"],
      "planloop/demo": ["./src/demo/index.ts"],
      "planloop/sqlite": ["./src/stores/sqlite/index.ts"],
      "planloop/postgres": ["./src/stores/postgres/index.ts"],
      "planloop/mcp": ["./src/mcp/index.ts"],
    },
  });
  return files.flatMap((file) =>
    program.getSemanticDiagnostics(program.getSourceFile(file)).concat(program.getSyntacticDiagnostics(program.getSourceFile(file))),
  );
}

describe("the docs' snippets", () => {
  it("type-check against planloop's API", () => {
    const dir = join(root, "test", ".snippets");
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "providers.d.ts"), providers);
    try {
      const all = snippets();
      expect(all.length).toBeGreaterThanOrEqual(8);
      const write = (declared: Map<string, Set<string>>) =>
        all.map(({ name, code }) => {
          const prelude = [...(declared.get(name) ?? [])].map((free) => `declare const ${free}: any;`).join("\n");
          const file = join(dir, `${name}.ts`);
          writeFileSync(file, `${prelude}\n${code}\nexport {};\n`);
          return file;
        });
      // First pass: the names each snippet leaves to the reader.
      const free = new Map<string, Set<string>>();
      for (const diagnostic of check([join(dir, "providers.d.ts"), ...write(free)])) {
        if (!unknownName.has(diagnostic.code) || !diagnostic.file) continue;
        const name = diagnostic.file.fileName.split("/").at(-1)!.replace(/\.ts$/, "");
        const word = ts.flattenDiagnosticMessageText(diagnostic.messageText, " ").match(/'([^']+)'/)?.[1];
        if (word) free.set(name, new Set([...(free.get(name) ?? []), word]));
      }
      const problems = check([join(dir, "providers.d.ts"), ...write(free)]).map(
        (diagnostic) => `${diagnostic.file?.fileName.split("/").at(-1)}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, " ")}`,
      );
      expect(problems).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
