import { payloadOf, Webhooks } from "../../server/webhooks.js";
import { CliError } from "../cli-error.js";
import type { CheckpointStore } from "../../journal/checkpoint-store.js";
import type { RunServer } from "../../server/start-server.js";

/** What `planloop serve` signs its webhooks with and sends every one to: PLANLOOP_WEBHOOK_SECRET and --webhook. */
export interface WebhookSettings {
  secret: string;
  url?: string | undefined;
}

/** The webhook settings of `planloop serve`, or none without a secret; --webhook without one is refused. */
export function webhookSettings(flags: { webhook?: string | undefined }): WebhookSettings | undefined {
  const secret = process.env.PLANLOOP_WEBHOOK_SECRET || undefined;
  if (flags.webhook !== undefined && secret === undefined)
    throw new CliError("--webhook needs PLANLOOP_WEBHOOK_SECRET: the secret its requests are signed with (16 characters or more)");
  return secret === undefined ? undefined : { secret, ...(flags.webhook === undefined ? {} : { url: flags.webhook }) };
}

/** Sends the run.failed webhook of a schedule's run that could not start; `close` lets the tries under way end. */
export interface FailedStartWebhooks {
  send(failure: { runId: string; reason: string }): void;
  close(): Promise<void>;
}

/**
 * Where a schedule's run that could not start is told to --webhook: through the API's server when
 * serve has one (--port), which sends its own runs' there; else through an outbox of serve's own
 * over the store, kept and tried as the server's are. Without --webhook, nowhere.
 */
export function failedStartWebhooks(
  served: { store: CheckpointStore; server: RunServer | undefined },
  settings: WebhookSettings | undefined,
): FailedStartWebhooks {
  const url = settings?.url;
  if (url === undefined) return { send: () => {}, close: async () => {} };
  const { server } = served;
  if (server !== undefined)
    return { send: ({ runId, reason }) => void server.sendWebhook(runId, { status: "failed", reason }), close: async () => {} };
  const webhooks = new Webhooks(served.store, { secret: settings!.secret });
  return {
    send: ({ runId, reason }) => {
      const payload = payloadOf(runId, { status: "failed", reason });
      if (payload !== undefined) webhooks.send(url, payload);
    },
    close: () => webhooks.close(),
  };
}
