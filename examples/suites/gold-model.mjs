// A scripted model for an example suite (planloop bench --model ./gold-model.mjs, with
// PLANLOOP_SUITE naming the suite's tasks.jsonl): planloop's offline model, told each task's
// gold plan, so every strategy runs the gold calls in its own protocol (a JSON plan, ReWOO's
// or LLMCompiler's text, one tool call a turn for ReAct). It measures the plumbing, not a model.
import { readFileSync } from "node:fs";
import { offlineModel } from "planloop";

const made = new Map();

/** The offline model of the suite PLANLOOP_SUITE names, made once per suite. */
function current() {
  const suite = process.env.PLANLOOP_SUITE;
  if (!suite) throw new Error("gold-model.mjs needs PLANLOOP_SUITE=<the suite's tasks.jsonl>");
  if (!made.has(suite)) {
    const tasks = readFileSync(suite, "utf8")
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => JSON.parse(line));
    made.set(
      suite,
      offlineModel({
        tasks: tasks.map((task) => ({
          name: task.id,
          match: task.task,
          plan: task.plan.steps,
          // The answer names what the task's answer must contain, where it says.
          answer: () =>
            Array.isArray(task.expected?.contains) ? task.expected.contains.join(", ") : `done: ${task.plan.steps.length} calls`,
        })),
        onNotice: () => {},
      }),
    );
  }
  return made.get(suite);
}

export const model = {
  modelId: "gold-plans",
  generate: (request) => current().generate(request),
  streamText: (request) => current().streamText(request),
};
