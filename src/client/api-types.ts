// The run server's wire shapes (docs/server.md), named by the server (src/server/) and the client
// (planloop/client) alike. This file imports nothing: the client stays small and runs anywhere
// fetch does.

/** What a token may do: `read` runs and streams; `decide` also decides; `run` also starts, cancels and sends events; `admin` all. */
export type ApiScope = "read" | "decide" | "run" | "admin";

/** `POST /api/runs`: a fixed plan, or a task for a strategy. */
export type StartRunRequest =
  | { plan: unknown; runId?: string; webhook?: string }
  | {
      task: string;
      strategy?: "react" | "plan-and-execute" | "rewoo" | "llm-compiler" | "code";
      runId?: string;
      /** Also POST this run's webhooks here (docs/server.md#webhooks). */
      webhook?: string;
      /** Limits for the whole run (`BudgetLimits`): maxModelCalls, maxTokens, maxCostUsd, maxToolCalls, deadlineMs. */
      budget?: Record<string, number>;
      /** How the answer's figures are checked against the steps (docs/grounded-reports.md): flag (default), repair, strict, off. */
      grounding?: "flag" | "repair" | "strict" | "off";
    };

export interface StartRunAnswer {
  runId: string;
  /** False when a run with this id was there already (a retried request starts nothing twice). */
  created: boolean;
}

/** Something a run waits for a person on. */
export interface PendingItem {
  /** What a decision names as its `pendingId`. */
  id: string;
  kind: string;
  [field: string]: unknown;
}

/** `GET /api/runs/:id`. */
export interface RunView {
  runId: string;
  entry: string;
  /** running, waiting, completed, failed, cancelled, … */
  status: string;
  createdAt: number;
  updatedAt: number;
  /** What it waits for, while it waits. */
  pending: PendingItem[];
  /** The decisions it was given: on what, which, when, and by whom (the token's name). */
  decisions: Array<{ run: string; id: string; decision: unknown; at?: number; by?: string }>;
  /** Where the run came from, as its row records it (never read from its id): the schedule and fire time that started it, the run and step it was forked from, the API client (token name) that started it. */
  origin?: {
    schedule?: { name: string; fireAt: number } | undefined;
    forkedFrom?: { runId: string; step: string } | undefined;
    client?: string | undefined;
  };
  /** The run's result, once it finished. */
  result?: unknown;
  /** Each try of each webhook of the run (docs/server.md#webhooks), once there was one. */
  webhooks?: Array<{ type: string; url: string; attempt: number; at: number; outcome: number | string; delivered: boolean }>;
}

/** `GET /api/runs`. */
export interface RunList {
  runs: Array<{
    runId: string;
    entry: string;
    status: string;
    /** A completed run whose answer has this many claims its steps do not support (docs/grounded-reports.md). */
    unsupportedClaims?: number;
    createdAt: number;
    updatedAt: number;
  }>;
}

/** A person's decision on one pending item. */
export type DecisionRequest =
  | { pendingId: string; action: "approve" }
  | { pendingId: string; action: "deny"; reason?: string | undefined }
  | { pendingId: string; action: "answer"; text: string }
  /** A plan under review, approved as edited. */
  | { pendingId: string; action: "edit"; plan: unknown };

/** A standing grant: approve `tool`'s later calls (those whose arguments hold `args`) in this run, or in every run of its schedule. */
export interface GrantRequest {
  tool: string;
  args?: Record<string, unknown>;
  scope: "run" | "schedule";
  expiresInMs: number;
}

export interface GrantAnswer {
  /** The grant as kept: when it expires (`expiresAt`), not for how long it was asked. */
  grant: Omit<GrantRequest, "expiresInMs"> & { within: string; expiresAt: number; by: string; at: number };
  /** What the run waited for that the grant approved at once. */
  decided: string[];
}

export interface DecisionAnswer {
  /** The ids decided, in the order given. */
  decided: string[];
  /** The run goes on in the server's process; follow it on its stream. */
  continued: boolean;
}

/** An event of a run's stream (`GET /api/runs/:id/stream`): planloop's own event, with the run that wrote it. */
export interface StreamEvent {
  /** The stream's position after this event: send it back as `Last-Event-ID` to go on from here. */
  id: string;
  /** The run (or the run kept inside it: a plan, an agent step's loop) whose journal holds it. */
  run: string;
  type: string;
  [field: string]: unknown;
}

/** What every refused request answers. */
export interface ApiError {
  error: string;
  /** For a refused decision or wave: the ids of the bad items. */
  ids?: string[];
  /** For a refused decision or wave: what is wrong with each bad item (nothing of it was decided). */
  problems?: Array<{ pendingId: string; problem: string; message: string; errors?: string[] }>;
  /** For a bad body: where in it. */
  field?: string;
}
