import { raceAbort } from "../core/abort.js";
import { errorMessage, InvalidOptionsError, ModelCallError } from "../core/errors.js";
import type { Message } from "../core/messages.js";
import { addUsage, modelCallDelta } from "../core/usage.js";
import type { AgentStop } from "./agent-result.js";
import { abortStop, snapshotState, type AgentRun } from "./agent-run.js";
import { headLength, shortenedOutput, turnStarts, type ContextConfig, type ContextCut } from "./context-window.js";

/** A cut view is trimmed to this share of `maxTokens`, so the cut moves seldom. */
const refillShare = 0.6;
/** Characters of an output kept as its preview in an older turn. */
const previewChars = 400;

/**
 * The messages the next request sends: the whole history without a context policy; with
 * one, the head, then the summary or a note of what was left out, then the turns after the
 * cut (long outputs of older turns shortened), the newest turn whole. A "summarize" cut
 * asks the summarizer once per move, and its call counts in usage and the budget.
 */
export async function contextView(run: AgentRun): Promise<Message[] | AgentStop> {
  const policy = run.config.context;
  if (policy === undefined) return run.history;
  if (typeof policy.keep === "function") {
    const messages = await policy.keep([...run.history], { maxTokens: policy.maxTokens, countTokens: policy.countTokens });
    if (!Array.isArray(messages)) throw new InvalidOptionsError("context.keep must return an array of messages");
    return messages;
  }
  const history = run.history;
  const head = headLength(history);
  const starts = turnStarts(history, head);
  if (starts.length === 0) return history;
  const cut = run.contextCut ?? { through: head };
  const tools = run.runner.specs;
  const count = (messages: readonly Message[]) => policy.countTokens(messages, tools);
  const view = viewFrom(history, policy, { head, starts, cut });
  if (count(view) <= policy.maxTokens) return view;
  const through = cutPoint(history, policy, { head, starts, cut }, count);
  if (through <= cut.through) return view;
  const next: ContextCut = { through };
  if (policy.keep === "summarize") {
    const summary = await summarize(run, policy, { previous: cut.summary, from: cut.through, folded: history.slice(cut.through, through) });
    if (typeof summary !== "string") return summary;
    next.summary = summary;
  }
  run.contextCut = next;
  const trimmed = viewFrom(history, policy, { head, starts, cut: next });
  run.events.emit({
    type: "context-cut",
    step: run.steps,
    keep: policy.keep,
    leftOut: through - head,
    tokens: count(trimmed),
  });
  return trimmed;
}

interface Layout {
  head: number;
  starts: number[];
  cut: ContextCut;
}

function viewFrom(history: readonly Message[], policy: ContextConfig, { head, starts, cut }: Layout): Message[] {
  const newest = starts.at(-1)!;
  const view = history.slice(0, head);
  if (cut.through > head) view.push(foldedNote(cut, cut.through - head));
  for (let index = cut.through; index < history.length; index += 1) {
    const message = history[index]!;
    const long = index < newest && message.role === "tool" && policy.countTokens([message]) > policy.maxObservationTokens;
    view.push(long ? shortenedOutput(message, index, previewChars) : message);
  }
  return view;
}

function foldedNote(cut: ContextCut, count: number): Message {
  if (cut.summary !== undefined)
    return { role: "user", content: `Summary of the work so far (${count} earlier messages folded):\n${cut.summary}` };
  return { role: "user", content: `[${count} earlier messages were left out to stay within the context limit.]` };
}

/**
 * The earliest turn start from which the view fits in the refill share (the summary still
 * to be written counted at its previous size, or an observation's worth); the newest turn
 * when none does. Binary search: the view only shrinks as the cut moves on.
 */
function cutPoint(
  history: readonly Message[],
  policy: ContextConfig,
  { head, starts, cut }: Layout,
  count: (messages: readonly Message[]) => number,
): number {
  const target = Math.floor(policy.maxTokens * refillShare);
  const reserve =
    policy.keep === "summarize" ? { through: cut.through, summary: cut.summary ?? "x".repeat(policy.maxObservationTokens * 4) } : undefined;
  const fits = (through: number) => count(viewFrom(history, policy, { head, starts, cut: { ...reserve, through } })) <= target;
  let low = starts.findIndex((start) => start > cut.through);
  if (low < 0) return cut.through;
  let high = starts.length - 1;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (fits(starts[middle]!)) high = middle;
    else low = middle + 1;
  }
  return starts[low]!;
}

async function summarize(
  run: AgentRun,
  policy: ContextConfig,
  input: { previous: string | undefined; from: number; folded: Message[] },
): Promise<string | AgentStop> {
  const model = policy.summarizer ?? run.config.model;
  const words = Math.max(50, Math.floor(policy.maxObservationTokens * 0.7));
  const transcript = input.folded.map((message, index) =>
    transcriptLine(
      message.role === "tool" && policy.countTokens([message]) > policy.maxObservationTokens
        ? shortenedOutput(message, input.from + index, previewChars * 4)
        : message,
    ),
  );
  const messages: Message[] = [
    {
      role: "system",
      content:
        `Fold the earlier part of an agent's work into a summary of at most ${words} words. Keep every fact, number and id it found, ` +
        "what it tried, what failed and why, and what is left to do. Write only the summary.",
    },
    {
      role: "user",
      content: `${input.previous === undefined ? "" : `The summary so far:\n${input.previous}\n\n`}The turns to fold in:\n${transcript.join("\n")}`,
    },
  ];
  const step = run.steps;
  run.events.emit({
    type: "model-call-start",
    step,
    purpose: "summarize",
    ...(policy.summarizer === undefined ? run.config.identity : {}),
  });
  const startedAt = run.config.clock.now();
  let decision;
  try {
    decision = await raceAbort(
      Promise.resolve().then(() => model({ messages, step, signal: run.signal, tools: [], purpose: "summarize" })),
      run.signal,
    );
  } catch (error) {
    if (run.signal.aborted) return abortStop(run);
    throw new ModelCallError(`the summarize call at step ${step} failed: ${errorMessage(error)}`, {
      cause: error,
      state: snapshotState(run, "failed"),
    });
  }
  const delta = modelCallDelta(decision.usage);
  run.usage = addUsage(run.usage, delta);
  run.budget.charge(delta);
  run.events.emit({
    type: "model-call-end",
    step,
    purpose: "summarize",
    decision: decision.type,
    toolCalls: 0,
    durationMs: run.config.clock.now() - startedAt,
    ...(decision.usage ? { usage: decision.usage } : {}),
    ...(decision.response ? { response: decision.response } : {}),
  });
  if (decision.type !== "final" || decision.content.trim() === "")
    throw new ModelCallError(`the summarize call at step ${step} wrote no summary`, {
      cause: undefined,
      state: snapshotState(run, "failed"),
    });
  return heldToShare(decision.content.trim(), policy);
}

/**
 * The summary held to its share of the cap (`maxObservationTokens`, what the cut reserves for
 * it): a longer one is cut, with a marker saying so, so that no summarizer can push every later
 * request over `maxTokens`.
 */
function heldToShare(summary: string, policy: ContextConfig): string {
  const share = policy.maxObservationTokens;
  const tokens = (text: string) => policy.countTokens([{ role: "user", content: text }]);
  if (tokens(summary) <= share) return summary;
  const marker = `\n[the summary was cut to its share of the context, ${share} tokens]`;
  let chars = Math.min(summary.length, share * 4);
  let cut = `${summary.slice(0, chars)}${marker}`;
  while (chars > 0 && tokens(cut) > share) {
    chars = Math.floor(chars * 0.8);
    cut = `${summary.slice(0, chars)}${marker}`;
  }
  return cut;
}

function transcriptLine(message: Message): string {
  if (message.role === "assistant") {
    const calls = (message.toolCalls ?? []).map((call) => `${call.name}(${JSON.stringify(call.arguments ?? {})})`).join(", ");
    return `assistant: ${message.content ?? ""}${calls ? ` [calls ${calls}]` : ""}`;
  }
  if (message.role === "tool")
    return `result of ${message.name}: ${typeof message.content === "string" ? message.content : JSON.stringify(message.content)}`;
  return `${message.role}: ${message.content}`;
}
