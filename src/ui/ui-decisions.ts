import type { CheckpointStore } from "../journal/checkpoint-store.js";
import { isRecord } from "../core/is-record.js";
import type { Tool } from "../core/tools/define-tool.js";
import type { RunDecisions } from "../runs/decide-run.js";
import { DecisionsRefusedError } from "../runs/decisions-refused.js";
import { checkDecisions, NoSuchRunError, takeDecisions, type TakenRun } from "../runs/take-decisions.js";
import { hostedRequest } from "../runs/hosted-request.js";
import { RunBusyError } from "../core/errors.js";
import { HttpError } from "./ui-http.js";
import type { Decision } from "./api-types.js";

export type { Decision } from "./api-types.js";

/**
 * Continues a stored run in the ui's process: with a person's decision (as `planloop runs
 * approve` would), or without one, a run made here to rerun from a step (`runs resume`).
 */
export type ContinueRun = (request: {
  runId: string;
  decision?: Decision;
  /** A wave: several approvals, or several denials, taken at once (`decision` is absent then). */
  decisions?: readonly Decision[];
  /**
   * The run as `takeDecisions` took it for the decision: its lease held by this process, the
   * decisions checked under it. The continuation goes on under that lease (and gives it up).
   */
  taken?: TakenRun;
}) => Promise<void>;

/** The command that continues the run with this decision, for a ui that cannot continue it itself. */
export function continueCommand(runId: string, decision: Decision | readonly Decision[], store: string | undefined): string {
  // Quoted for a POSIX shell where it needs to be: in single quotes, each of its own closed, escaped and reopened.
  const quote = (text: string) => (/^[\w:@./=-]+$/.test(text) ? text : "'" + text.split("'").join("'\\''") + "'");
  const words = ["planloop", "runs"];
  if (Array.isArray(decision)) {
    const wave = decision as readonly Decision[];
    const reason = wave[0]?.action === "deny" ? wave[0].reason : undefined;
    words.push(
      wave[0]?.action === "deny" ? "deny" : "approve",
      runId,
      ...wave.map((each) => each.pendingId),
      ...(reason ? ["--reason", reason] : []),
    );
    if (store !== undefined) words.push("--store", store);
    return [...words.map(quote), "--tools", "<your tools module>"].join(" ");
  }
  decision = decision as Decision;
  if (decision.action === "approve") words.push("approve", runId, decision.pendingId);
  if (decision.action === "edit") words.push("approve", runId, decision.pendingId, "--plan", "<edited-plan.json>");
  if (decision.action === "deny") words.push("deny", runId, decision.pendingId, ...(decision.reason ? ["--reason", decision.reason] : []));
  if (decision.action === "answer") words.push("answer", runId, decision.pendingId, decision.text);
  if (store !== undefined) words.push("--store", store);
  return [...words.map(quote), "--tools", "<your tools module>"].join(" ");
}

/**
 * Reads a decision (`{ pendingId, action, … }`) or a wave (`[…]`) from a request body and
 * checks it with `decideRun` against what the run waits for now: every item pending, once,
 * its action fitting its kind, an edited plan that checks against `tools`; else nothing is
 * decided (409, 400 or 422, naming each bad item). A wave here approves all or denies all:
 * it is continued as one `planloop runs approve|deny` command.
 */
export async function readDecisions(
  store: CheckpointStore,
  runId: string,
  body: unknown,
  tools: readonly Tool[] | undefined,
): Promise<{ decided: RunDecisions; decisions: Decision | Decision[] }> {
  const wave = Array.isArray(body) ? body.map(decisionOf) : undefined;
  const decisions = wave ?? [decisionOf(body)];
  if (decisions.length === 0) throw new HttpError(400, "a wave decides at least one item");
  let decided: RunDecisions;
  try {
    decided = await checkDecisions({ store, runId, decisions, by: "planloop ui", tools });
  } catch (error) {
    throw httpRefusal(error);
  }
  const actions = new Set(decisions.map((each) => each.action));
  if (wave !== undefined && (actions.size > 1 || actions.has("answer") || actions.has("edit")))
    throw new HttpError(400, "a wave here approves all or denies all; answer or edit one item at a time");
  return { decided, decisions: wave ?? decisions[0]! };
}

/**
 * Takes the run for the decisions before the page is told they were taken (`takeDecisions`):
 * its lease held here, the decisions checked again under it. A run another process is running
 * is refused (409, naming it), and nothing is decided.
 */
export async function takeRun(
  store: CheckpointStore,
  runId: string,
  decisions: Decision | readonly Decision[],
  tools: readonly Tool[] | undefined,
): Promise<TakenRun> {
  try {
    return await takeDecisions({ store, runId, decisions, by: "planloop ui", tools });
  } catch (error) {
    throw httpRefusal(error);
  }
}

/** A refusal of the room's as the ui's JSON API answers it. */
function httpRefusal(error: unknown): unknown {
  if (error instanceof NoSuchRunError) return new HttpError(404, error.message);
  if (error instanceof DecisionsRefusedError)
    return new HttpError(error.httpStatus, error.message, { ids: error.ids, problems: error.problems });
  if (error instanceof RunBusyError)
    return new HttpError(
      409,
      `run "${error.runId}" is being run by ${error.owner} (another process, or a continuation of this one); nothing was decided: decide what it waits for once it stops`,
    );
  return error;
}

/**
 * A run `planloop serve`'s HTTP API started is that server's to continue (it knows how it was
 * started): a page that does not serve it refuses its decisions, saying where to take them.
 */
export async function refuseHosted(store: CheckpointStore, runId: string): Promise<void> {
  if ((await hostedRequest(store, runId)) === undefined) return;
  throw new HttpError(
    409,
    `run "${runId}" was started through planloop serve's HTTP API, and that server continues it: nothing was decided here. ` +
      `Decide it there: on its page (/ui/ on the server's port) or with POST /api/runs/${runId}/decisions`,
  );
}

/** One decision of a request body, in its shape (what it decides is `decideRun`'s to check). */
function decisionOf(body: unknown): Decision {
  if (!isRecord(body) || typeof body.pendingId !== "string" || typeof body.action !== "string")
    throw new HttpError(400, 'a decision is { pendingId, action: "approve" | "deny" | "answer" | "edit", … }');
  const { pendingId, action } = body;
  switch (action) {
    case "approve":
      return { pendingId, action };
    case "deny":
      return { pendingId, action, ...(typeof body.reason === "string" && body.reason !== "" ? { reason: body.reason } : {}) };
    case "answer":
      return { pendingId, action, text: typeof body.text === "string" ? body.text : "" };
    case "edit":
      return { pendingId, action, plan: body.plan };
    default:
      throw new HttpError(400, `action must be approve, deny, answer or edit; got "${action}"`);
  }
}
