import { givenDecisions } from "./strategy-durability.js";
import { InvalidOptionsError } from "../core/errors.js";
import type { Message } from "../core/messages.js";
import type { Model } from "../core/model.js";
import { streamText } from "./text-call.js";
import { executePlanStream } from "../executor/execute-plan-stream.js";
import type { PlanRunResult } from "../executor/execution-result.js";
import { CompilerPlanReader } from "../planner/parsers/compiler-plan.js";
import type { PlanStep } from "../plan/plan-schema.js";
import { checkPlan } from "../plan/validate-plan.js";
import { resolvePrompts, type StepView } from "../planner/prompts.js";
import { executionOptions, runExecution } from "./planning-loop.js";
import { readPlanStrategyState, type LlmCompilerState } from "./plan-strategy-state.js";
import type { PlanningOptions } from "./planning.js";
import { runPlanningLoop, type Planned, type PlanningStrategy } from "./planning-loop.js";
import { stepViews } from "./step-views.js";
import type { PlanStrategyResult } from "./strategy-result.js";
import { ask, checkStop, checkStrategyOptions, type StrategyRun } from "./strategy-run.js";
import { runStrategyDurably } from "./durable-strategy.js";

/** `planner` writes the plan as `1. tool(args)` lines, streamed when the adapter can stream text. */
export interface LlmCompilerOptions extends PlanningOptions {
  /** Decides finish or replan from the results (purpose "join"); defaults to the planner. */
  joiner?: Model;
  /** New plans the joiner may ask for; default 2. */
  maxReplans?: number | undefined;
  /** `result.state` of a run that ended `waiting`, to continue it without planning again. */
  resume?: LlmCompilerState | undefined;
}

/**
 * LLMCompiler: the planner writes a graph of tool calls (`$1` refers to task 1's result)
 * and each task is dispatched the moment its line is complete and its dependencies are
 * done, while the planner is still writing (the Task Fetching Unit). A joiner then
 * answers, or asks for a new plan.
 */
export async function llmCompiler(options: LlmCompilerOptions): Promise<PlanStrategyResult<LlmCompilerState>> {
  checkStrategyOptions(options, { planner: true, toolsFor: "llm-compiler" });
  const maxReplans = options.maxReplans ?? 2;
  if (!Number.isInteger(maxReplans) || maxReplans < 0) throw new InvalidOptionsError("maxReplans must be an integer >= 0");
  const saved = options.resume === undefined ? undefined : readPlanStrategyState("llm-compiler", options.resume, options.tools ?? []);
  return runStrategyDurably("llm-compiler", options, saved, (run) => {
    const decisions = givenDecisions(options);
    // A resumed run first finishes the paused plan, which was written in full before it paused.
    return runPlanningLoop(run, compilerSteps(run, { ...options, maxReplans }), {
      resumed: saved ? { saved, decisions } : undefined,
      review: { option: options.reviewPlan, tools: options.tools, approvals: options.approvals },
    });
  });
}

/**
 * LLMCompiler's parts: the source of each execution is what the planner is asked, and the
 * plan is read from its answer as it streams; the joiner answers or asks for a new plan.
 */
function compilerSteps(run: StrategyRun, options: LlmCompilerOptions & { maxReplans: number }): PlanningStrategy<Message[]> {
  const prompts = resolvePrompts(options.prompts);
  const specs = options.tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema }));
  let purpose: "plan" | "replan" = "plan";
  let results: StepView[] = [];
  const stopped = (): Planned<Message[]> | undefined => {
    const stop = checkStop(run);
    return stop ? { ok: false, stop } : undefined;
  };
  return {
    name: "llm-compiler",
    answerer: { model: options.joiner ?? options.planner, prompts },
    maxReplans: options.maxReplans,
    maxRevisions: options.maxReplans,
    async plan() {
      return stopped() ?? { ok: true, source: prompts.plan({ task: run.task, tools: specs, format: "llm-compiler" }) };
    },
    // Reviewed, the plan is read to its end before any task starts (the stream is buffered).
    async written(source) {
      if (!Array.isArray(source)) return { ok: true, source };
      const steps: PlanStep[] = [];
      for await (const step of streamedSteps(run, options, source, purpose)) steps.push(step);
      const stop = checkStop(run);
      if (stop) return { ok: false, stop };
      const checked = checkPlan({ steps }, { tools: options.tools });
      return checked.ok ? { ok: true, source: checked } : { ok: false, errors: checked.errors.map((error) => error.message) };
    },
    async execute({ source, paused, version, acknowledged }) {
      if (paused) return runExecution(run, { ...options, prompts, acknowledged, plan: paused.plan, version, paused });
      if (!Array.isArray(source))
        return runExecution(run, { ...options, prompts, acknowledged, plan: source!.plan, checked: source, version });
      const execution = await executionOptions(run, { ...options, prompts, acknowledged, version });
      return executePlanStream({ ...execution, steps: streamedSteps(run, options, source as Message[], purpose) });
    },
    async judge(execution) {
      if (execution.plan.steps.length === 0)
        return { kind: "stop", stop: { status: "failed", reason: execution.reason ?? "the planner wrote no tasks" } };
      results = stepViews(execution.plan, execution.steps);
      const joined = await ask(run, options.joiner ?? options.planner, "join", prompts.join({ task: run.task, results }));
      if (!joined.ok) return { kind: "stop", stop: joined.stop };
      const decision = readJoinText(joined.text);
      return "answer" in decision ? { kind: "answer", output: decision.answer } : { kind: "replan", problem: decision.replan };
    },
    async replan({ execution, plan, steps, problem, replans }) {
      run.events.emit({ type: "replan-start", replans, reason: problem });
      purpose = "replan";
      const messages = prompts.replan({
        task: run.task,
        tools: specs,
        format: "llm-compiler",
        plan,
        results: execution === undefined ? stepViews(plan, steps) : results,
        problem: execution === undefined ? problem : describeFailures(execution, problem),
      });
      return stopped() ?? { ok: true, source: messages };
    },
  };
}

/** The planner's text, read line by line into steps as it streams in; ends at `join()`. */
async function* streamedSteps(
  run: StrategyRun,
  options: LlmCompilerOptions,
  messages: Message[],
  purpose: "plan" | "replan",
): AsyncGenerator<PlanStep> {
  const reader = new CompilerPlanReader(options.tools);
  const context = {
    model: options.planner,
    signal: run.signal,
    budget: run.budget,
    events: run.events,
    clock: run.clock,
    replay: run.durability?.replay,
    calls: run.durability?.calls,
    tenant: run.tenant,
  };
  let joined = false;
  const take = function* (lines: ReturnType<CompilerPlanReader["push"]>) {
    for (const line of lines) {
      if (joined) return;
      if (line.kind === "join") joined = true;
      else if (line.kind === "task") yield line.step;
      else if (line.kind === "error") throw new Error(line.error);
    }
  };
  for await (const chunk of streamText(context, purpose, messages)) yield* take(reader.push(chunk));
  yield* take(reader.end());
}

/**
 * `FINISH: answer` or `REPLAN: reason` (also `Finish(answer)`); other text is taken as the
 * answer. The papers' joiner writes `Thought: …` lines and then `Action: Finish(answer)` or
 * `Action: Replan(reason)`: its last `Action:` line decides, as in the original code (which
 * also replans on a line that names both, the format's own `Finish/Replan(…)`).
 */
export function readJoinText(text: string): { answer: string } | { replan: string } {
  const action = lastActionLine(text);
  if (action !== undefined) return action;
  const replan = joinAction(text, "replan");
  if (replan !== undefined) return { replan: replan || "the joiner asked for a new plan" };
  return { answer: joinAction(text, "finish") ?? text.trim() };
}

/** `ACTION: text`, or `Action(text)`: only the call form has a closing parenthesis to drop (if it is there). */
const joinForms = {
  finish: [/^\s*(?:action\s*:\s*)?finish\s*:\s*([\s\S]*?)\s*$/i, /^\s*(?:action\s*:\s*)?finish\s*\(([\s\S]*?)\)?\s*$/i],
  replan: [/^\s*(?:action\s*:\s*)?replan\s*:\s*([\s\S]*?)\s*$/i, /^\s*(?:action\s*:\s*)?replan\s*\(([\s\S]*?)\)?\s*$/i],
};

function joinAction(text: string, action: keyof typeof joinForms): string | undefined {
  // From the last line that starts with the action: models often think aloud before the prefix asked for.
  const lines = text.split("\n");
  const starts = new RegExp(String.raw`^\s*(?:action\s*:\s*)?${action}\s*[:(]`, "i");
  let from = -1;
  for (let index = lines.length - 1; index >= 0 && from < 0; index -= 1) if (starts.test(lines[index]!)) from = index;
  if (from < 0) return undefined;
  const tail = lines.slice(from).join("\n");
  for (const form of joinForms[action]) {
    const match = form.exec(tail);
    if (match) return match[1]!.trim();
  }
  return undefined;
}

function describeFailures(execution: PlanRunResult, reason: string): string {
  return execution.reason ? `${reason}; ${execution.reason}` : reason;
}

/** The last `Action:` line of a text with more than one line, read as the papers' joiner writes it. */
function lastActionLine(text: string): { answer: string } | { replan: string } | undefined {
  const lines = text.split("\n").map((line) => line.trim());
  if (lines.filter((line) => line !== "").length < 2) return undefined;
  const line = lines.filter((each) => /^action\s*:/i.test(each)).at(-1);
  if (line === undefined) return undefined;
  const open = line.indexOf("(");
  const close = line.lastIndexOf(")");
  const inner = (open < 0 ? line.replace(/^action\s*:\s*\w+\s*:?/i, "") : line.slice(open + 1, close > open ? close : undefined)).trim();
  const name = open < 0 ? line : line.slice(0, open);
  if (/replan/i.test(name)) return { replan: inner || "the joiner asked for a new plan" };
  return { answer: inner };
}
