// The research question as the offline model solves it: search three sources in parallel,
// read the best hit of each, and answer with a cited sentence from every document.
import type { OfflineTask } from "planloop";

export const researchQuestion =
  "Which agent strategy reduces latency when a question needs many independent lookups, and what does it cost? Answer with citations.";

const keywords = /latency|parallel|faster/i;

export const researchTask: OfflineTask = {
  name: "research: latency of agent strategies",
  match: "reduces latency when a question needs many independent lookups",
  plan: [
    { id: 1, task: "search the papers", tool: "search", args: { source: "papers", query: "parallel latency independent calls" } },
    { id: 2, task: "search the engineering blog", tool: "search", args: { source: "blog", query: "parallel lookups latency" } },
    { id: 3, task: "search the notes", tool: "search", args: { source: "notes", query: "independent lookups latency strategy" } },
    { id: 4, task: "read the best paper", tool: "read", args: { id: "$1.hits[0].id" }, depends_on: [1] },
    { id: 5, task: "read the best blog post", tool: "read", args: { id: "$2.hits[0].id" }, depends_on: [2] },
    { id: 6, task: "read the best note", tool: "read", args: { id: "$3.hits[0].id" }, depends_on: [3] },
  ],
  answer: (outputs) => {
    const documents = ["4", "5", "6"].map((id) => outputs[id] as { id: string; title: string; text: string } | undefined);
    if (documents.some((document) => document === undefined)) throw new Error("not every source was read");
    const findings = documents.map((document) => {
      const sentences = document!.text.replace(/\n/g, " ").split(/(?<=\.)\s+/);
      const sentence = sentences.find((candidate) => keywords.test(candidate)) ?? sentences[0]!;
      return `- ${sentence} [${document!.id}]`;
    });
    return [
      "Planning the independent lookups up front and running them in parallel (LLMCompiler, or a planner that executes a dependency graph) cuts latency; the cost is a planning call that a single lookup does not need.",
      "",
      ...findings,
      "",
      `Sources: ${documents.map((document) => `[${document!.id}] ${document!.title}`).join("; ")}`,
    ].join("\n");
  },
};
