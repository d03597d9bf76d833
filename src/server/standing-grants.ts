import { isDeepStrictEqual } from "node:util";
import { updateValue, type CheckpointStore } from "../journal/checkpoint-store.js";
import { scheduleOfRun } from "../waits/schedules.js";
import { childrenOf, lastPause, pendingOf } from "../strategies/stored-runs.js";

/**
 * A standing grant: a person's approval, given once, of a tool's later calls (those whose
 * arguments hold `args`' values) within one run, or within every run of one schedule, until it
 * expires. Kept in the store, with who gave it and when.
 */
export interface StandingGrant {
  tool: string;
  /** The arguments a call must have (each key equal, deeply); none: any call of the tool. */
  args?: Record<string, unknown> | undefined;
  scope: "run" | "schedule";
  /** The run, or the schedule, it holds in. */
  within: string;
  expiresAt: number;
  by: string;
  at: number;
}

const grantsKey = (scope: StandingGrant["scope"], within: string) => `planloop:serve:grants:${scope}:${within}`;

async function kept(store: CheckpointStore, key: string): Promise<StandingGrant[]> {
  return grantsIn(await store.getValue(key));
}

function grantsIn(value: unknown): StandingGrant[] {
  return Array.isArray(value) ? (value as StandingGrant[]) : [];
}

/** Keeps a grant for the run (`scope: "run"`) or for the schedule that started it; refused for a run no schedule started. */
export async function addGrant(
  store: CheckpointStore,
  runId: string,
  grant: {
    tool: string;
    args?: Record<string, unknown> | undefined;
    scope: StandingGrant["scope"];
    expiresInMs: number;
    by: string;
    at: number;
  },
): Promise<StandingGrant> {
  const within = grant.scope === "run" ? runId : scheduleOfRun(runId);
  if (within === undefined) throw new GrantError(`run "${runId}" was not started by a schedule: a grant for it has scope "run"`);
  const made: StandingGrant = {
    tool: grant.tool,
    ...(grant.args === undefined ? {} : { args: grant.args }),
    scope: grant.scope,
    within,
    expiresAt: grant.at + grant.expiresInMs,
    by: grant.by,
    at: grant.at,
  };
  const key = grantsKey(grant.scope, within);
  // Expired grants are dropped as new ones come; each list is updated whole (two grants at once both kept).
  await updateValue(store, key, (current) => [...grantsIn(current).filter((old) => old.expiresAt > grant.at), made]);
  await updateValue(store, targetsKey, (current) => {
    const targets = Array.isArray(current) ? (current as GrantTarget[]) : [];
    const others = targets.filter((target) => target.expiresAt > grant.at && !(target.scope === grant.scope && target.within === within));
    const latest = Math.max(
      made.expiresAt,
      ...targets.filter((target) => target.scope === grant.scope && target.within === within).map((target) => target.expiresAt),
    );
    return [...others, { scope: grant.scope, within, expiresAt: latest }];
  });
  return made;
}

/** Which runs and schedules hold a grant now: one look, so a pass over waiting runs reads only theirs. */
type GrantTarget = { scope: StandingGrant["scope"]; within: string; expiresAt: number };
const targetsKey = "planloop:serve:grants:targets";

/** Whether a run may be covered by a standing grant at `now` (its own, or its schedule's), from one value. */
export async function grantTargets(store: CheckpointStore, now: number): Promise<(runId: string) => boolean> {
  const targets = (((await store.getValue(targetsKey)) as GrantTarget[] | undefined) ?? []).filter((target) => target.expiresAt > now);
  const runs = new Set(targets.filter((target) => target.scope === "run").map((target) => target.within));
  const schedules = new Set(targets.filter((target) => target.scope === "schedule").map((target) => target.within));
  return (runId) => runs.has(runId) || schedules.has(scheduleOfRun(runId) ?? "\u0000");
}

/** What the run waits for now that a standing grant covers: the pending ids, each with who gave its grant. */
export async function coveredByGrants(store: CheckpointStore, runId: string, now: number): Promise<Array<{ id: string; by: string }>> {
  const run = await store.getRun(runId);
  if (run === undefined || run.status === "finished") return [];
  const grants = await grantsFor(store, runId, now);
  if (grants.length === 0) return [];
  const paused = lastPause(run, await childrenOf(store, runId));
  return (paused === undefined ? [] : pendingOf(paused)).flatMap((item) => {
    const grant = grantFor(grants, item as { kind?: string; name?: string; arguments?: unknown });
    return grant === undefined ? [] : [{ id: item.id, by: grant.by }];
  });
}

/** The grants that hold for `runId` at `now`: its own, and its schedule's. */
export async function grantsFor(store: CheckpointStore, runId: string, now: number): Promise<StandingGrant[]> {
  const schedule = scheduleOfRun(runId);
  const all = [
    ...(await kept(store, grantsKey("run", runId))),
    ...(schedule === undefined ? [] : await kept(store, grantsKey("schedule", schedule))),
  ];
  return all.filter((grant) => grant.expiresAt > now);
}

/** The grant that approves a pending call, if one does: same tool, and every argument the grant names equal. */
export function grantFor(
  grants: readonly StandingGrant[],
  pending: { kind?: string; name?: string; tool?: string; arguments?: unknown },
): StandingGrant | undefined {
  if (pending.kind !== "approval") return undefined;
  const tool = pending.name ?? pending.tool;
  const given = (pending.arguments ?? {}) as Record<string, unknown>;
  return grants.find(
    (grant) =>
      grant.tool === tool &&
      Object.entries(grant.args ?? {}).every(([key, value]) => Object.hasOwn(given, key) && isDeepStrictEqual(given[key], value)),
  );
}

export class GrantError extends Error {}
