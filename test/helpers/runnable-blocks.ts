// The code blocks of the README and docs/ marked runnable: a fence whose info string is the
// language and then `runnable` (```ts runnable). GitHub highlights by the first word and
// shows nothing of the rest, so the mark costs the reader nothing.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";

export interface RunnableBlock {
  /** Where it is, for the report: `docs/executor.md:130` (the line of the opening fence). */
  place: string;
  language: "ts" | "js";
  code: string;
}

/** The Markdown files a newcomer reads: README.md and docs/*.md. */
export function documentationFiles(root: string): string[] {
  const docs = readdirSync(join(root, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => join("docs", name));
  return ["README.md", ...docs.sort()];
}

export function runnableBlocks(root: string): RunnableBlock[] {
  return documentationFiles(root).flatMap((file) => {
    const text = readFileSync(join(root, file), "utf8");
    return [...text.matchAll(/^```(ts|js) runnable\n([\s\S]*?)^```$/gm)].map((match) => ({
      place: `${file}:${text.slice(0, match.index).split("\n").length}`,
      language: match[1] as "ts" | "js",
      code: match[2]!,
    }));
  });
}
