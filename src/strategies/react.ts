import { givenDecisions } from "./strategy-durability.js";
import { errorMessage } from "../core/errors.js";
import type { Model } from "../core/model.js";
import type { Tool } from "../core/tools/define-tool.js";
import type { AgentResult } from "../react/agent-result.js";
import { readState, type AgentState } from "../react/agent-state.js";
import type { Verifier } from "../react/completion-check.js";
import type { NoProgressSettings } from "../react/no-progress.js";
import { runAgent } from "../react/run-agent.js";
import type { ContextPolicy } from "../react/context-window.js";
import { runStrategyDurably } from "./durable-strategy.js";
import type { ByStatus, StrategyResultFields } from "./strategy-result.js";
import {
  checkStop,
  checkStrategyOptions,
  finishStrategy,
  type HumanDecisions,
  type StrategyOptions,
  type StrategyStop,
} from "./strategy-run.js";
import type { Message } from "../core/messages.js";
import { resolvePrompts, type StepView } from "../planner/prompts.js";
import { groundEnding } from "./ground-answer.js";
import type { Provenance } from "../grounding/claim-report.js";

export interface ReactOptions extends StrategyOptions, HumanDecisions {
  model: Model;
  tools?: readonly Tool[];
  /** Model calls allowed; default 8. */
  maxSteps?: number | undefined;
  verify?: Verifier;
  noProgress?: false | Partial<NoProgressSettings>;
  /** Keeps each request under a token cap as the history grows (see `ContextPolicy`). */
  context?: ContextPolicy | undefined;
  /** `result.state` of a run that ended `waiting`, to continue it. */
  resume?: AgentState | undefined;
}

/** ReAct's result adds the loop's state when it waits for a human. */
export interface ReactResultFields extends StrategyResultFields {
  /** For `waiting`: pass it back as `resume`, with the approvals. JSON-safe. */
  state?: AgentState;
}

/** ReAct's result, discriminated by `status` (see `ByStatus`). */
export type ReactResult = ByStatus<ReactResultFields>;

/**
 * ReAct as a strategy: `runAgent` on the task, reported in the shape every strategy shares,
 * so it can stand beside Plan-and-Execute, ReWOO and LLMCompiler in a comparison.
 */
export async function react(options: ReactOptions): Promise<ReactResult> {
  checkStrategyOptions(options, { planner: false });
  const saved = options.resume === undefined ? undefined : readState(options.resume);
  return runStrategyDurably("react", options, saved, async (run) => {
    const agentRunId = `${run.runId}/agent`;
    let result: AgentResult;
    try {
      result = await runAgent({
        model: options.model,
        tools: options.tools ?? [],
        task: options.task,
        budget: run.budget,
        signal: run.signal,
        clock: run.clock,
        onEvent: run.events.relay(),
        ...(options.maxSteps === undefined ? {} : { maxSteps: options.maxSteps }),
        ...(options.verify ? { verify: options.verify } : {}),
        ...(options.noProgress === undefined ? {} : { noProgress: options.noProgress }),
        ...(options.context === undefined ? {} : { context: options.context }),
        stateSecret: options.stateSecret,
        secretKeys: options.secretKeys,
        approvalExpiresInMs: options.approvalExpiresInMs,
        taskType: options.taskType,
        tenant: run.tenant,
        ...(saved ? { resume: saved, ...givenDecisions(options) } : {}),
        // Kept in the same store as a loop of its own, which continues where it stopped.
        ...(run.durability
          ? {
              store: run.durability.store,
              runId: agentRunId,
              ...run.durability.checkpoints.innerOptions(),
              ...(await run.durability.decisionsFor(agentRunId)),
            }
          : {}),
      });
    } catch (error) {
      if (error instanceof TypeError) throw error;
      const stop = checkStop(run) ?? { status: "failed" as const, reason: errorMessage(error) };
      return finishStrategy<ReactResult>(run, { ...stop, steps: 0, replans: 0 });
    }
    const cancelledByDeadline = result.status === "cancelled" && run.abortCause() === "deadline";
    const stop: StrategyStop = { status: cancelledByDeadline ? "deadline_exceeded" : result.status };
    if (result.reason !== undefined) stop.reason = result.reason;
    const answerer = { model: options.model, prompts: resolvePrompts(undefined) };
    const ending: { stop: StrategyStop; output?: string; provenance?: Provenance } = { stop };
    if (result.output !== undefined) ending.output = result.output;
    const ended = await groundEnding(run, ending, {
      results: toolResults(result.messages),
      answerer,
    });
    return finishStrategy<ReactResult>(run, {
      status: ended.stop.status,
      steps: result.steps,
      replans: 0,
      ...(ended.output === undefined ? {} : { output: ended.output }),
      ...(ended.stop.reason === undefined ? {} : { reason: ended.stop.reason }),
      ...(ended.provenance ? { provenance: ended.provenance } : {}),
      ...(result.limit === undefined ? {} : { limit: result.limit }),
      ...(result.pending ? { pending: result.pending } : {}),
      ...(result.status !== "completed" && result.state ? { state: result.state } : {}),
    });
  });
}

/**
 * The loop's tool results as the evidence its answer rests on, numbered in the order they
 * came back: an answer cites the third as `[s3]`.
 */
function toolResults(messages: readonly Message[]): StepView[] {
  return messages
    .filter((message) => message.role === "tool")
    .map((message, index) => ({
      id: index + 1,
      task: message.name,
      tool: message.name,
      status: message.error ? "failed" : "succeeded",
      output: readContent(message.content),
    }));
}

/** A tool result kept as JSON text is read back as the value it was. */
function readContent(content: unknown): unknown {
  if (typeof content !== "string") return content;
  try {
    return JSON.parse(content) as unknown;
  } catch {
    return content;
  }
}
