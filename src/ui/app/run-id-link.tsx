import { runLink, shortRunId } from "./format.js";

/** A link to a run, its id on one line (a long one cut in the middle), the whole id in its title. */
export function RunIdLink({ runId }: { runId: string }) {
  return (
    <a class="run-id" href={runLink(runId)} title={runId}>
      {shortRunId(runId)}
    </a>
  );
}
