import { updateValue, type CheckpointStore, type RunSummary } from "../journal/checkpoint-store.js";
import { isRecord } from "../core/is-record.js";
import { childrenOf, lastPause, pendingOf } from "../strategies/stored-runs.js";
import { argumentsMatch, GrantError, grantPattern } from "./grant-pattern.js";

export { GrantError };

/**
 * A standing grant: a person's approval, given once, of a tool's later calls (those whose
 * arguments hold `args`' values) within one run, or within every run of one schedule, until it
 * expires. Kept in the store, with who gave it and when. Which schedule a run belongs to is its
 * recorded origin (`RunOrigin.schedule`), never its id.
 */
export interface StandingGrant {
  tool: string;
  /** The arguments a call must have (each key's JSON value equal, `argumentsMatch`); none: any call of the tool. */
  args?: Record<string, unknown> | undefined;
  scope: "run" | "schedule";
  /** The run, or the schedule, it holds in. */
  within: string;
  expiresAt: number;
  by: string;
  at: number;
}

/** What a grant's scope is decided by: the run's id and recorded origin (a row of `listRuns`). */
type GrantedRun = Pick<RunSummary, "runId" | "origin">;

const grantsKey = (scope: StandingGrant["scope"], within: string) => `planloop:serve:grants:${scope}:${within}`;

async function kept(store: CheckpointStore, key: string): Promise<StandingGrant[]> {
  return grantsIn(await store.getValue(key));
}

/** The grants a store value holds, read as input: a malformed one is left out, never read as wider. */
function grantsIn(value: unknown): StandingGrant[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (grant): grant is StandingGrant =>
      isRecord(grant) &&
      typeof grant.tool === "string" &&
      (grant.scope === "run" || grant.scope === "schedule") &&
      typeof grant.within === "string" &&
      typeof grant.expiresAt === "number" &&
      (grant.args === undefined || isRecord(grant.args)),
  );
}

/** The schedule a run's recorded origin names, if a schedule started it. */
function scheduleOf(run: GrantedRun): string | undefined {
  return run.origin?.schedule?.name;
}

/**
 * Keeps a grant for the run (`scope: "run"`) or for the schedule that started it (by its
 * recorded origin); refused for a run no schedule started, for an unknown run, and for an
 * `args` pattern that cannot be kept exactly as given.
 */
export async function addGrant(
  store: CheckpointStore,
  runId: string,
  grant: {
    tool: string;
    args?: unknown;
    scope: StandingGrant["scope"];
    expiresInMs: number;
    by: string;
    at: number;
  },
): Promise<StandingGrant> {
  const args = grant.args === undefined ? undefined : grantPattern(grant.args);
  const [run] = await store.listRuns({ runId, limit: 1 });
  if (run === undefined) throw new GrantError(`there is no run "${runId}"`, "runId");
  const within = grant.scope === "run" ? runId : scheduleOf(run);
  if (within === undefined)
    throw new GrantError(`run "${runId}" was not started by a schedule: a grant for it has scope "run"`, "grant.scope");
  const made: StandingGrant = {
    tool: grant.tool,
    ...(args === undefined ? {} : { args }),
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

/** Whether a run (a row of `listRuns`) may be covered by a standing grant at `now`: its own, or its schedule's, from one value. */
export async function grantTargets(store: CheckpointStore, now: number): Promise<(run: GrantedRun) => boolean> {
  const kept = await store.getValue(targetsKey);
  const targets = (Array.isArray(kept) ? (kept as GrantTarget[]) : []).filter((target) => target.expiresAt > now);
  const runs = new Set(targets.filter((target) => target.scope === "run").map((target) => target.within));
  const schedules = new Set(targets.filter((target) => target.scope === "schedule").map((target) => target.within));
  return (run) => {
    const schedule = scheduleOf(run);
    return runs.has(run.runId) || (schedule !== undefined && schedules.has(schedule));
  };
}

/** What the run waits for now that a standing grant covers: the pending ids, each with who gave its grant. */
export async function coveredByGrants(store: CheckpointStore, runId: string, now: number): Promise<Array<{ id: string; by: string }>> {
  const run = await store.getRun(runId);
  if (run === undefined || run.status === "finished") return [];
  const grants = await grantsFor(store, run, now);
  if (grants.length === 0) return [];
  const paused = lastPause(run, await childrenOf(store, runId));
  return (paused === undefined ? [] : pendingOf(paused)).flatMap((item) => {
    const grant = grantFor(grants, item as { kind?: string; name?: string; arguments?: unknown });
    return grant === undefined ? [] : [{ id: item.id, by: grant.by }];
  });
}

/** The grants that hold for the run at `now`: its own, and those of the schedule its origin names. */
export async function grantsFor(store: CheckpointStore, run: GrantedRun, now: number): Promise<StandingGrant[]> {
  const schedule = scheduleOf(run);
  const all = [
    ...(await kept(store, grantsKey("run", run.runId))),
    ...(schedule === undefined ? [] : await kept(store, grantsKey("schedule", schedule))),
  ];
  return all.filter((grant) => grant.expiresAt > now);
}

/** The grant that approves a pending call, if one does: same tool, and the call's arguments hold its pattern. */
export function grantFor(
  grants: readonly StandingGrant[],
  pending: { kind?: string; name?: string; tool?: string; arguments?: unknown },
): StandingGrant | undefined {
  if (pending.kind !== "approval") return undefined;
  const tool = pending.name ?? pending.tool;
  return grants.find((grant) => grant.tool === tool && argumentsMatch(grant.args, pending.arguments ?? {}));
}
