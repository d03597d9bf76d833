// A multi-source research job: full-text search over a local corpus in three sources at
// once, reading the best hit of each, and an answer with citations.
// Run: npx tsx examples/research/main.ts
import { fileURLToPath, pathToFileURL } from "node:url";
import { offlineModel, planAndExecute, type Model } from "planloop";
import { researchQuestion, researchTask } from "./research-task.js";
import { loadCorpus, researchTools } from "./research-tools.js";

export async function main(options: { model?: Model; print?: boolean } = {}) {
  const corpus = loadCorpus(fileURLToPath(new URL("./corpus", import.meta.url)));
  // Swap in a real model: openAICompatible({ baseURL, apiKey, model }).
  const model = options.model ?? offlineModel({ tasks: [researchTask], latencyMs: 100, onNotice: () => {} });
  const result = await planAndExecute({ task: researchQuestion, planner: model, tools: researchTools(corpus), concurrency: 3 });
  if (options.print !== false) {
    console.log(
      `${result.status} in ${Math.round(result.durationMs)} ms, ${result.usage.modelCalls} model calls, ${result.usage.toolCalls} tool calls\n`,
    );
    console.log(result.output);
  }
  return { result, corpus };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
