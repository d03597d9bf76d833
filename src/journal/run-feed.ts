/** What a store's change feed tells (`CheckpointStore.watchRuns`): the top-level ids of the runs written to, or `"any"`. */
export type RunChangeListener = (runIds: readonly string[] | "any") => void;

/** A run's top-level id: the run itself, or the run it is kept inside (`<top>/…`). */
export function topRunId(runId: string): string {
  const slash = runId.indexOf("/");
  return slash < 0 ? runId : runId.slice(0, slash);
}
