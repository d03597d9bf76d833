import type { StepRecord } from "../../plan/step-record.js";
import type { Plan } from "../../plan/plan-schema.js";
import type { Provenance } from "../../grounding/claim-report.js";
import type { Model } from "../../core/model.js";
import type { Prompts } from "../../planner/prompts.js";
import { answerPhase, type Critic, type PlanVerifier } from "../answer-phase.js";
import { groundEnding } from "../ground-answer.js";
import { stepViews } from "../step-views.js";
import type { StrategyRun, StrategyStop } from "../strategy-run.js";
import type { KeptCall } from "./code-mode-state.js";

/** The answer phase's verdict on a program's result. */
export type ProgramAnswer =
  | { kind: "answered"; stop: StrategyStop; output: string; provenance?: Provenance }
  | { kind: "rejected"; output: string; problem: string }
  | { kind: "stopped"; stop: StrategyStop };

/**
 * The program's calls and its result as a plan that ran: one tool step per call it read, in
 * the order it made them, and a last step holding what it returned. The solver, the critic,
 * `verify` and grounding see them as they see any strategy's steps: a sentence cites `[s2]`.
 */
export function programSteps(calls: readonly KeptCall[], result: unknown): { plan: Plan; steps: Record<string, StepRecord> } {
  const steps: Record<string, StepRecord> = Object.create(null) as Record<string, StepRecord>;
  const planSteps: Plan["steps"] = calls.map((call, index) => {
    const id = index + 1;
    const record: StepRecord = call.outcome.error
      ? { status: "failed", error: call.outcome.error.message, attempts: 1 }
      : { status: "succeeded", output: call.outcome.content, attempts: 1 };
    steps[String(id)] = record;
    return {
      id,
      task: `tools.${call.name}(${shortJson(call.arguments)})`,
      tool: call.name,
      args: call.arguments,
      depends_on: [],
    } as Plan["steps"][number];
  });
  const last = calls.length + 1;
  planSteps.push({ id: last, task: "the program's result", depends_on: planSteps.map((step) => step.id) } as Plan["steps"][number]);
  steps[String(last)] = { status: "succeeded", output: result, attempts: 1 };
  return { plan: { steps: planSteps } as Plan, steps };
}

function shortJson(value: unknown): string {
  const text = JSON.stringify(value) ?? "";
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}

/** Solve from the program's steps, let the critic and `verify` judge, and ground what is accepted. */
export async function answerProgram(
  run: StrategyRun,
  input: {
    model: Model;
    prompts: Prompts;
    calls: readonly KeptCall[];
    result: unknown;
    critic?: Critic | undefined;
    verify?: PlanVerifier | undefined;
  },
): Promise<ProgramAnswer> {
  const { plan, steps } = programSteps(input.calls, input.result);
  const evidence = stepViews(plan, steps);
  // The solver reads what the program returned, and which calls it made, not every call's
  // output: what keeps a program of many calls cheap. Grounding (no model) checks against them all.
  const shown = evidence.map((view, index) =>
    index === evidence.length - 1 || view.output === undefined ? view : { ...view, output: "(read by the program: see its result)" },
  );
  const verdict = await answerPhase(run, {
    solver: input.model,
    prompts: input.prompts,
    plan,
    steps,
    views: shown,
    ...(input.critic ? { critic: input.critic } : {}),
    ...(input.verify ? { verify: input.verify } : {}),
  });
  if (verdict.kind === "stopped") return verdict;
  if (verdict.kind === "rejected") return verdict;
  const stop: StrategyStop = verdict.kind === "accepted" ? { status: "completed" } : { status: "unverified", reason: verdict.reason };
  const grounded = await groundEnding(
    run,
    { stop, output: verdict.output } as { stop: StrategyStop; output?: string; provenance?: Provenance },
    {
      results: evidence,
      answerer: { model: input.model, prompts: input.prompts },
    },
  );
  return {
    kind: "answered",
    stop: grounded.stop,
    output: grounded.output ?? verdict.output,
    ...(grounded.provenance ? { provenance: grounded.provenance } : {}),
  };
}
