import { randomUUID } from "node:crypto";
import { journalTime } from "../core/clock.js";
import type { JournalEntry } from "./checkpoint-store.js";
import type { Message } from "../core/messages.js";
import type { ModelDecision, ModelRequest } from "../core/model.js";
import type { KeptAnswer, KeptModelCall } from "./model-call-record.js";
import { maskSecrets, type SecretKeys } from "../trust/secrets.js";

export type { KeptAnswer, KeptModelCall };

/** A kept call with its messages whole again; `incomplete` when the call it shared them with is not in the journal. */
export type ModelCallView = Omit<KeptModelCall, "base" | "shared" | "added"> & { messages: Message[]; incomplete?: true };

/** What one call was, as `ModelCallLog.keep` takes it. */
export interface ModelCallFacts {
  request: Pick<ModelRequest, "messages" | "purpose" | "step" | "tools" | "responseFormat">;
  startedAt: number;
  durationMs: number;
  identity: { model?: string; provider?: string };
  /** The decision it answered with, or the error it ended with. */
  outcome: { decision: ModelDecision } | { error: string };
}

/**
 * Keeps a durable run's model calls in its journal. Entries ride with the run's next commit
 * (`write` buffers), so keeping calls adds no round trip to the store. Values under secret
 * keys are masked, as in events.
 */
export class ModelCallLog {
  private last: { id: string; messages: readonly Message[]; length: number } | undefined;
  private count = 0;
  /** Ids of calls made by another process of the same run differ from this one's. */
  private readonly prefix = randomUUID().slice(0, 8);

  /** The latest time a kept limit wait runs to (see `waiting`). */
  private waitsUntil = 0;

  constructor(
    private readonly write: (entries: JournalEntry[]) => void,
    private readonly secretKeys: SecretKeys,
    /** Commits soon: a wait is kept while it lasts, not with the call's end. */
    private readonly commitSoon: () => void = () => {},
  ) {}

  /**
   * Keeps that a call waits for its provider's limit until `until`, committed at once (soon) so
   * the ui can show it while it lasts. Calls of one run that wait together write one entry a
   * second at most: a wait is kept only when it runs a second past the latest one kept, or that
   * one is over.
   */
  waiting(wait: { limit: string; until: number; step: number }): void {
    const now = journalTime();
    if (wait.until <= now || (this.waitsUntil > now && wait.until < this.waitsUntil + 1000)) return;
    this.waitsUntil = wait.until;
    this.write([{ kind: "limit-wait", limit: wait.limit, until: wait.until, at: now, step: wait.step }]);
    this.commitSoon();
  }

  keep(facts: ModelCallFacts): void {
    const { request, outcome } = facts;
    const messages = request.messages;
    const id = `${this.prefix}:${++this.count}`;
    const shared = this.sharedWithLast(messages);
    const call: KeptModelCall = {
      id,
      purpose: request.purpose,
      step: request.step,
      // On the wall clock (the run's own may be a test's fake one), like the journal's other times.
      at: journalTime() - facts.durationMs,
      durationMs: facts.durationMs,
      ...(facts.identity.model === undefined ? {} : { model: facts.identity.model }),
      ...(facts.identity.provider === undefined ? {} : { provider: facts.identity.provider }),
      ...(request.responseFormat ? { responseFormat: request.responseFormat.name } : {}),
      ...(request.tools.length > 0 ? { tools: request.tools.map((tool) => tool.name) } : {}),
      ...(shared > 0 ? { base: this.last!.id, shared } : {}),
      added: messages.slice(shared),
      ...("error" in outcome ? { error: outcome.error } : answerOf(outcome.decision)),
    };
    this.last = { id, messages, length: messages.length };
    this.write([{ kind: "model-call", call: maskSecrets(call, this.secretKeys) as KeptModelCall }]);
  }

  /**
   * How many leading messages this request has in common with the last one kept: the loop
   * hands its own history (the same array, grown) or a view of it (the same message objects).
   */
  private sharedWithLast(messages: readonly Message[]): number {
    if (this.last === undefined) return 0;
    const limit = Math.min(this.last.length, messages.length);
    if (messages === this.last.messages) return limit;
    let shared = 0;
    while (shared < limit && messages[shared] === this.last.messages[shared]) shared++;
    return shared;
  }
}

function answerOf(decision: ModelDecision): Pick<KeptModelCall, "answer" | "usage" | "response"> {
  const answer: KeptAnswer =
    decision.type === "final"
      ? { text: decision.content }
      : { toolCalls: decision.calls, ...(decision.content ? { text: decision.content } : {}) };
  if (decision.reasoning) answer.reasoning = decision.reasoning;
  return {
    answer,
    ...(decision.usage ? { usage: decision.usage } : {}),
    ...(decision.response ? { response: decision.response } : {}),
  };
}

/** The model calls a journal keeps, in order, each with its messages whole. */
export function modelCallsOf(journal: readonly JournalEntry[]): ModelCallView[] {
  const byId = new Map<string, Message[]>();
  const views: ModelCallView[] = [];
  for (const entry of journal) {
    if (entry.kind !== "model-call") continue;
    const { base, shared, added, ...rest } = entry.call;
    const before = base === undefined ? [] : byId.get(base);
    const messages = [...(before ?? []).slice(0, shared ?? 0), ...added];
    byId.set(rest.id, messages);
    views.push({ ...rest, messages, ...(before === undefined ? { incomplete: true as const } : {}) });
  }
  return views;
}
