import { PlanloopError } from "../core/errors.js";

/** Why one item of a decision (or of a wave) cannot be taken. */
export type DecisionProblemKind =
  /** The run does not wait for this id now: decided already, the run went on, or it never did. */
  | "not-pending"
  /** The same id named twice in one wave. */
  | "repeated"
  /** The action does not fit what the item waits for (an answer for an approval, an approval for a question). */
  | "wrong-action"
  /** An answer with no text. */
  | "no-answer"
  /** An edited plan that cannot run. */
  | "invalid-plan"
  /** An approval of a request that lapsed (`approvalExpiresInMs`): the run denies the call. */
  | "lapsed";

export interface DecisionProblem {
  pendingId: string;
  problem: DecisionProblemKind;
  /** What is wrong with this item, for a person. */
  message: string;
  /** For `invalid-plan`: each problem of the edited plan. */
  errors?: string[];
}

/**
 * A decision or a wave that was refused whole: nothing of it was kept or run. `problems`
 * names each bad item; the message lists them all.
 */
export class DecisionsRefusedError extends PlanloopError {
  readonly runId: string;
  readonly problems: readonly DecisionProblem[];

  constructor(runId: string, problems: readonly DecisionProblem[]) {
    super(`nothing was decided on run "${runId}": ${problems.map((each) => each.message).join("; ")}`);
    this.name = "DecisionsRefusedError";
    this.runId = runId;
    this.problems = problems;
  }

  /** The ids of the bad items, each once, in the order given. */
  get ids(): string[] {
    return [...new Set(this.problems.map((each) => each.pendingId))];
  }

  /**
   * The HTTP status the HTTP faces answer a refusal with: 409 when an item is not pending (the
   * run moved: read it again), 400 for a malformed wave, 422 for an action or plan that does
   * not fit what the run waits for.
   */
  get httpStatus(): 400 | 409 | 422 {
    const kinds = new Set(this.problems.map((each) => each.problem));
    if (kinds.has("not-pending") || kinds.has("lapsed")) return 409;
    if (kinds.has("repeated") || kinds.has("no-answer")) return 400;
    return 422;
  }
}
