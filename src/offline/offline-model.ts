import { InvalidOptionsError } from "../core/errors.js";
import { textKeyed } from "../core/records.js";
import { sleep, type Clock } from "../core/clock.js";
import type { Message, ToolCall, ToolMessage } from "../core/messages.js";
import type { ModelAdapter, ModelDecision, ModelRequest, TextStreamPart } from "../core/model.js";
import type { Usage } from "../core/usage.js";
import { substitutePlaceholders } from "../plan/placeholders.js";
import { estimatePromptTokens, estimateTextTokens } from "../models/token-estimate.js";
import { agentStepAnswer, recognise, type OfflineTask } from "./offline-task.js";
import { requestedFormat, writePlan } from "./plan-writing.js";
import { programOutputs, programRequest, writeProgram } from "./program-writing.js";
import { readResults } from "./read-results.js";

export interface OfflineModelOptions {
  /** The tasks it can solve. */
  tasks: readonly OfflineTask[];
  /** Simulated thinking time per call (split across the lines of a streamed plan); default 0. */
  latencyMs?: number;
  clock?: Clock;
  /** Told once, on first use, that this is the offline model. Default: a line on stderr. */
  onNotice?: (notice: string) => void;
}

export const offlineNotice =
  "planloop: using the OFFLINE model — no network, deterministic answers for planloop's own demo, example and benchmark tasks only.";

/**
 * A deterministic model for the demo and the offline benchmarks. It recognises planloop's
 * own tasks and answers in whatever protocol the caller asks for: one tool call at a time
 * for ReAct, a whole plan for planners (JSON, ReWOO or LLMCompiler text, streamed line by
 * line), a new plan when shown what went wrong, and an answer from the results. Token
 * counts come from its real prompts and answers, with a real tokenizer.
 */
export function offlineModel(options: OfflineModelOptions): ModelAdapter & { readonly modelId: string } {
  if (!Array.isArray(options?.tasks)) {
    throw new InvalidOptionsError(
      "offlineModel needs { tasks }: the tasks it can answer, e.g. offlineModel({ tasks: [weeklyReportTask()] }) with weeklyReportTask from planloop/demo",
    );
  }
  let noticed = false;
  const notice = () => {
    if (noticed) return;
    noticed = true;
    (options.onNotice ?? ((text: string) => process.stderr.write(`${text}\n`)))(offlineNotice);
  };
  const think = (request: ModelRequest, ms: number) =>
    ms > 0 ? sleep(ms, { signal: request.signal, ...(options.clock ? { clock: options.clock } : {}) }) : Promise.resolve();

  return {
    modelId: "planloop-offline",
    async generate(request) {
      notice();
      await think(request, options.latencyMs ?? 0);
      const decision = decide(options.tasks, request);
      return { ...decision, usage: usageOf(request, decision.type === "final" ? decision.content : JSON.stringify(decision.calls)) };
    },
    async *streamText(request): AsyncGenerator<TextStreamPart> {
      notice();
      const pieces = answerPieces(options.tasks, request);
      const pause = (options.latencyMs ?? 0) / pieces.length;
      for (const piece of pieces) {
        await think(request, pause);
        yield { type: "text", text: piece };
      }
      yield { type: "usage", usage: usageOf(request, pieces.join("")) };
    },
  };
}

function usageOf(request: ModelRequest, answer: string): Usage {
  return { inputTokens: estimatePromptTokens(request.messages, request.tools), outputTokens: estimateTextTokens(answer), costUsd: 0 };
}

function decide(tasks: readonly OfflineTask[], request: ModelRequest): ModelDecision {
  if (request.purpose === "act") return act(tasks, request.messages);
  return { type: "final", content: answerPieces(tasks, request).join("") };
}

/** A text answer (plan, replan, solve, join, critic), in the pieces a stream would send. */
function answerPieces(tasks: readonly OfflineTask[], request: ModelRequest): string[] {
  const prompt = request.messages.map((message) => (typeof message.content === "string" ? message.content : "")).join("\n");
  const task = recognise(tasks, taskText(request.messages));
  if (!task) return [cannotHelp(taskText(request.messages))];
  // Code mode asks for one program (and again, when one failed), then an answer from its calls.
  const program = prompt.includes(programRequest);
  switch (request.purpose) {
    case "plan":
      return program ? [writeProgram(task.plan)] : writePlan(task.plan, requestedFormat(prompt));
    case "replan": {
      const problem = /What went wrong: ([^\n]*)/.exec(prompt)?.[1] ?? "";
      const steps = task.replan?.(problem) ?? task.plan;
      return program ? [writeProgram(steps)] : writePlan(steps, requestedFormat(prompt));
    }
    case "critic":
      return ['{"approved": true}'];
    case "join": {
      const { outputs, failed } = readResults(prompt);
      if (failed.length > 0) return [`REPLAN: steps ${failed.join(", ")} did not succeed`];
      return [`FINISH: ${safeAnswer(task, outputs)}`];
    }
    default: {
      const { outputs } = readResults(prompt);
      return [safeAnswer(task, programOutputs(prompt, outputs) ?? outputs)];
    }
  }
}

/**
 * ReAct, one call at a time: the next step of the task's plan whose inputs are known, with
 * placeholders filled from earlier tool results; after an error, the task's replan.
 */
function act(tasks: readonly OfflineTask[], messages: readonly Message[]): ModelDecision {
  const stepAnswer = agentStepAnswer(tasks, taskText(messages));
  if (stepAnswer !== undefined) return { type: "final", content: stepAnswer };
  const task = recognise(tasks, taskText(messages));
  if (!task) return { type: "final", content: cannotHelp(taskText(messages)) };
  const results = messages.filter((message): message is ToolMessage => message.role === "tool");
  const outputs = textKeyed<unknown>();
  let problem: string | undefined;
  for (const result of results) {
    const id = String(result.toolCallId)
      .replace(/^offline-/, "")
      .replace(/-\d+$/, "");
    if (result.error) problem = `step ${id} failed: ${result.error.message}`;
    else outputs[id] = result.content;
  }
  // ReAct does an agent step's work itself: only the tool steps are calls.
  const plan = ((problem !== undefined ? task.replan?.(problem) : undefined) ?? task.plan).filter((step) => step.tool !== undefined);
  const next = plan.find((step) => !(String(step.id) in outputs) && (step.depends_on ?? []).every((id) => String(id) in outputs));
  if (!next) return { type: "final", content: safeAnswer(task, outputs) };
  const args = substitutePlaceholders(next.args ?? {}, (key) => (key in outputs ? { found: true, value: outputs[key] } : { found: false }));
  const call: ToolCall = { id: `offline-${next.id}-${results.length}`, name: next.tool!, arguments: args.ok ? args.value : next.args };
  return { type: "tool_calls", calls: [call] };
}

function taskText(messages: readonly Message[]): string {
  return messages
    .filter((message) => message.role === "user")
    .map((message) => message.content as string)
    .join("\n");
}

function safeAnswer(task: OfflineTask, outputs: Record<string, unknown>): string {
  try {
    return task.answer(outputs);
  } catch (error) {
    return `The offline model could not finish "${task.name}": ${error instanceof Error ? error.message : String(error)}`;
  }
}

function cannotHelp(task: string): string {
  const shown = task.length > 120 ? `${task.slice(0, 120)}…` : task;
  return `This is planloop's offline model. It knows only the tasks that ship with planloop and cannot help with "${shown}". Run with a real model (for example --model openai:gpt-4o-mini, or --base-url for an OpenAI-compatible server).`;
}
