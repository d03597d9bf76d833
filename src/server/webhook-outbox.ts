import { updateValue, type CheckpointStore } from "../journal/checkpoint-store.js";
import { leaseOwnerIsGone } from "../journal/lease-owner.js";

/**
 * The webhooks still to deliver, kept in the store before the first try: a server killed with
 * tries left has them delivered after it (or another server on the store) starts again. Each
 * entry is claimed by the server delivering it, until `claimedUntil` (pushed past each wait);
 * an entry whose claim ran out, or whose owner is a process of this host that is gone, is free
 * to claim. Delivery is at least once: a receiver knows a repeat by the payload's `id`.
 */
export interface OutboxEntry {
  /** The delivery's id, also the payload's `id`. */
  id: string;
  url: string;
  payload: unknown;
  /** Tries made so far. */
  tried: number;
  /** When the next try is due (ms since 1970). */
  nextAt: number;
  /** The server delivering it (`leaseOwnerName()`), and until when its claim holds. */
  owner?: string | undefined;
  claimedUntil?: number | undefined;
}

const outboxKey = "planloop:serve:webhook-outbox";

function entriesOf(current: unknown): OutboxEntry[] {
  return Array.isArray(current) ? (current as OutboxEntry[]) : [];
}

/** Keeps a delivery to make, claimed by `entry.owner`. */
export async function addToOutbox(store: CheckpointStore, entry: OutboxEntry): Promise<void> {
  await updateValue(store, outboxKey, (current) => [...entriesOf(current), entry]);
}

/**
 * Claims the deliveries that are due and free (never claimed, claim run out, owner gone), at
 * most `limit`, for `owner` until `at + claimMs`; returns them. One update: of two servers
 * sweeping at once, each entry goes to one.
 */
export async function claimDue(
  store: CheckpointStore,
  claim: { owner: string; at: number; claimMs: number; limit: number; skip?: ReadonlySet<string> },
): Promise<OutboxEntry[]> {
  const claimed: OutboxEntry[] = [];
  await updateValue(store, outboxKey, (current) =>
    entriesOf(current).map((entry) => {
      const free =
        entry.owner === undefined || (entry.claimedUntil ?? 0) < claim.at || (entry.owner !== claim.owner && leaseOwnerIsGone(entry.owner));
      if (claimed.length >= claim.limit || entry.nextAt > claim.at || !free || claim.skip?.has(entry.id)) return entry;
      const taken = { ...entry, owner: claim.owner, claimedUntil: claim.at + claim.claimMs };
      claimed.push(taken);
      return taken;
    }),
  );
  return claimed;
}

/** After a failed try: tried once more, the next due at `nextAt`, still claimed by `owner` until past it. */
export async function triedAgain(
  store: CheckpointStore,
  change: { id: string; owner: string; tried: number; nextAt: number; claimMs: number },
): Promise<void> {
  await updateValue(store, outboxKey, (current) =>
    entriesOf(current).map((entry) =>
      entry.id === change.id && entry.owner === change.owner
        ? { ...entry, tried: change.tried, nextAt: change.nextAt, claimedUntil: change.nextAt + change.claimMs }
        : entry,
    ),
  );
}

/** Delivered, or given up after its last try: out of the outbox. */
export async function removeFromOutbox(store: CheckpointStore, id: string): Promise<void> {
  await updateValue(store, outboxKey, (current) => entriesOf(current).filter((entry) => entry.id !== id));
}

/** A server stopping gives its claims up: the next to sweep delivers them. */
export async function releaseClaims(store: CheckpointStore, owner: string): Promise<void> {
  await updateValue(store, outboxKey, (current) =>
    entriesOf(current).map((entry) => (entry.owner === owner ? { ...entry, owner: undefined, claimedUntil: undefined } : entry)),
  );
}

/** What the outbox holds (for a page or a test). */
export async function outboxEntries(store: CheckpointStore): Promise<OutboxEntry[]> {
  return entriesOf(await store.getValue(outboxKey));
}
