import { InvalidOptionsError } from "../core/errors.js";
import type { Message } from "../core/messages.js";
import type { Model } from "../core/model.js";
import { streamText } from "../core/text-call.js";
import { executePlanStream } from "../executor/execute-plan-stream.js";
import type { PlanRunResult } from "../executor/execution-result.js";
import { CompilerPlanReader } from "../planner/parsers/compiler-plan.js";
import type { Plan, PlanStep } from "../plan/plan-schema.js";
import { resolvePrompts } from "../planner/prompts.js";
import { executionStop, runExecution } from "./execution.js";
import { readPlanStrategyState, type LlmCompilerState } from "./plan-strategy-state.js";
import { finishPlanStrategy, pausedState, type PlanningOptions } from "./planning.js";
import { stepViews } from "./step-views.js";
import type { PlanStrategyResult } from "./strategy-result.js";
import { ask, checkStop, checkStrategyOptions, startStrategyRun, type StrategyRun } from "./strategy-run.js";

/** `planner` writes the plan as `1. tool(args)` lines, streamed when the adapter can stream text. */
export interface LlmCompilerOptions extends PlanningOptions {
  /** Decides finish or replan from the results (purpose "join"); defaults to the planner. */
  joiner?: Model;
  /** New plans the joiner may ask for; default 2. */
  maxReplans?: number;
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
  checkStrategyOptions(options, { planner: true });
  const maxReplans = options.maxReplans ?? 2;
  if (!Number.isInteger(maxReplans) || maxReplans < 0) throw new InvalidOptionsError("maxReplans must be an integer >= 0");
  const prompts = resolvePrompts(options.prompts);
  const saved = options.resume === undefined ? undefined : readPlanStrategyState("llm-compiler", options.resume, options.tools ?? []);
  const run = startStrategyRun("llm-compiler", options, saved);
  try {
    const specs = options.tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema }));
    const versions: Plan[] = [...(saved?.planVersions ?? [])];
    let messages = prompts.plan({ task: run.task, tools: specs, format: "llm-compiler" });
    const acknowledged: string[] = [...(saved?.acknowledged ?? [])];
    // A resumed run first finishes the paused plan, which was written in full before it paused.
    let paused = saved ? { state: saved.execution, approvals: options.approvals ?? {}, answers: options.answers ?? {} } : undefined;
    for (let replans = saved?.replans ?? 0; ; replans += 1) {
      const stop = checkStop(run);
      if (stop) return finishPlanStrategy<LlmCompilerState>(run, { versions, replans, stop });
      const shared = {
        tools: options.tools,
        acknowledged,
        ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
        ...(options.retry ? { retry: options.retry } : {}),
      };
      const execution = paused
        ? await runExecution(run, { ...shared, plan: versions.at(-1)!, version: replans + 1, paused })
        : await executePlanStream({
            ...shared,
            planVersion: replans + 1,
            steps: streamedSteps(run, options, messages, replans === 0 ? "plan" : "replan"),
            signal: run.signal,
            budget: run.budget,
            onEvent: run.events.relay(),
            clock: run.clock,
          });
      if (!paused) versions.push(execution.plan);
      paused = undefined;
      const ending = { versions, steps: execution.steps, replans };
      const stopped = executionStop(run, execution);
      if (stopped) {
        const state = pausedState(run, "llm-compiler", { versions, replans, acknowledged, execution });
        return finishPlanStrategy<LlmCompilerState>(run, { ...ending, stop: stopped, execution, ...(state ? { state } : {}) });
      }
      if (execution.plan.steps.length === 0)
        return finishPlanStrategy<LlmCompilerState>(run, {
          ...ending,
          stop: { status: "failed", reason: execution.reason ?? "the planner wrote no tasks" },
        });
      const results = stepViews(execution.plan, execution.steps);
      const joined = await ask(run, options.joiner ?? options.planner, "join", prompts.join({ task: run.task, results }));
      if (!joined.ok) return finishPlanStrategy<LlmCompilerState>(run, { ...ending, stop: joined.stop });
      const decision = readJoinText(joined.text);
      if ("answer" in decision)
        return finishPlanStrategy<LlmCompilerState>(run, { ...ending, stop: { status: "completed" }, output: decision.answer });
      if (replans >= maxReplans)
        return finishPlanStrategy<LlmCompilerState>(run, {
          ...ending,
          stop: { status: "failed", reason: `${decision.replan} (no replans left after ${replans})` },
        });
      run.events.emit({ type: "replan-start", replans: replans + 1, reason: decision.replan });
      for (const request of execution.replanRequests) acknowledged.push(request.reason);
      messages = prompts.replan({
        task: run.task,
        tools: specs,
        format: "llm-compiler",
        plan: execution.plan,
        results,
        problem: describeFailures(execution, decision.replan),
      });
    }
  } finally {
    run.dispose();
  }
}

/** The planner's text, read line by line into steps as it streams in; ends at `join()`. */
async function* streamedSteps(
  run: StrategyRun,
  options: LlmCompilerOptions,
  messages: Message[],
  purpose: "plan" | "replan",
): AsyncGenerator<PlanStep> {
  const reader = new CompilerPlanReader(options.tools);
  const context = { model: options.planner, signal: run.signal, budget: run.budget, events: run.events, clock: run.clock };
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

/** `FINISH: answer` or `REPLAN: reason` (also `Finish(answer)`); other text is taken as the answer. */
export function readJoinText(text: string): { answer: string } | { replan: string } {
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
  for (const form of joinForms[action]) {
    const match = form.exec(text);
    if (match) return match[1]!.trim();
  }
  return undefined;
}

function describeFailures(execution: PlanRunResult, reason: string): string {
  return execution.reason ? `${reason}; ${execution.reason}` : reason;
}
