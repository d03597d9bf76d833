import type { ComponentChildren } from "preact";
import type { OutputProvenance } from "./api.js";
import { shown } from "./format.js";

/** Brings a step's row into view and marks it for a moment: the row of the latest plan that has the step. */
function showStep(stepKey: string): void {
  const row = [...document.querySelectorAll(`tr[data-step="${CSS.escape(stepKey)}"]`)].at(-1);
  if (!row) return;
  row.scrollIntoView({ block: "center" });
  row.classList.add("pointed");
  setTimeout(() => row.classList.remove("pointed"), 1500);
}

/** A sentence's text with its claims marked: unsupported ones carry why, as a title. */
function markedSentence(output: string, from: number, to: number, claims: OutputProvenance["claims"]): ComponentChildren[] {
  const parts: ComponentChildren[] = [];
  let at = from;
  for (const claim of claims) {
    if (claim.start < at || claim.end > to) continue;
    parts.push(output.slice(at, claim.start));
    parts.push(
      <mark
        class={`claim ${claim.status}`}
        title={claim.reason ?? (claim.steps.length > 0 ? `from ${claim.steps.map((id) => `s${id}`).join(", ")}` : "")}
      >
        {output.slice(claim.start, claim.end)}
      </mark>,
    );
    at = claim.end;
  }
  parts.push(output.slice(at, to));
  return parts;
}

/**
 * A run's answer, sentence by sentence: each links to the steps its figures come from, and a
 * sentence holding an unsupported figure is marked, the figure too, with why on hover.
 */
export function GroundedOutput({ output, provenance }: { output: string; provenance: OutputProvenance }) {
  const parts: ComponentChildren[] = [];
  let at = 0;
  for (const sentence of provenance.sentences) {
    if (sentence.start < at || sentence.end > output.length) continue;
    parts.push(output.slice(at, sentence.start));
    const claims = provenance.claims.filter((claim) => claim.sentence === sentence.index).sort((a, b) => a.start - b.start);
    const status = claims.some((claim) => claim.status === "unsupported")
      ? "unsupported"
      : claims.some((claim) => claim.status === "uncited")
        ? "uncited"
        : claims.length > 0
          ? "supported"
          : "none";
    const steps = [...new Set([...sentence.cites, ...claims.flatMap((claim) => claim.steps)])].filter((id) => id !== "task");
    parts.push(
      <span class={`sentence ${status}`} data-sentence={sentence.index} data-status={status}>
        {markedSentence(output, sentence.start, sentence.end, claims)}
        {steps.map((id) => (
          <button type="button" class="cite" data-cite={id} onClick={() => showStep(id)}>
            s{id}
          </button>
        ))}
      </span>,
    );
    at = sentence.end;
  }
  parts.push(output.slice(at));
  const { counts } = provenance;
  return (
    <>
      <p class={counts.unsupported > 0 ? "problem" : "note"} data-testid="grounding">
        {counts.unsupported > 0
          ? `${counts.unsupported} of ${counts.claims} claims are not supported by the steps they cite`
          : `All ${counts.claims} claims are supported by the step outputs`}
        {counts.uncited > 0 ? ` (${counts.uncited} found in a step the sentence does not cite)` : ""}.
      </p>
      <pre class="output grounded">{parts}</pre>
    </>
  );
}

/** The answer as plain text, or grounded when the run checked it. */
export function RunOutput({ output, provenance }: { output: unknown; provenance: OutputProvenance | undefined }) {
  if (typeof output === "string" && provenance) return <GroundedOutput output={output} provenance={provenance} />;
  return <pre class="output">{shown(output)}</pre>;
}
