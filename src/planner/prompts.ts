import { cappedList } from "../core/errors.js";
import type { Message } from "../core/messages.js";
import type { ToolSpec } from "../core/model.js";
import { previewOf } from "../core/tools/tool-output.js";
import type { PlanFormat } from "./parsers/parse-plan.js";
import type { Plan, PlanStep } from "../plan/plan-schema.js";

/** A step as the planner, solver, critic and joiner see it after it ran. */
export interface StepView {
  id: string | number;
  task: string;
  tool?: string;
  status: string;
  output?: unknown;
  error?: string;
  /** The plan can do without this step's result (`optional: true`). */
  optional?: boolean;
}

/**
 * Every prompt planloop sends, in one place. Pass `prompts: { plan: ... }` to a strategy to
 * replace any of them; each returns the messages (or the text) for one request.
 */
export interface Prompts {
  /** `models`: the names agent steps may give in `model` (a run's `models`), when it has some. */
  /** `waits`: the planner may write wait and poll steps (a strategy's `waitSteps`). */
  plan(input: { task: string; tools: readonly ToolSpec[]; format: PlanFormat; models?: readonly string[]; waits?: boolean }): Message[];
  repair(input: { errors: readonly string[]; format: PlanFormat }): string;
  replan(input: {
    task: string;
    tools: readonly ToolSpec[];
    format: PlanFormat;
    plan: Plan;
    results: readonly StepView[];
    problem: string;
    models?: readonly string[];
    waits?: boolean;
  }): Message[];
  solve(input: { task: string; results: readonly StepView[] }): Message[];
  critic(input: { task: string; answer: string; results: readonly StepView[] }): Message[];
  join(input: { task: string; results: readonly StepView[] }): Message[];
  /** `problems`: the answer's claims no cited step supports, each with why (see `checkClaims`). */
  ground(input: { task: string; results: readonly StepView[]; answer: string; problems: readonly string[] }): Message[];
  agentStep(input: { step: PlanStep; dependencies: ReadonlyArray<{ step: PlanStep; output: unknown }> }): string;
}

/** Characters of each step output shown in a prompt. */
export const outputChars = 2_000;

const formats: Record<PlanFormat, string> = {
  json: [
    'Answer with one JSON object: {"steps": [{"id": 1, "task": "...", "tool": "tool_name", "args": {...}, "depends_on": []}]}.',
    "- A step with a tool calls it with args that match its JSON Schema.",
    "- A step without a tool is done by a helper agent who can use the tools; describe the work in task.",
    "- depends_on lists the ids of the steps whose results the step needs; steps without dependencies run in parallel.",
    '- In args, "$2" stands for step 2\'s result and "$2.rows[0].total" for a part of it.',
    '- Mark a step "optional": true when the task can be done without its result (a secondary source): if it fails, the steps after it still run, told that it is missing.',
  ].join("\n"),
  rewoo: [
    "For each step write a line `Plan: <what and why>` and then `#E<n> = <tool>[<input>]`.",
    "- The input is plain text, or a JSON object of the tool's arguments.",
    "- Refer to the result of an earlier step as #E<n>.",
  ].join("\n"),
  "llm-compiler": [
    "Write one task per line: `<n>. <tool>(<arguments>)`, numbered from 1, and end with `<n>. join()`.",
    "- Arguments are JSON values in the order of the tool's parameters, or name=value.",
    "- Refer to the result of an earlier task as $<n>. Tasks that do not depend on each other run in parallel.",
  ].join("\n"),
};

function describeTools(tools: readonly ToolSpec[]): string {
  if (tools.length === 0) return "(no tools)";
  return tools.map((tool) => `- ${tool.name}: ${tool.description}\n  arguments: ${JSON.stringify(tool.inputSchema)}`).join("\n");
}

function isMissing(result: StepView): boolean {
  return result.optional === true && result.status === "failed";
}

/** The line that tells a solver which inputs it must do without, if any. */
function missingInputs(results: readonly StepView[]): string {
  const missing = results.filter(isMissing).map((result) => result.id);
  if (missing.length === 0) return "";
  const which = missing.length === 1 ? `step ${missing[0]}` : `steps ${missing.join(", ")}`;
  return `\n\nMissing inputs: ${which} failed and the plan went on without them. Answer from the rest, and say in the answer which inputs were not available.`;
}

/** `cite`: show each step's citation, `[s3]`, for the answers that cite them. */
function describeResults(results: readonly StepView[], options: { cite?: boolean } = {}): string {
  if (results.length === 0) return "(no steps have run)";
  return results
    .map((result) => {
      const citation = options.cite ? ` [${/^\d+$/.test(String(result.id)) ? "s" : "s:"}${result.id}]` : "";
      const label = `Step ${result.id}${citation} (${result.tool ? `${result.tool}: ` : ""}${result.task})`;
      if (isMissing(result)) return `${label} — missing: this optional step failed (${result.error ?? "no reason given"})`;
      const head = `${label} — ${result.status}`;
      if (result.status === "succeeded") return `${head}\n${previewOf(result.output, outputChars)}`;
      return result.error ? `${head}: ${result.error}` : head;
    })
    .join("\n\n");
}

/** What a JSON plan may say to wait on the world, shown when the run allows wait steps. */
const waitLines = [
  '- A step that must wait writes no tool: {"wait": {"forMs": 3600000}} or {"wait": {"until": "2026-12-07T08:00:00+01:00"}} waits for a time; {"waitFor": {"event": "export-ready", "match": {"job": "weekly"}, "timeoutMs": 86400000}} waits for an event, and its result is the event\'s data.',
  '- A tool step with "poll": {"everyMs": 60000, "maxMs": 3600000, "until": {"path": "status", "equals": "done"}} calls its tool again until the result\'s field at path equals (or is "in" a list of, or "exists") the value.',
];

/** What the answering prompts ask of every figure, date and name. */
const citeLine =
  "After every figure, date and name, cite the step it comes from as [s<id>], e.g. [s3], or [s1, s4] for a figure computed from two steps.";

const planner = (tools: readonly ToolSpec[], format: PlanFormat, models: readonly string[] = [], waits = false): Message => ({
  role: "system",
  content: [
    "You are the planner. Split the task into steps that tools (or a helper agent) can carry out.",
    "Make independent steps independent so they run in parallel. Do not carry out the steps yourself.",
    "",
    "Tools:",
    describeTools(tools),
    "",
    formats[format],
    ...(format === "json" && models.length > 0
      ? [
          `- A step without a tool may set "model" to one of: ${models.join(", ")}; give the simple ones the cheaper model and leave it out for the default.`,
        ]
      : []),
    ...(format === "json" && waits ? waitLines : []),
  ].join("\n"),
});

export const defaultPrompts: Prompts = {
  plan: ({ task, tools, format, models, waits }) => [planner(tools, format, models, waits), { role: "user", content: `Task: ${task}` }],

  repair: ({ errors, format }) =>
    [
      "That plan cannot run:",
      ...cappedList(
        errors.map((error) => `- ${error}`),
        (count) => `- and ${count} more problems of these kinds`,
      ),
      "",
      `Write the whole plan again. ${formats[format].split("\n")[0]}`,
    ].join("\n"),

  replan: ({ task, tools, format, plan, results, problem, models, waits }) => [
    planner(tools, format, models, waits),
    {
      role: "user",
      content: [
        `Task: ${task}`,
        "",
        "The current plan:",
        JSON.stringify(plan),
        "",
        "What happened so far:",
        describeResults(results),
        "",
        `What went wrong: ${problem}`,
        "",
        "Write a new plan for the whole task. Keep the id, tool and arguments of every step that succeeded and is still",
        "right, so its result is reused; change or add steps to deal with what went wrong.",
      ].join("\n"),
    },
  ],

  solve: ({ task, results }) => [
    {
      role: "system",
      content: `Answer the task from the results of the steps below. Use only what they show; say what is missing. ${citeLine}`,
    },
    { role: "user", content: `Task: ${task}\n\nResults:\n${describeResults(results, { cite: true })}${missingInputs(results)}` },
  ],

  critic: ({ task, answer, results }) => [
    {
      role: "system",
      content:
        'Review the answer against the task and the results it rests on. Reply with JSON: {"approved": true} or {"approved": false, "feedback": "what must change"}.',
    },
    { role: "user", content: `Task: ${task}\n\nResults:\n${describeResults(results)}\n\nAnswer:\n${answer}` },
  ],

  join: ({ task, results }) => [
    {
      role: "system",
      content:
        "Decide whether the results answer the task. Reply `FINISH: <the answer>` when they do, or `REPLAN: <what is missing or wrong>` when they do not. " +
        `In the answer: ${citeLine}`,
    },
    { role: "user", content: `Task: ${task}\n\nResults:\n${describeResults(results, { cite: true })}` },
  ],

  ground: ({ task, results, answer, problems }) => [
    { role: "system", content: `Answer the task from the results of the steps below. Use only what they show. ${citeLine}` },
    {
      role: "user",
      content: [
        `Task: ${task}`,
        "",
        "Results:",
        describeResults(results, { cite: true }),
        "",
        "Your answer was:",
        answer,
        "",
        "No step it cites shows these claims:",
        ...cappedList(
          problems.map((problem) => `- ${problem}`),
          (count) => `- and ${count} more`,
        ),
        "",
        "Write the whole answer again: correct each of these from the results or leave it out, keep what is supported, and cite every figure.",
      ].join("\n"),
    },
  ],

  agentStep: ({ step, dependencies }) => {
    const lines = [`You are carrying out step ${step.id} of a larger plan.`, `Step ${step.id}: ${step.task}`];
    if (dependencies.length > 0) {
      lines.push("", "Results of the steps it depends on:");
      for (const dependency of dependencies) {
        lines.push(`- Step ${dependency.step.id} (${dependency.step.task}):`, previewOf(dependency.output, outputChars * 2));
      }
    }
    lines.push("", "Do this step only. Use the tools if you need them, then answer with the step's result.");
    return lines.join("\n");
  },
};

export function resolvePrompts(overrides: Partial<Prompts> | undefined): Prompts {
  return { ...defaultPrompts, ...overrides };
}
