// Full-text search over the local corpus (one MiniSearch index per source) and reading a document.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import MiniSearch from "minisearch";
import { z } from "zod";
import { defineTool, sleep } from "planloop";

export interface CorpusDocument {
  id: string;
  source: string;
  title: string;
  text: string;
}

export const sources = ["papers", "blog", "notes"] as const;

export function loadCorpus(root: string): CorpusDocument[] {
  return sources.flatMap((source) =>
    readdirSync(join(root, source))
      .filter((name) => name.endsWith(".md"))
      .sort()
      .map((name) => {
        const text = readFileSync(join(root, source, name), "utf8");
        const title = /^#\s+(.+)$/m.exec(text)?.[1] ?? name;
        return { id: `${source}/${name.replace(/\.md$/, "")}`, source, title, text: text.replace(/^#.*\n+/, "").trim() };
      }),
  );
}

/** `latencyMs` stands for the round trip to each remote source (default 30 ms). */
export function researchTools(corpus: readonly CorpusDocument[], options: { latencyMs?: number } = {}) {
  const latency = options.latencyMs ?? 30;
  const indexes = new Map(
    sources.map((source) => {
      const index = new MiniSearch<CorpusDocument>({
        fields: ["title", "text"],
        storeFields: ["title", "text"],
        searchOptions: { boost: { title: 2 }, fuzzy: 0.2, prefix: true },
      });
      index.addAll(corpus.filter((document) => document.source === source));
      return [source, index] as const;
    }),
  );
  const search = defineTool({
    name: "search",
    description: `Full-text search in one source of the research corpus (${sources.join(", ")}); returns the best hits with a snippet`,
    input: z.object({ source: z.enum(sources), query: z.string().min(1), limit: z.number().int().positive().max(10).optional() }),
    estimateMs: 30,
    execute: async ({ source, query, limit }, { signal }) => {
      await sleep(latency, { signal });
      const hits = indexes
        .get(source)!
        .search(query)
        .slice(0, limit ?? 3);
      return {
        source,
        query,
        hits: hits.map((hit) => ({
          id: String(hit.id),
          title: String(hit.title),
          score: Math.round(hit.score * 100) / 100,
          snippet: String(hit.text).slice(0, 160),
        })),
      };
    },
  });
  const read = defineTool({
    name: "read",
    description: "Read a document of the research corpus by id (e.g. papers/react)",
    input: z.object({ id: z.string() }),
    execute: ({ id }) => {
      const document = corpus.find((candidate) => candidate.id === id);
      if (!document) throw Object.assign(new Error(`no document ${id}; ids look like papers/react`), { retryable: false });
      return { id: document.id, title: document.title, text: document.text };
    },
  });
  return [search, read];
}
