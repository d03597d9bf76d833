import { journalTime } from "../core/clock.js";
import { feedbackMessage, checkCompletion } from "./completion-check.js";
import { readAgentOptions, type AgentOptions } from "./agent-options.js";
import type { AgentResult, AgentStop } from "./agent-result.js";
import { continuedOptions, decisionEntries } from "../journal/checkpoints.js";
import { Checkpoints } from "../journal/checkpoint-writer.js";
import { runEnveloped } from "../journal/durable-envelope.js";
import { abortStop, finishRun, snapshotState, startRun, type AgentRun } from "./agent-run.js";
import { openAgentRun, pausedEntry } from "./durable-agent.js";
import { callModel, checkBeforeModelCall } from "./model-step.js";
import { contextView } from "./context-view.js";
import { openRound, settleRound } from "./tool-round.js";
import { recoverRound } from "./round-recovery.js";
import type { FinalDecision } from "../core/model.js";
import { roundWakeAt } from "./wait-tool.js";

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
  const opened = await openAgentRun(options);
  if (opened.kind === "finished") return opened.result;
  const checkpoints = opened.durability === undefined ? undefined : new Checkpoints(opened.durability);
  return runEnveloped(checkpoints, {
    start: () => {
      const config = readAgentOptions(continuedOptions(options, opened));
      checkpoints?.write(decisionEntries(options));
      const journaled = opened.kind === "continue" ? opened.resume : undefined;
      return startRun(config, { runId: opened.runId, checkpoints, journaled });
    },
    body: async (run) => {
      if (run.openRound) await recoverRound(run, run.openRound);
      let stop = run.openRound ? await settleRound(run, run.openRound) : undefined;
      while (!stop) stop = await nextStep(run);
      return finishRun(run, stop);
    },
    kept: (result, run) => {
      if (result.status === "completed") return "finished";
      // A loop waiting on `wait_until` is listed as due then (`wakeDueRuns`).
      const wakeAt = result.status === "waiting" ? roundWakeAt(run.openRound) : undefined;
      return pausedEntry(run, result.state!, {
        status: result.status,
        at: journalTime(),
        ...(wakeAt === undefined ? {} : { wake: { at: wakeAt } }),
      });
    },
    dispose: (run) => run.dispose(),
  });
}

async function nextStep(run: AgentRun): Promise<AgentStop | undefined> {
  const blocked = checkBeforeModelCall(run);
  if (blocked) return blocked;
  const view = await contextView(run);
  if (!Array.isArray(view)) return view;
  // A summary may have spent what was left of the budget.
  const spent = view === run.history ? undefined : checkBeforeModelCall(run);
  if (spent) return spent;
  const decision = await callModel(run, view);
  if ("status" in decision) return decision;
  if (decision.type === "final") return acceptAnswer(run, decision);
  const round = openRound(run, decision);
  // A durable loop keeps the decision before its calls run: it is never asked for again.
  if (run.checkpoints) {
    run.openRound = round;
    run.checkpoints.write([pausedEntry(run, snapshotState(run, "incomplete"))]);
    await run.checkpoints.commit();
  }
  return settleRound(run, round);
}

async function acceptAnswer(run: AgentRun, decision: FinalDecision): Promise<AgentStop | undefined> {
  const output = decision.content;
  run.history.push({ role: "assistant", content: output, ...(decision.reasoning === undefined ? {} : { reasoning: decision.reasoning }) });
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
