import type { BudgetLimits } from "../core/budget.js";
import { PlanloopError } from "../core/errors.js";
import { derivedKey, sameSecretText, signValue } from "../trust/keyed-hash.js";
import { defaultSecretKeys, replaceSecrets } from "../trust/secrets.js";
import { openStandIns, seal, sealedField, unseal } from "../trust/store-sealing.js";
import { updateValue, type CheckpointStore, type RunOrigin } from "../journal/checkpoint-store.js";
import { isPromiseLike } from "../core/maybe-async.js";
import { RunLease } from "../journal/run-lease.js";
import { leaseOwnerName } from "../journal/lease-owner.js";
import type { RunDecisions } from "./decide-run.js";
import type { StrategyName } from "../strategies/strategy-result.js";
import type { GroundingChoice } from "../grounding/grounding-gate.js";

/** How `planloop serve`'s run host started a run, kept in the store: it continues the run the same way after a decision or a restart. */
export type HostedRequest =
  | { kind: "plan"; plan: unknown; webhook?: string | undefined }
  | {
      kind: "task";
      task: string;
      strategy: StrategyName;
      budget?: BudgetLimits | undefined;
      webhook?: string | undefined;
      /** The answer's grounding policy (`off`: none); the strategy's default ("flag") when absent. */
      grounding?: GroundingChoice | undefined;
    };

/** What a run host is asked to start: a plan, or a task for a strategy (the HTTP API's and MCP's bodies, read). */
export type StartRun =
  | { plan: unknown; runId?: string | undefined; webhook?: string | undefined }
  | {
      task: string;
      strategy: StrategyName;
      runId?: string | undefined;
      webhook?: string | undefined;
      grounding?: GroundingChoice | undefined;
      budget?:
        | {
            maxTokens?: number | undefined;
            maxCostUsd?: number | undefined;
            maxToolCalls?: number | undefined;
            deadlineMs?: number | undefined;
          }
        | undefined;
    };

/** A run host's answer to a start: the run's id, and whether this call made it (`false`: it was there already). */
export interface StartedRun {
  runId: string;
  created: boolean;
}

/** What a request to a run host got wrong: the message, and the field it is about (`plan`, `task`). */
export class RunRequestError extends Error {
  constructor(
    message: string,
    readonly field: string,
  ) {
    super(message);
    this.name = "RunRequestError";
  }
}

const requestKey = (runId: string) => `planloop:serve:run:${runId}`;

/**
 * How a run host started the run; undefined for a run no run host started (the CLI's, a
 * program's). With the host's `secret`, what is kept must carry its signature: a plan or a
 * webhook changed in the store by anyone without the secret is refused (`TamperedRequestError`),
 * never run or called.
 */
export async function hostedRequest(store: CheckpointStore, runId: string, secret?: string): Promise<HostedRequest | undefined> {
  const kept = (await store.getValue(requestKey(runId))) as (HostedRequest & { signature?: unknown }) | null | undefined;
  if (kept?.kind !== "plan" && kept?.kind !== "task") return undefined;
  const { signature, ...request } = kept;
  if (secret === undefined) return request;
  if (!sameSecretText(signature, signatureOf(secret, runId, request))) throw new TamperedRequestError(runId);
  const key = sealKey(secret);
  return openStandIns(request, (found) => (found.field === sealedField ? unseal(found.text, key) : undefined)) as HostedRequest;
}

/**
 * Keeps how a run host started the run. With the host's `secret`, the values under secret keys
 * (`apiKey`, `password`, … in the plan's arguments) are kept sealed, and the whole is signed.
 */
export async function keepHostedRequest(store: CheckpointStore, runId: string, request: HostedRequest, secret?: string): Promise<void> {
  const kept = keptHostedRequest(runId, request, secret);
  await store.setValue(kept.key, kept.value);
}

/** The value `keepHostedRequest` keeps, and under which key: sealed and signed with the host's `secret` when it has one. */
export function keptHostedRequest(runId: string, request: HostedRequest, secret?: string): { key: string; value: unknown } {
  if (secret === undefined) return { key: requestKey(runId), value: request };
  const key = sealKey(secret);
  const sealed = replaceSecrets(request, defaultSecretKeys, (value) => seal(value, key)) as HostedRequest;
  return { key: requestKey(runId), value: { ...sealed, signature: signatureOf(secret, runId, sealed) } };
}

function sealKey(secret: string): Buffer {
  return derivedKey(secret, "planloop hosted request seal");
}

/** A run host's new run: made by this call, with its lease when the same commit took it (see `createHostedRun`). */
export type CreatedHostedRun = { created: false } | { created: true; lease: RunLease | undefined };

/**
 * Creates the run and keeps how it was started: one commit on a store that batches writes
 * (SQLite), so a run is never found without its request; else the two one after the other.
 * On such a store the run's lease is taken in that commit too (`RunLease.ofNewRun`): the run
 * is its host's from the moment it exists, and opening it costs no commit and no read back.
 */
export async function createHostedRun(
  store: CheckpointStore,
  run: { runId: string; entry: string; at: number; origin: RunOrigin | undefined },
  request: HostedRequest,
  secret: string | undefined,
): Promise<CreatedHostedRun> {
  if (store.batch === undefined) {
    if ((await store.createRun(run)) === "exists") return { created: false };
    await keepHostedRequest(store, run.runId, request, secret);
    return { created: true, lease: undefined };
  }
  const kept = keptHostedRequest(run.runId, request, secret);
  // A store that answers later after all (a wrapper that waits) gets the two one after the other, and no lease.
  let later: PromiseLike<CreatedHostedRun> | undefined;
  const created = store.batch((): CreatedHostedRun => {
    const answer = store.createRun(run);
    if (isPromiseLike(answer)) {
      later = Promise.resolve(answer).then(async (created) =>
        created === "created" ? (await store.setValue(kept.key, kept.value), { created: true, lease: undefined }) : { created: false },
      );
      return { created: false };
    }
    if (answer === "exists") return { created: false };
    const set = store.setValue(kept.key, kept.value);
    if (isPromiseLike(set)) {
      later = Promise.resolve(set).then(() => ({ created: true, lease: undefined }));
      return { created: false };
    }
    return { created: true, lease: leaseOfNewRun(store, run) };
  });
  return later ?? created;
}

/**
 * The lease of a run created in this batch, asked of the store in it; undefined when the store
 * counts leases on a clock of its own or answers later (the run then takes its lease as it opens).
 */
function leaseOfNewRun(store: CheckpointStore, run: { runId: string; entry: string; at: number }): RunLease | undefined {
  if (store.now !== undefined) return undefined;
  const answer = store.acquireLease(run.runId, { owner: leaseOwnerName(), ttlMs: RunLease.defaultTtlMs, at: Date.now() });
  if (isPromiseLike(answer) || answer.kind !== "acquired") return undefined;
  return RunLease.ofNewRun(store, run.runId, { token: answer.token, entry: run.entry });
}

/** How a hosted run was started, as kept, does not carry the host's signature: it was changed, or kept without the secret. */
export class TamperedRequestError extends PlanloopError {
  constructor(readonly runId: string) {
    super(
      `how run "${runId}" was started is not signed with this server's secret (PLANLOOP_SERVER_SECRET): it was changed in the store, ` +
        "or kept by a server without that secret; it is not continued. Start it again, or continue it from a server with the secret it was started with",
    );
    this.name = "TamperedRequestError";
  }
}

function signatureOf(secret: string, runId: string, request: HostedRequest): string {
  return signValue(derivedKey(secret, "planloop hosted request"), `hosted-request:${runId}`, request);
}

const decidedKey = (runId: string) => `planloop:serve:decided:${runId}`;

/**
 * Keeps people's decisions on a hosted run from the moment they are answered as taken until the
 * run has gone on with them: a server killed while the run waited for a place among its runs
 * leaves them for the server that adopts the run. Signed with the host's `secret` when it has
 * one, so a store writer cannot plant an approval.
 */
export async function keepDecided(store: CheckpointStore, runId: string, decided: RunDecisions, secret?: string): Promise<void> {
  await store.setValue(
    decidedKey(runId),
    secret === undefined ? decided : { ...decided, signature: decidedSignature(secret, runId, decided) },
  );
}

/** The decisions kept for a hosted run that has not gone on with them yet; undefined for none (or, with a secret, none signed). */
export async function keptDecided(store: CheckpointStore, runId: string, secret?: string): Promise<RunDecisions | undefined> {
  const kept = (await store.getValue(decidedKey(runId))) as (RunDecisions & { signature?: unknown }) | null | undefined;
  if (kept === null || kept === undefined || typeof kept !== "object" || !Array.isArray(kept.ids)) return undefined;
  const { signature, ...decided } = kept;
  if (secret !== undefined && !sameSecretText(signature, decidedSignature(secret, runId, decided))) return undefined;
  return decided;
}

/** The run went on with these decisions (`decidedAt` names them): they are kept no longer. */
export async function dropDecided(store: CheckpointStore, runId: string, decidedAt: number): Promise<void> {
  await updateValue(store, decidedKey(runId), (current) =>
    (current as { decidedAt?: unknown } | null | undefined)?.decidedAt === decidedAt ? null : current,
  );
}

function decidedSignature(secret: string, runId: string, decided: RunDecisions): string {
  return signValue(derivedKey(secret, "planloop hosted decisions"), `decided:${runId}`, decided);
}
