import { raceAbort } from "../core/abort.js";
import { errorMessage, shown } from "../core/errors.js";
import type { Model } from "../core/model.js";
import type { StepRecord } from "../plan/step-record.js";
import type { Plan } from "../plan/plan-schema.js";
import type { Prompts, StepView } from "../planner/prompts.js";
import type { VerifyResult } from "../react/completion-check.js";
import { stepViews } from "./step-views.js";
import { ask, checkStop, type StrategyRun, type StrategyStop } from "./strategy-run.js";

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
  input: {
    solver: Model;
    prompts: Prompts;
    plan: Plan;
    steps: Record<string, StepRecord>;
    critic?: Critic;
    verify?: PlanVerifier;
    /** What the solver and critic are shown, when not every step's output (code mode: the program's result, its calls without theirs). */
    views?: readonly StepView[];
  },
): Promise<AnswerOutcome> {
  const results = input.views ?? stepViews(input.plan, input.steps);
  const solved = await ask(run, input.solver, "solve", input.prompts.solve({ task: run.task, results }));
  if (!solved.ok) return { kind: "stopped", stop: solved.stop };
  const output = solved.text;
  if (input.critic) {
    const verdict = await review(run, input.critic, input.prompts, { task: run.task, answer: output, results });
    if ("stop" in verdict) return { kind: "stopped", stop: verdict.stop };
    if ("unreadable" in verdict) return { kind: "unverified", output, reason: verdict.unreadable };
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
): Promise<CriticVerdict | { stop: StrategyStop } | { unreadable: string }> {
  if ("review" in critic) {
    try {
      const verdict: unknown = await raceAbort(
        Promise.resolve().then(() => critic.review(input)),
        run.signal,
      );
      if ((verdict as CriticVerdict | null)?.approved === true) return { approved: true };
      if ((verdict as CriticVerdict | null)?.approved === false) return verdict as CriticVerdict;
      return { approved: false, feedback: `the critic returned ${shown(verdict)}, not { approved: boolean }` };
    } catch (error) {
      if (run.signal.aborted) return { stop: checkStop(run) ?? { status: "cancelled", reason: "stopped during the critic's review" } };
      return { approved: false, feedback: `the critic failed: ${errorMessage(error)}` };
    }
  }
  const answer = await ask(run, critic.model, "critic", prompts.critic(input));
  if (!answer.ok) return { stop: answer.stop };
  return readCriticText(answer.text);
}

/**
 * Reads a critic model's reply; it fails closed. Only an unambiguous approval approves:
 * `{"approved": true}` (the default prompt's form), or a reply that is just APPROVE(D) or
 * starts `APPROVE:`. `{"approved": false, "feedback": ...}` and `REVISE: ...` / `REJECT: ...`
 * reject with their feedback; any other text ("NO", "Not approved: ...", a cut-off JSON
 * object) rejects with the text itself as feedback. An empty reply cannot be read at all.
 */
export function readCriticText(text: string): CriticVerdict | { unreadable: string } {
  const trimmed = text.trim();
  if (trimmed === "") return { unreadable: "the critic's reply was empty" };
  const found = /\{[\s\S]*"approved"[\s\S]*\}/.exec(trimmed);
  if (found) {
    try {
      const value = JSON.parse(found[0]) as { approved?: unknown; feedback?: unknown };
      if (value.approved === true) return { approved: true };
      if (value.approved === false) return { approved: false, feedback: String(value.feedback ?? "no reason given") };
    } catch {
      // not JSON after all: read as text below
    }
  }
  if (/^approved?\s*(?:[.!]\s*)?$/i.test(trimmed) || /^approved?\s*:/i.test(trimmed)) return { approved: true };
  const revise = /^(?:revise|reject)\s*:?\s*([\s\S]*)$/i.exec(trimmed);
  if (revise) return { approved: false, feedback: revise[1]!.trim() || "no reason given" };
  return { approved: false, feedback: trimmed };
}
