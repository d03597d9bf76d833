import { describeIssueList } from "./issue-list.js";
import type { z } from "zod";
import { errorMessage, InvalidOptionsError } from "../errors.js";
import type { ToolCall } from "../messages.js";
import type { ToolSpec } from "../model.js";
import type { Authorization, Tool } from "./define-tool.js";
import { andThen, type MaybePromise } from "../maybe-async.js";
import { toolFailure, type Admission, type AdmitContext, type ToolRunner } from "./tool-runner.js";

/**
 * Wraps `defineTool` tools in the guard of seed 001 §2: name, arguments, call limit,
 * authorization and approval are checked in that order, and every refusal is a message
 * the model can act on.
 */
export function guardTools(tools: readonly Tool[]): ToolRunner {
  checkToolList(tools);
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const specs: ToolSpec[] = tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema,
  }));
  const names = tools.map((tool) => tool.name).join(", ");
  const unknown = (name: string) =>
    names === ""
      ? `there is no tool "${name}": this run was given no tools, so answer without calling any`
      : `there is no tool "${name}"; available tools: ${names}`;

  // Every rule checked here past the arguments must also make `admitsParsedCalls` false:
  // `guardedCall` skips this function for plan steps whose tool it clears.
  function admit(call: ToolCall, context: AdmitContext): MaybePromise<Admission> {
    const tool = byName.get(call.name);
    if (!tool) return reject(toolFailure("unknown_tool", unknown(call.name)));
    if (context.argsParsed === true) return admitChecked(tool, call, context, context.parsedArgs);
    return andThen(tool.checkArgs(call.arguments ?? {}), (checked) =>
      checked.ok
        ? admitChecked(tool, call, context, checked.value)
        : reject(toolFailure("invalid_arguments", `invalid arguments for "${tool.name}": ${checked.problems}. Fix them and call again`)),
    );
  }

  /** The rules after the arguments: the call limit, authorization, approval. */
  function admitChecked(tool: Tool, call: ToolCall, context: AdmitContext, args: unknown): MaybePromise<Admission> {
    if (tool.maxCalls !== undefined && context.callsSoFar >= tool.maxCalls) {
      return reject(
        toolFailure("call_limit", `"${tool.name}" reached its limit of ${tool.maxCalls} calls in this run; do not call it again`),
      );
    }
    if (!tool.authorize) return admitAuthorized(tool, args, context);
    const toolContext = { signal: context.signal, callId: call.id, step: context.step };
    return andThen(
      checkAuthorization(() => tool.authorize!(args, toolContext)),
      (denial) =>
        denial === undefined
          ? admitAuthorized(tool, args, context)
          : reject(toolFailure("unauthorized", `"${tool.name}" is not allowed here: ${denial}`)),
    );
  }

  return { specs, admit };
}

/**
 * Whether the guard has nothing to check of a call to `tool` whose arguments are already
 * parsed: no call limit, authorization, approval or question. Such a call would be admitted
 * as it is, so a plan step may run it without asking the guard.
 */
export function admitsParsedCalls(tool: Tool): boolean {
  return (
    tool.maxCalls === undefined &&
    tool.authorize === undefined &&
    tool.needsInput !== true &&
    (tool.needsApproval === undefined || tool.needsApproval === false)
  );
}

/** After authorization: a question for the user, an approval to wait for, or a call to run. */
function admitAuthorized(tool: Tool, args: unknown, context: AdmitContext): MaybePromise<Admission> {
  if (tool.needsInput) {
    const question = (args as { question?: unknown }).question;
    return { kind: "pending", reason: "input", ...(typeof question === "string" ? { question } : {}) };
  }
  const run: Admission = { kind: "run", tool, args, timeoutMs: tool.timeoutMs };
  if (context.approved || tool.needsApproval === undefined || tool.needsApproval === false) return run;
  const pending: Admission =
    tool.approvalExpiresInMs === undefined
      ? { kind: "pending", reason: "approval" }
      : { kind: "pending", reason: "approval", expiresInMs: tool.approvalExpiresInMs };
  return andThen(needsApproval(tool, args), (needed): Admission => (needed ? pending : run));
}

function checkToolList(tools: readonly Tool[]): void {
  if (!Array.isArray(tools)) throw new InvalidOptionsError("tools must be an array of tools made with defineTool");
  const names = new Set<string>();
  for (const tool of tools) {
    if (typeof tool?.name !== "string" || !tool.inputSchema)
      throw new InvalidOptionsError("every entry of tools must come from defineTool");
    if (names.has(tool.name)) throw new InvalidOptionsError(`two tools are named "${tool.name}"`);
    names.add(tool.name);
  }
}

function reject(outcome: ReturnType<typeof toolFailure>): Admission {
  return { kind: "reject", error: outcome.error! };
}

/**
 * "order_id: expected string, received undefined; amount: ..." — fields first, so the model
 * can fix them. `whole` names the value itself when the problem is not in a field.
 */
export function describeIssues(error: z.ZodError, whole = "arguments"): string {
  return describeIssueList(error.issues, whole);
}

/** Undefined when allowed, otherwise the reason to show. A throwing check denies. */
function checkAuthorization(check: () => Authorization | Promise<Authorization>): MaybePromise<string | undefined> {
  const failed = (error: unknown) => `the authorization check failed (${errorMessage(error)})`;
  let verdict: MaybePromise<Authorization>;
  try {
    verdict = check();
  } catch (error) {
    return failed(error);
  }
  return andThen(verdict, denialOf, failed);
}

function denialOf(verdict: Authorization): string | undefined {
  if (verdict === true) return undefined;
  if (verdict === false) return "access denied";
  if (typeof verdict === "object" && verdict !== null && verdict.allowed === true) return undefined;
  return (typeof verdict === "object" && verdict?.reason) || "access denied";
}

function needsApproval(tool: Tool, args: unknown): MaybePromise<boolean> {
  const rule = tool.needsApproval;
  if (typeof rule === "function") return andThen(rule(args), (needed) => needed === true);
  return rule === true;
}
