// The page's side of the JSON API (docs/ui.md): every call carries the token the page was
// opened with, kept for this tab only.
import { useEffect, useRef, useState } from "preact/hooks";

const fromUrl = new URLSearchParams(location.search).get("token");
if (fromUrl !== null) {
  sessionStorage.setItem("planloop-token", fromUrl);
  // The token leaves the address bar (and so any copy of it) once it is kept.
  history.replaceState(null, "", location.pathname + location.hash);
}
const token = () => sessionStorage.getItem("planloop-token") ?? "";

/** A URL of the API with the token in it, for what cannot send a header (the timeline's frame, the event stream). */
/**
 * An API path as the page asks for it: relative to the page, so the page works where it is
 * served, at the root (`planloop ui`) or under a path of its own (`/ui/` of `planloop serve`).
 */
export const here = (path: string) => path.replace(/^\//, "");

export const withToken = (path: string) => `${here(path)}${path.includes("?") ? "&" : "?"}token=${encodeURIComponent(token())}`;

export type { Decision, RunPage, RunRow } from "../api-types.js";
import type { RunRow } from "../api-types.js";

export interface Message {
  role: "system" | "user" | "assistant" | "tool";
  content?: string;
  toolCalls?: Array<{ id: string | number; name: string; arguments?: unknown }>;
  reasoning?: string;
  name?: string;
  toolCallId?: string | number;
}

export interface ModelCall {
  id: string;
  runId: string;
  purpose: string;
  step: number;
  at: number;
  durationMs: number;
  model?: string;
  provider?: string;
  responseFormat?: string;
  tools?: string[];
  messages: Message[];
  incomplete?: true;
  answer?: { text?: string; toolCalls?: Array<{ id: string | number; name: string; arguments?: unknown }>; reasoning?: string };
  error?: string;
  usage?: { inputTokens?: number; outputTokens?: number; costUsd?: number };
}

export interface PendingItem {
  id: string;
  kind: string;
  runId: string;
  entry: string;
  task: string;
  name?: string;
  arguments?: unknown;
  digest?: string;
  question?: string;
  expiresAt?: number;
  planVersion?: number;
  version?: number;
  plan?: { steps: Array<{ id: string | number; task: string; tool?: string; args?: unknown; depends_on?: Array<string | number> }> };
  changes?: { kept: string[]; added: string[]; changed: string[]; dropped: string[] };
  reason?: string;
}

export interface StepDetail {
  runId: string;
  stepKey: string;
  starts: number;
  record?: {
    status?: string;
    output?: unknown;
    error?: string;
    attempts?: number;
    startedAt?: number;
    endedAt?: number;
    /** A code-mode program's call: its tool and the program (1, then each repair) that made it. */
    tool?: string;
    program?: number;
  };
}

/** What the run's grounding found in its answer (a strategy result's `provenance`). */
export interface OutputProvenance {
  policy: string;
  counts: { claims: number; supported: number; unsupported: number; uncited: number };
  sentences: Array<{ index: number; start: number; end: number; cites: string[] }>;
  claims: Array<{
    text: string;
    start: number;
    end: number;
    sentence: number;
    status: "supported" | "unsupported" | "uncited";
    steps: string[];
    reason?: string;
  }>;
}

export interface RunDetail {
  row: RunRow;
  trace: {
    status: string;
    startedAt: number;
    durationMs: number;
    lanes: number;
    /** Only when asked for (`?bars=1`: the comparison draws them; the run page's timeline is trace.html). */
    bars?: Array<{ stepId: string; lane: number; startedAt: number; endedAt: number; status: string; version: number }>;
    modelCalls: Array<{ purpose: string; startedAt: number; endedAt: number }>;
    reason?: string;
    versions: Array<{
      version: number;
      at: number;
      steps: Array<{ id: string; task: string; tool?: string; model?: string; args?: unknown; depends_on?: string[] }>;
    }>;
    replans: Array<{ at: number; reason: string }>;
    pauses: Array<{ at: number; status: string; resumedAt?: number }>;
  };
  modelCalls: ModelCall[];
  /** The first steps (200); the rest come from `/api/runs/:id/steps` a page at a time. */
  steps: StepDetail[];
  stepCount: number;
  pending: PendingItem[];
  decisions: Array<{ runId: string; id: string; decision: unknown }>;
  inner: string[];
  forkedFrom?: { runId: string; step: string };
  result?: { status?: string; output?: unknown; reason?: string; provenance?: OutputProvenance };
  canDecide: boolean;
  continuation?: { state: "continuing" | "continued" | "failed"; error?: string };
}

/** A failed request: the server's message, and its details (an edited plan's problems). */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly details: { problems?: Array<{ message?: string; path?: unknown } | string> },
  ) {
    super(message);
  }
}

export async function api<T>(path: string, body?: unknown): Promise<T> {
  const response = await fetch(here(path), {
    method: body === undefined ? "GET" : "POST",
    headers: { "x-planloop-token": token(), ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const read = (await response.json()) as T & { error?: string };
  if (!response.ok) throw new ApiError(read.error ?? `${response.status}`, response.status, read as never);
  return read;
}

/**
 * Calls `onChange` with the ids of runs that moved, as the server tells (server-sent events),
 * and `onReady` once the server watches for this page: from then on no change is missed, so
 * what the page read before it is read again then.
 */
export function useRunChanges(onChange: (changed: string[]) => void, onReady?: () => void): void {
  useEffect(() => {
    const source = new EventSource(withToken("/api/events"));
    if (onReady) source.addEventListener("ready", () => onReady());
    source.addEventListener("runs", (event) =>
      onChange((JSON.parse((event as MessageEvent<string>).data) as { changed: string[] }).changed),
    );
    return () => source.close();
  }, []);
}

/** Data from the API, loaded again whenever `reloadWhen` says a change matters. */
export function useApi<T>(path: string, reloadWhen: (changed: string[]) => boolean): { data?: T; error?: string; reload(): void } {
  const [state, setState] = useState<{ data?: T; error?: string }>({});
  // The path now (a filter may change it) and whether the server watches for this page yet.
  const current = useRef(path);
  current.current = path;
  const ready = useRef(false);
  const load = () => {
    const asked = current.current;
    return api<T>(asked).then(
      (data) => {
        if (asked === current.current) setState({ data });
      },
      (error: unknown) => setState((before) => ({ ...before, error: String((error as Error).message ?? error) })),
    );
  };
  const start = () => {
    ready.current = true;
    void load();
  };
  // Read once the server watches (nothing that moves after is missed, and a large run is read once); without the stream, after a second.
  useEffect(() => {
    const late = setTimeout(() => ready.current || start(), 1000);
    return () => clearTimeout(late);
  }, []);
  useEffect(() => {
    if (ready.current) void load();
  }, [path]);
  useRunChanges((changed) => {
    if (ready.current && reloadWhen(changed)) void load();
  }, start);
  return { ...state, reload: () => void load() };
}
