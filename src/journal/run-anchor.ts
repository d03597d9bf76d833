import { InvalidOptionsError, StoreError } from "../core/errors.js";
import { isRecord } from "../core/is-record.js";
import { sameSecretText } from "../trust/keyed-hash.js";
import { defaultSecretKeys } from "../trust/secrets.js";
import type { CheckpointStore } from "./checkpoint-store.js";
import { protectStore } from "./protected-store.js";

/*
 * A run kept with a `stateSecret` is signed entry by entry, so what is in the store cannot be
 * changed or forged without the secret. It can be rolled back: whoever can write to the store
 * can put back an older row and journal, all of them signed, and make a finished run read as
 * running again (it would then run its last steps again). Nothing inside the store can tell; an
 * anchor kept outside it can. `runAnchor` is a finished run's last signature; keep it where the
 * store's writers cannot (your own database, the report it produced), and `checkRunAnchor`
 * before trusting the run again.
 */

export interface AnchorOptions {
  store: CheckpointStore;
  runId: string;
  /** The secret the run was kept with. */
  stateSecret: string;
}

/** The anchor of a finished, signed run: the signature its result closes the journal's chain with. */
export async function runAnchor(options: AnchorOptions): Promise<string> {
  const { store, runId } = options;
  const run = await verified(options);
  if (run === undefined) throw new InvalidOptionsError(`there is no run "${runId}" in ${store.location ?? "the store"}`);
  if (run.status !== "finished") throw new InvalidOptionsError(`run "${runId}" has not finished: only a finished run has an anchor`);
  const signature = isRecord(run.result) ? run.result.journalSignature : undefined;
  if (typeof signature !== "string") throw new InvalidOptionsError(`run "${runId}" was not kept with a stateSecret: it has no signatures`);
  return signature;
}

/**
 * Checks that the store still holds the finished run the anchor was taken from: not rolled
 * back to an earlier point, not replaced. Throws a `StoreError` saying what it found.
 */
export async function checkRunAnchor(options: AnchorOptions & { anchor: string }): Promise<void> {
  const { store, runId, anchor } = options;
  const run = await verified(options);
  const refused = (problem: string) => new StoreError({ store: store.location, runId, problem });
  if (run === undefined) throw refused("the run the anchor was taken from is gone from the store");
  if (run.status !== "finished")
    throw refused("the run the anchor was taken from finished, and the store holds it running: it was rolled back");
  const signature = isRecord(run.result) ? run.result.journalSignature : undefined;
  if (typeof signature !== "string" || !sameSecretText(signature, anchor))
    throw refused("the store holds another end of the run than the one the anchor was taken from: it was rolled back or replaced");
}

/** The stored run with every signature checked (a forged or changed entry throws), as it is stored. */
async function verified(options: AnchorOptions) {
  const { store, runId, stateSecret } = options;
  await protectStore(store, { secret: stateSecret, secretKeys: defaultSecretKeys, given: new Map() }).getRun(runId);
  return store.getRun(runId);
}
