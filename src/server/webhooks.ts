import { updateValue, type CheckpointStore } from "../journal/checkpoint-store.js";
import { errorMessage, InvalidOptionsError } from "../core/errors.js";
import { webhookSignature } from "../client/verify-webhook.js";
import { randomUUID } from "node:crypto";
import type { GroundingMark } from "../grounding/grounding-gate.js";
import { leaseOwnerName } from "../journal/lease-owner.js";
import { addToOutbox, claimDue, releaseClaims, removeFromOutbox, triedAgain, type OutboxEntry } from "./webhook-outbox.js";

/** What a webhook tells: a run waits, or ended (`completed`, `failed` for any other end, `cancelled`). */
export interface WebhookPayload {
  /** The delivery's id: a delivery made again (after a restart) has the same one. */
  id?: string;
  type: "run.waiting" | "run.completed" | "run.failed" | "run.cancelled";
  runId: string;
  /** The run's own status (`budget_exceeded` comes as `run.failed` with it). */
  status: string;
  reason?: string;
  /** `run.completed` with claims its steps do not support (docs/grounded-reports.md): the policy and the counts. */
  grounding?: GroundingMark;
  at: number;
}

/** One try to deliver a webhook, as kept beside the run. */
export interface WebhookAttempt {
  type: WebhookPayload["type"];
  url: string;
  attempt: number;
  at: number;
  /** The receiver's HTTP status, or why there was none. */
  outcome: number | string;
  delivered: boolean;
}

export interface WebhookOptions {
  /** Signs every delivery (HMAC-SHA256; see `verifyWebhook` in planloop/client). At least 16 characters. */
  secret: string;
  /** Tries per delivery before giving up (default 5). */
  attempts?: number | undefined;
  /** The wait before the second try; doubled each try after (default 1,000 ms). */
  backoffMs?: number | undefined;
  /** A try that has no answer after this long fails (default 10,000 ms). */
  timeoutMs?: number | undefined;
  /** How often the store's outbox is looked at for deliveries a server that stopped or died left (default 5,000 ms). */
  sweepMs?: number | undefined;
}

const attemptsKey = (runId: string) => `planloop:serve:webhooks:${runId}`;

/** The delivery tries kept for a run, oldest first. */
export async function webhookAttempts(store: CheckpointStore, runId: string): Promise<WebhookAttempt[]> {
  const kept = await store.getValue(attemptsKey(runId));
  return Array.isArray(kept) ? (kept as WebhookAttempt[]) : [];
}

/**
 * Delivers webhooks beside the runs, never in their way: each is kept in the store's outbox
 * before its first try (`webhook-outbox.ts`), POSTed signed, tried again with a doubling wait
 * while the receiver fails or is away, and every try is kept beside the run
 * (`webhookAttempts`). A server killed with tries left has them made after it, or another server
 * on the store, starts again (each sweeps the outbox at its start and every `sweepMs`): delivery
 * is at least once, and a receiver knows a repeat by the payload's `id`.
 */
export class Webhooks {
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly owner = leaseOwnerName();
  private readonly sleepers = new Set<() => void>();
  private readonly timer: ReturnType<typeof setInterval>;
  private closed = false;

  constructor(
    private readonly store: CheckpointStore,
    private readonly options: WebhookOptions,
  ) {
    if (typeof options.secret !== "string" || options.secret.length < 16)
      throw new InvalidOptionsError("a webhook secret is at least 16 characters (PLANLOOP_WEBHOOK_SECRET)");
    this.timer = setInterval(() => void this.sweep(), options.sweepMs ?? 5_000);
    this.timer.unref?.();
    // What a server that stopped or died left: delivered from here.
    void this.sweep();
  }

  /** Keeps `payload` for `url` in the outbox and starts delivering it; returns at once. */
  send(url: string, payload: WebhookPayload): void {
    const id = randomUUID();
    const at = Date.now();
    const entry: OutboxEntry = {
      id,
      url,
      payload: { ...payload, id },
      tried: 0,
      nextAt: at,
      owner: this.owner,
      claimedUntil: at + this.claimMs(),
    };
    this.start(entry, addToOutbox(this.store, entry));
  }

  /** Claims the deliveries that are due and free in the outbox, and delivers them. */
  async sweep(): Promise<void> {
    if (this.closed) return;
    try {
      const due = await claimDue(this.store, {
        owner: this.owner,
        at: Date.now(),
        claimMs: this.claimMs(),
        limit: 100,
        skip: new Set(this.inFlight.keys()),
      });
      for (const entry of due) this.start(entry);
    } catch {
      // The store away for a moment: the next sweep looks again.
    }
  }

  /** Waits for the deliveries under way. */
  async settle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight.values()]);
  }

  /** Stops: the tries under way end, and the tries left stay in the outbox for the next server to make. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    for (const wake of this.sleepers) wake();
    await this.settle();
    await releaseClaims(this.store, this.owner).catch(() => {});
  }

  /** How long a claim holds past a due try: the try's own time and a margin. */
  private claimMs(): number {
    return 2 * (this.options.timeoutMs ?? 10_000) + 5_000;
  }

  private start(entry: OutboxEntry, kept?: Promise<void>): void {
    const delivery = (async () => {
      await kept;
      await this.deliver(entry);
    })()
      .catch(() => {})
      .finally(() => this.inFlight.delete(entry.id));
    this.inFlight.set(entry.id, delivery);
  }

  private async deliver(entry: OutboxEntry): Promise<void> {
    const payload = entry.payload as WebhookPayload;
    const body = JSON.stringify(payload);
    const tries = this.options.attempts ?? 5;
    // Its tries all made by a server that died before it could say so: given up.
    if (entry.tried >= tries) return removeFromOutbox(this.store, entry.id);
    for (let attempt = entry.tried + 1; attempt <= tries && !this.closed; attempt += 1) {
      const at = Date.now();
      const outcome = await this.post(entry.url, body, at);
      const delivered = typeof outcome === "number" && outcome >= 200 && outcome < 300;
      await this.keep(payload.runId, { type: payload.type, url: entry.url, attempt, at, outcome, delivered });
      if (delivered || attempt === tries) return removeFromOutbox(this.store, entry.id);
      const nextAt = Date.now() + (this.options.backoffMs ?? 1_000) * 2 ** (attempt - 1);
      await triedAgain(this.store, { id: entry.id, owner: this.owner, tried: attempt, nextAt, claimMs: this.claimMs() });
      await this.sleep(nextAt - Date.now());
    }
  }

  /** Waits `ms`, or less when the server stops. */
  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.sleepers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, Math.max(0, ms));
      this.sleepers.add(wake);
    });
  }

  private async post(url: string, body: string, at: number): Promise<number | string> {
    try {
      const signature = await webhookSignature(this.options.secret, at, body);
      const response = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", "planloop-signature": `t=${at},v1=${signature}` },
        body,
        // A signed POST goes to the address given and nowhere else: a receiver's redirect could
        // point it at an address inside this machine's network.
        redirect: "manual",
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
      });
      await response.body?.cancel();
      return response.status >= 300 && response.status < 400 ? `${response.status}: redirects are not followed` : response.status;
    } catch (error) {
      return errorMessage(error);
    }
  }

  /** Each try is added in one update: two deliveries for one run (of this server or another) both kept. */
  private async keep(runId: string, attempt: WebhookAttempt): Promise<void> {
    await updateValue(this.store, attemptsKey(runId), (current) => [
      ...(Array.isArray(current) ? (current as WebhookAttempt[]) : []),
      attempt,
    ]);
  }
}

/** The webhook a run's stop makes, if any: waiting, completed, cancelled, and every other end as failed. */
export function payloadOf(
  runId: string,
  stop: { status: string; reason?: string | undefined; grounding?: GroundingMark | undefined },
): WebhookPayload | undefined {
  if (stop.status === "running" || stop.status === "not run") return undefined;
  const type =
    stop.status === "waiting" || stop.status === "completed" || stop.status === "cancelled"
      ? (`run.${stop.status}` as const)
      : "run.failed";
  return {
    type,
    runId,
    status: stop.status,
    ...(stop.reason === undefined ? {} : { reason: stop.reason }),
    ...(stop.grounding === undefined ? {} : { grounding: stop.grounding }),
    at: Date.now(),
  };
}
