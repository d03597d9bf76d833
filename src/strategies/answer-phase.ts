import { raceAbort } from "../core/abort.js";
import { errorMessage } from "../core/errors.js";
import type { Model } from "../core/model.js";
import type { StepRecord } from "../plan/step-record.js";
import type { Plan } from "../plan/plan-schema.js";
import type { Prompts, StepView } from "../planner/prompts.js";
import type { VerifyResult } from "../react/completion-check.js";
import { stepViews } from "./step-views.js";
import { ask, type StrategyRun, type StrategyStop } from "./strategy-run.js";

export type CriticVerdict = { approved: true } | { approved: false; feedback: string };

/** Reviews an answer: a model asked with the critic prompt, or your own function. */
export type Critic =
  | { model: Model }
  | { review(input: { task: string; answer: string; results: readonly StepView[] }): CriticVerdict | Promise<CriticVerdict> };

/** Checks a plan's answer against the real outcome, as `verify` does for `runAgent`. */
export type PlanVerifier = (input: {
  output: string;
  steps: Record<string, StepRecord>;
  signal: AbortSignal;
}) => VerifyResult | Promise<VerifyResult>;

export type AnswerOutcome =
  | { kind: "accepted"; output: string }
  | { kind: "rejected"; output: string; problem: string }
  | { kind: "unverified"; output: string; reason: string }
  | { kind: "stopped"; stop: StrategyStop };

/** Solve from the step results, then let the critic and `verify` accept or reject the answer. */
export async function answerPhase(
  run: StrategyRun,
  input: { solver: Model; prompts: Prompts; plan: Plan; steps: Record<string, StepRecord>; critic?: Critic; verify?: PlanVerifier },
): Promise<AnswerOutcome> {
  const results = stepViews(input.plan, input.steps);
  const solved = await ask(run, input.solver, "solve", input.prompts.solve({ task: run.task, results }));
  if (!solved.ok) return { kind: "stopped", stop: solved.stop };
  const output = solved.text;
  if (input.critic) {
    const verdict = await review(run, input.critic, input.prompts, { task: run.task, answer: output, results });
    if ("stop" in verdict) return { kind: "stopped", stop: verdict.stop };
    run.events.emit({ type: "critic-end", approved: verdict.approved, ...(verdict.approved ? {} : { feedback: verdict.feedback }) });
    if (!verdict.approved) return { kind: "rejected", output, problem: `the critic rejected the answer: ${verdict.feedback}` };
  }
  if (!input.verify) return { kind: "accepted", output };
  let verdict: VerifyResult;
  try {
    verdict = await raceAbort(
      Promise.resolve().then(() => input.verify!({ output, steps: input.steps, signal: run.signal })),
      run.signal,
    );
  } catch (error) {
    if (run.signal.aborted) return { kind: "stopped", stop: { status: "cancelled", reason: "stopped during verification" } };
    return { kind: "unverified", output, reason: `the verifier failed: ${errorMessage(error)}` };
  }
  return verdict.passed ? { kind: "accepted", output } : { kind: "rejected", output, problem: `verification failed: ${verdict.feedback}` };
}

async function review(
  run: StrategyRun,
  critic: Critic,
  prompts: Prompts,
  input: { task: string; answer: string; results: readonly StepView[] },
): Promise<CriticVerdict | { stop: StrategyStop }> {
  if ("review" in critic) {
    try {
      return await critic.review(input);
    } catch (error) {
      return { approved: false, feedback: `the critic failed: ${errorMessage(error)}` };
    }
  }
  const answer = await ask(run, critic.model, "critic", prompts.critic(input));
  return answer.ok ? readCriticText(answer.text) : { stop: answer.stop };
}

/** `{"approved": false, "feedback": "..."}`, or text starting with APPROVE / REVISE: ... */
export function readCriticText(text: string): CriticVerdict {
  const found = /\{[\s\S]*"approved"[\s\S]*\}/.exec(text);
  if (found) {
    try {
      const value = JSON.parse(found[0]) as { approved?: unknown; feedback?: unknown };
      if (value.approved === true) return { approved: true };
      if (value.approved === false) return { approved: false, feedback: String(value.feedback ?? "no reason given") };
    } catch {
      // fall through to the text forms
    }
  }
  const revise = /^\s*(?:revise|reject)\s*:?\s*([\s\S]*)$/i.exec(text);
  if (revise) return { approved: false, feedback: revise[1]!.trim() || "no reason given" };
  return { approved: true };
}
