import type { DecisionRequest, PendingItem } from "../client/api-types.js";

/** A form field of an MCP elicitation (the spec allows flat primitives only). */
type Field =
  { type: "boolean"; title: string; description?: string } | { type: "string"; title: string; description?: string; minLength?: number };

/** An elicitation's form: what to show and the fields to fill. */
export interface DecisionForm {
  message: string;
  requestedSchema: { type: "object"; properties: Record<string, Field>; required: string[] };
}

/** How the person answered a form (`elicitation/create`'s result). */
export interface FormAnswer {
  action: "accept" | "decline" | "cancel";
  content?: Record<string, unknown> | undefined;
}

const reasonField = "reason";
const longest = 160;

/**
 * The form that asks a person for a whole wave of what a run waits for at once: a yes/no per
 * approval, per interrupted call (run it again?) and per plan, a text per question, and one
 * optional reason given with the denials.
 */
export function decisionForm(runId: string, pending: readonly PendingItem[]): DecisionForm {
  const properties: Record<string, Field> = {};
  for (const item of pending) {
    properties[item.id] =
      item.kind === "input"
        ? { type: "string", title: String(item.question ?? `${String(item.name)} asks`), minLength: 1 }
        : { type: "boolean", title: titleOf(item), description: descriptionOf(item) };
  }
  properties[reasonField] = { type: "string", title: "Why (for what you deny)" };
  return {
    message: `planloop run ${runId} waits for ${pending.length === 1 ? "a decision" : `${pending.length} decisions`}`,
    requestedSchema: { type: "object", properties, required: pending.map((item) => item.id) },
  };
}

/**
 * The decisions a filled form gives, for the items still pending: accepted, a yes approves, a
 * no denies, a text answers; declined, every approval is denied (questions stay open);
 * cancelled (the person closed it), nothing is decided.
 */
export function decisionsOf(pending: readonly PendingItem[], answer: FormAnswer): DecisionRequest[] {
  if (answer.action === "cancel") return [];
  const given = answer.content ?? {};
  const reason = typeof given[reasonField] === "string" && given[reasonField] !== "" ? given[reasonField] : undefined;
  const decisions: DecisionRequest[] = [];
  for (const item of pending) {
    const value = answer.action === "decline" ? false : given[item.id];
    if (item.kind === "input") {
      if (typeof value === "string" && value !== "") decisions.push({ pendingId: item.id, action: "answer", text: value });
    } else if (value === true) decisions.push({ pendingId: item.id, action: "approve" });
    else if (value === false)
      decisions.push({
        pendingId: item.id,
        action: "deny",
        reason: reason ?? (answer.action === "decline" ? "declined in the MCP client" : undefined),
      });
  }
  return decisions;
}

function titleOf(item: PendingItem): string {
  if (item.kind === "plan") return `Approve plan v${String(item.version)}?`;
  if (item.kind === "interrupted") return `Run ${String(item.name)} again? It was running when its process stopped`;
  return `Approve ${String(item.name)}?`;
}

function descriptionOf(item: PendingItem): string {
  if (item.kind === "plan") {
    const steps = (item.plan as { steps?: Array<{ id: unknown; task?: unknown }> } | undefined)?.steps ?? [];
    return clip(steps.map((step) => `${String(step.id)}. ${String(step.task ?? "")}`).join("; "));
  }
  return clip(`${String(item.name)}(${JSON.stringify(item.arguments ?? {})})`);
}

function clip(text: string): string {
  return text.length > longest ? `${text.slice(0, longest - 1)}…` : text;
}
