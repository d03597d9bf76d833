// The same plans through LangGraph.js, for `npm run bench:scheduler -- --compare`.
// A dependency is an edge; a step with several dependencies joins them (addEdge([a, b], c)),
// and LangGraph runs ready nodes superstep by superstep.
import type { PlanInput } from "../dist/index.js";
import { loadBenchExtra } from "./bench-extras.js";

interface LangGraphModule {
  Annotation: { Root(fields: object): unknown } & (<T>(spec: { reducer: (a: T, b: T) => T; default: () => T }) => unknown);
  StateGraph: new (state: unknown) => unknown;
  START: string;
  END: string;
}
const { Annotation, END, START, StateGraph } = await loadBenchExtra<LangGraphModule>("@langchain/langgraph");
const State = Annotation.Root({ done: Annotation<number>({ reducer: (count, added) => count + added, default: () => 0 }) });

export async function runWithLangGraph(
  plan: PlanInput,
  work: (step: PlanInput["steps"][number]) => Promise<void> | void,
  concurrency: number,
  checkpointer?: { saver: unknown; threadId: string },
): Promise<number> {
  const graph = new StateGraph(State) as unknown as {
    addNode(name: string, action: () => Promise<{ done: number }>): void;
    addEdge(from: string | string[], to: string): void;
    compile(options?: object): { invoke(input: object, config: object): Promise<{ done: number }> };
  };
  const name = (id: string | number) => `step_${id}`;
  const dependents = new Set<string>();
  for (const step of plan.steps) {
    graph.addNode(name(step.id), async () => {
      await work(step);
      return { done: 1 };
    });
    for (const dependency of step.depends_on ?? []) dependents.add(String(dependency));
  }
  for (const step of plan.steps) {
    const needs = (step.depends_on ?? []).map(name);
    if (needs.length === 0) graph.addEdge(START, name(step.id));
    else graph.addEdge(needs.length === 1 ? needs[0]! : needs, name(step.id));
    if (!dependents.has(String(step.id))) graph.addEdge(name(step.id), END);
  }
  // With a checkpointer, LangGraph writes a checkpoint per superstep and each node's writes.
  const compiled = graph.compile(checkpointer ? { checkpointer: checkpointer.saver } : {});
  const result = await compiled.invoke(
    {},
    {
      recursionLimit: plan.steps.length + 10,
      maxConcurrency: concurrency,
      ...(checkpointer ? { configurable: { thread_id: checkpointer.threadId } } : {}),
    },
  );
  return result.done;
}
