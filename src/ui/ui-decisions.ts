import type { CheckpointStore } from "../journal/checkpoint-store.js";
import { isRecord } from "../core/is-record.js";
import type { Tool } from "../core/tools/define-tool.js";
import { validatePlan } from "../plan/validate-plan.js";
import { pendingFor } from "./run-detail.js";
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
 * Reads a wave from a request body (`[{ pendingId, action: "approve" | "deny", reason? }, …]`):
 * all approvals or all denials, each id once, each one the run waits for now; else nothing is
 * decided (409 naming the ids).
 */
export async function readWave(store: CheckpointStore, runId: string, body: readonly unknown[]): Promise<Decision[]> {
  const wave = body.map((each) => {
    if (!isRecord(each) || typeof each.pendingId !== "string" || (each.action !== "approve" && each.action !== "deny"))
      throw new HttpError(400, 'a wave is [{ pendingId, action: "approve" | "deny", reason? }, …]');
    return each.action === "approve"
      ? ({ pendingId: each.pendingId, action: "approve" } as const)
      : ({
          pendingId: each.pendingId,
          action: "deny",
          ...(typeof each.reason === "string" && each.reason !== "" ? { reason: each.reason } : {}),
        } as const);
  });
  if (wave.length === 0) throw new HttpError(400, "a wave decides at least one item");
  if (new Set(wave.map((decision) => decision.action)).size > 1) throw new HttpError(400, "a wave approves all or denies all");
  const ids = wave.map((decision) => decision.pendingId);
  if (new Set(ids).size !== ids.length) throw new HttpError(400, "a wave names an item more than once");
  const waiting = await pendingFor(store, runId);
  if (waiting === undefined) throw new HttpError(404, `there is no run "${runId}"`);
  const stale = ids.filter((id) => !waiting.some((item) => item.id === id && item.kind !== "plan" && item.kind !== "input"));
  if (stale.length > 0)
    throw new HttpError(409, `run "${runId}" does not wait for approval of ${stale.join(", ")}; nothing was decided`, { ids: stale });
  return wave;
}

/**
 * Reads a decision from a request body and checks it against the run: the run waits for
 * `pendingId` (else 409), an answer is text, an edited plan is a valid plan (else 422 with
 * every problem, and nothing changes).
 */
export async function readDecision(
  store: CheckpointStore,
  runId: string,
  body: unknown,
  tools: readonly Tool[] | undefined,
): Promise<Decision> {
  if (!isRecord(body) || typeof body.pendingId !== "string" || typeof body.action !== "string") {
    throw new HttpError(400, 'a decision is { pendingId, action: "approve" | "deny" | "answer" | "edit", … }');
  }
  const waiting = await pendingFor(store, runId);
  if (waiting === undefined) throw new HttpError(404, `there is no run "${runId}"`);
  const pending = waiting.find((item) => item.id === body.pendingId);
  if (pending === undefined)
    throw new HttpError(409, `run "${runId}" does not wait for "${body.pendingId}" (it was decided, or the run went on)`);
  const { pendingId, action } = body;
  switch (action) {
    case "approve":
      return { pendingId, action };
    case "deny":
      return { pendingId, action, ...(typeof body.reason === "string" && body.reason !== "" ? { reason: body.reason } : {}) };
    case "answer":
      if (typeof body.text !== "string" || body.text === "") throw new HttpError(400, "an answer needs text");
      return { pendingId, action, text: body.text };
    case "edit": {
      if (pending.kind !== "plan") throw new HttpError(400, "only a plan under review can be edited");
      const checked = validatePlan(body.plan, tools === undefined ? {} : { tools });
      if (!checked.ok) throw new HttpError(422, "the edited plan cannot run; nothing was changed", { problems: checked.errors });
      return { pendingId, action, plan: checked.plan };
    }
    default:
      throw new HttpError(400, `action must be approve, deny, answer or edit; got "${action}"`);
  }
}
