import { feedbackMessage, checkCompletion } from "./completion-check.js";
import { readAgentOptions, type AgentOptions } from "./agent-options.js";
import type { AgentResult, AgentStop } from "./agent-result.js";
import { abortStop, finishRun, startRun, type AgentRun } from "./agent-run.js";
import { callModel, checkBeforeModelCall } from "./model-step.js";
import { openRound, settleRound } from "./tool-round.js";
import type { FinalDecision } from "../core/model.js";

/**
 * The ReAct loop: ask the model, run the tools it asks for, hand the results back, until
 * the answer passes `verify` or a stop condition says why not. Every stop is a status on
 * the result; only misuse (bad options, a decision with no action, a failing model) throws.
 *
 * @example
 * const result = await runAgent({ model, tools: [getOrder], task: "Why has A123 not shipped?" });
 * if (result.status === "completed") console.log(result.output);
 * else console.log(result.status, result.reason);
 */
export async function runAgent(options: AgentOptions): Promise<AgentResult> {
  const run = startRun(readAgentOptions(options));
  try {
    let stop = run.openRound ? await settleRound(run, run.openRound) : undefined;
    while (!stop) stop = await nextStep(run);
    return finishRun(run, stop);
  } finally {
    run.dispose();
  }
}

async function nextStep(run: AgentRun): Promise<AgentStop | undefined> {
  const blocked = checkBeforeModelCall(run);
  if (blocked) return blocked;
  const decision = await callModel(run);
  if ("status" in decision) return decision;
  if (decision.type === "final") return acceptAnswer(run, decision);
  return settleRound(run, openRound(run, decision));
}

async function acceptAnswer(run: AgentRun, decision: FinalDecision): Promise<AgentStop | undefined> {
  const output = decision.content;
  run.history.push({ role: "assistant", content: output });
  let verdict;
  try {
    verdict = await checkCompletion(run.config.verify, { output, messages: run.history, signal: run.signal });
  } catch {
    return abortStop(run);
  }
  run.events.emit({
    type: "verify-end",
    step: run.steps - 1,
    passed: verdict.kind === "passed",
    ...(verdict.kind === "rejected" ? { feedback: verdict.feedback } : {}),
    ...(verdict.kind === "verifier_failed" ? { error: verdict.message } : {}),
  });
  if (verdict.kind === "passed") {
    run.rejectedAnswer = undefined;
    return { status: "completed", output };
  }
  if (verdict.kind === "verifier_failed") {
    run.lastError = { source: "verifier", kind: "verifier_failed", message: verdict.message };
    return { status: "unverified", output, reason: `the verifier failed: ${verdict.message}` };
  }
  run.rejectedAnswer = { output, feedback: verdict.feedback };
  run.history.push(feedbackMessage(verdict.feedback));
  return undefined;
}
