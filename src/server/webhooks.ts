import { updateValue, type CheckpointStore } from "../journal/checkpoint-store.js";
import { errorMessage, InvalidOptionsError } from "../core/errors.js";
import { webhookSignature } from "../client/verify-webhook.js";

/** What a webhook tells: a run waits, or ended (`completed`, `failed` for any other end, `cancelled`). */
export interface WebhookPayload {
  type: "run.waiting" | "run.completed" | "run.failed" | "run.cancelled";
  runId: string;
  /** The run's own status (`budget_exceeded` comes as `run.failed` with it). */
  status: string;
  reason?: string;
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
}

const attemptsKey = (runId: string) => `planloop:serve:webhooks:${runId}`;

/** The delivery tries kept for a run, oldest first. */
export async function webhookAttempts(store: CheckpointStore, runId: string): Promise<WebhookAttempt[]> {
  const kept = await store.getValue(attemptsKey(runId));
  return Array.isArray(kept) ? (kept as WebhookAttempt[]) : [];
}

/**
 * Delivers webhooks beside the runs, never in their way: each is POSTed signed, tried again with
 * a doubling wait while the receiver fails or is away, and every try is kept beside the run
 * (`webhookAttempts`). A run's journal takes no entry once it finished, so the tries are kept
 * among the store's values, under the run's id.
 */
export class Webhooks {
  private readonly inFlight = new Set<Promise<void>>();
  private closed = false;

  constructor(
    private readonly store: CheckpointStore,
    private readonly options: WebhookOptions,
  ) {
    if (typeof options.secret !== "string" || options.secret.length < 16)
      throw new InvalidOptionsError("a webhook secret is at least 16 characters (PLANLOOP_WEBHOOK_SECRET)");
  }

  /** Starts delivering `payload` to `url`; returns at once. */
  send(url: string, payload: WebhookPayload): void {
    const delivery = this.deliver(url, payload).finally(() => this.inFlight.delete(delivery));
    this.inFlight.add(delivery);
  }

  /** Waits for the deliveries under way (tries left are given up once `close` was called). */
  async settle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.settle();
  }

  private async deliver(url: string, payload: WebhookPayload): Promise<void> {
    const body = JSON.stringify(payload);
    const tries = this.options.attempts ?? 5;
    for (let attempt = 1; attempt <= tries; attempt += 1) {
      const at = Date.now();
      const outcome = await this.post(url, body, at);
      const delivered = typeof outcome === "number" && outcome >= 200 && outcome < 300;
      await this.keep(payload.runId, { type: payload.type, url, attempt, at, outcome, delivered });
      if (delivered || this.closed || attempt === tries) return;
      await new Promise((resolve) => setTimeout(resolve, (this.options.backoffMs ?? 1_000) * 2 ** (attempt - 1)));
    }
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
export function payloadOf(runId: string, stop: { status: string; reason?: string | undefined }): WebhookPayload | undefined {
  if (stop.status === "running" || stop.status === "not run") return undefined;
  const type =
    stop.status === "waiting" || stop.status === "completed" || stop.status === "cancelled"
      ? (`run.${stop.status}` as const)
      : "run.failed";
  return { type, runId, status: stop.status, ...(stop.reason === undefined ? {} : { reason: stop.reason }), at: Date.now() };
}
