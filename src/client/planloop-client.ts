import { createParser } from "eventsource-parser";
import type {
  ApiError,
  DecisionAnswer,
  DecisionRequest,
  GrantAnswer,
  GrantRequest,
  RunList,
  RunView,
  StartRunAnswer,
  StartRunRequest,
  StreamEvent,
} from "./api-types.js";

export interface ClientOptions {
  /** The server's address, e.g. `http://127.0.0.1:4545`. */
  url: string;
  /** A bearer token (`planloop serve tokens add`, or the session token serve prints). */
  token: string;
  fetch?: typeof fetch;
}

export interface StreamOptions {
  /** Go on after this event (a `StreamEvent.id` seen before, e.g. before a reload). */
  lastEventId?: string | undefined;
  signal?: AbortSignal | undefined;
  /** How many times a dropped connection is opened again, from the last event seen. Default 5. */
  reconnects?: number | undefined;
}

/** A refused request: its HTTP status and the server's `{ error, field?, ids? }`. */
export class PlanloopApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiError,
  ) {
    super(`${status}: ${body.error}`);
    this.name = "PlanloopApiError";
  }
}

export interface PlanloopClient {
  start(request: StartRunRequest): Promise<StartRunAnswer>;
  get(runId: string): Promise<RunView>;
  list(query?: { limit?: number; status?: string }): Promise<RunList>;
  cancel(runId: string): Promise<{ runId: string; status: string }>;
  /**
   * Reruns from a step: a new run, the steps before it reused, started at once. The same fork
   * asked again with its `runId` (a retry) answers `created: false` and starts nothing.
   */
  fork(
    runId: string,
    request: { step: string | number; args?: unknown; plan?: unknown; runId?: string },
  ): Promise<{ runId: string; created: true; rerun: string[]; reused: string[] } | { runId: string; created: false }>;
  /** One decision, or a wave of them: taken all together or not at all. */
  decide(runId: string, decisions: DecisionRequest | DecisionRequest[]): Promise<DecisionAnswer>;
  /** Approves the tool's later calls in this run (or its schedule's runs) without asking, and what waits now. */
  grant(runId: string, grant: GrantRequest): Promise<GrantAnswer>;
  sendEvent(name: string, event?: { id?: string; runId?: string; data?: unknown }): Promise<{ id: string }>;
  /**
   * The run's events until it ends; a dropped connection is opened again from the last event
   * seen, so none is lost and none comes twice. Ends when the run does.
   */
  stream(runId: string, options?: StreamOptions): AsyncGenerator<StreamEvent, { status: string } | undefined>;
}

/**
 * A client for the run server (docs/server.md).
 *
 * @example
 * const client = planloopClient({ url: "http://127.0.0.1:4545", token: process.env.PLANLOOP_TOKEN! });
 * const { runId } = await client.start({ task: "Write this week's report", strategy: "plan-and-execute" });
 * for await (const event of client.stream(runId)) console.log(event.type);
 */
export function planloopClient(options: ClientOptions): PlanloopClient {
  const base = options.url.replace(/\/+$/, "");
  const send = options.fetch ?? fetch;
  const headers = { authorization: `Bearer ${options.token}` };
  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await send(`${base}${path}`, {
      method,
      headers: body === undefined ? headers : { ...headers, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const answer = (await response.json().catch(() => ({ error: `${response.status} ${response.statusText}` }))) as unknown;
    if (!response.ok) throw new PlanloopApiError(response.status, answer as ApiError);
    return answer as T;
  }
  const run = (runId: string) => `/api/runs/${encodeURIComponent(runId)}`;
  return {
    start: (request) => call("POST", "/api/runs", request),
    get: (runId) => call("GET", run(runId)),
    list: (query = {}) => {
      const search = new URLSearchParams(Object.entries(query).map(([key, value]): [string, string] => [key, String(value)]));
      return call("GET", `/api/runs${search.size > 0 ? `?${search}` : ""}`);
    },
    cancel: (runId) => call("POST", `${run(runId)}/cancel`, {}),
    fork: (runId, request) => call("POST", `${run(runId)}/fork`, request),
    decide: (runId, decisions) => call("POST", `${run(runId)}/decisions`, decisions),
    grant: (runId, grant) => call("POST", `${run(runId)}/decisions`, { grant }),
    sendEvent: (name, event = {}) => call("POST", `/api/events/${encodeURIComponent(name)}`, event),
    stream: (runId, streamOptions = {}) => follow({ url: `${base}${run(runId)}/stream`, headers, send }, streamOptions),
  };
}

async function* follow(
  target: { url: string; headers: Record<string, string>; send: typeof fetch },
  options: StreamOptions,
): AsyncGenerator<StreamEvent, { status: string } | undefined> {
  let lastEventId = options.lastEventId;
  let reconnects = options.reconnects ?? 5;
  for (;;) {
    const response = await target.send(target.url, {
      headers: { ...target.headers, accept: "text/event-stream", ...(lastEventId === undefined ? {} : { "last-event-id": lastEventId }) },
      ...(options.signal ? { signal: options.signal } : {}),
    });
    if (!response.ok || response.body === null) {
      const body = (await response.json().catch(() => ({ error: response.statusText }))) as ApiError;
      throw new PlanloopApiError(response.status, body);
    }
    const queue: Array<{ event?: string | undefined; data: string }> = [];
    const parser = createParser({ onEvent: (message) => queue.push(message) });
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        parser.feed(decoder.decode(chunk, { stream: true }));
        while (queue.length > 0) {
          const message = queue.shift()!;
          if (message.event === "end") return JSON.parse(message.data) as { status: string };
          const event = JSON.parse(message.data) as StreamEvent;
          lastEventId = event.id;
          yield event;
        }
      }
    } catch (error) {
      if (options.signal?.aborted || reconnects <= 0) throw error;
    }
    // The connection closed before the run's end: open it again from the last event seen.
    if (options.signal?.aborted) return undefined;
    if (reconnects <= 0) throw new Error("the stream closed before the run ended, and no reconnect is left");
    reconnects -= 1;
  }
}
