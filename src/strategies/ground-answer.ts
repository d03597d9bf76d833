import type { Model } from "../core/model.js";
import { inTurns } from "../core/turns.js";
import { checkClaimsStepwise, readEvidence } from "../grounding/check-claims.js";
import type { ClaimReport, Provenance } from "../grounding/claim-report.js";
import type { Prompts, StepView } from "../planner/prompts.js";
import { ask, type StrategyRun, type StrategyStop } from "./strategy-run.js";

/** What grounding is given: the answer, the results it rests on, and who may rewrite it. */
export interface GroundingInput {
  output: string;
  stop: StrategyStop;
  results: readonly StepView[];
  /** The model and prompts that wrote the answer, for `repair` and `strict`. */
  answerer: { model: Model; prompts: Prompts };
}

export interface Grounded {
  output: string;
  stop: StrategyStop;
  provenance: Provenance;
}

/**
 * Checks an answer's claims against the results (no model), and, as the policy says, asks
 * for one repair and takes unsupported sentences out. Only a `completed` answer is repaired
 * or cut; any other answer is flagged. Emits `grounding-end` with the counts. The check runs
 * in turns (a long answer over thousands of steps takes seconds): the run's owner keeps
 * renewing its lease meanwhile.
 */
export async function groundAnswer(run: StrategyRun, input: GroundingInput): Promise<Grounded> {
  const policy = run.grounding || "flag";
  const evidence = await inTurns(readEvidence(evidenceOf(input.results)));
  const check = (text: string) => inTurns(checkClaimsStepwise(text, evidence, { task: run.task }));
  let output = input.output;
  let stop = input.stop;
  let report = await check(output);
  let repaired = false;
  let repairSkipped: string | undefined;
  const due = policy !== "flag" && stop.status === "completed" && report.counts.unsupported > 0;
  if (due) {
    const problems = report.claims.flatMap((claim) => (claim.status === "unsupported" ? [claim.reason ?? claim.text] : []));
    const messages = input.answerer.prompts.ground({ task: run.task, results: input.results, answer: output, problems });
    const answer = await ask(run, input.answerer.model, "solve", messages);
    if (!answer.ok) repairSkipped = `the repair call did not run: ${answer.stop.reason ?? answer.stop.status}`;
    else {
      const second = await check(answer.text);
      if (second.counts.unsupported <= report.counts.unsupported) {
        output = answer.text;
        report = second;
        repaired = true;
      } else
        repairSkipped = `the repaired answer had more unsupported claims (${second.counts.unsupported}) than the first (${report.counts.unsupported})`;
    }
  }
  let removed: string[] = [];
  if (policy === "strict" && stop.status === "completed" && report.counts.unsupported > 0) {
    const cut = withoutUnsupported(output, report);
    removed = cut.removed;
    const rest = await check(cut.output);
    if (rest.counts.claims === 0) {
      stop = {
        status: "incomplete",
        reason: `grounding: no sentence with a supported claim is left (${removed.length} taken out as unsupported)`,
      };
    } else {
      output = cut.output;
      report = rest;
    }
  }
  const provenance: Provenance = { policy, ...report, repaired, removed, ...(repairSkipped ? { repairSkipped } : {}) };
  const flagged = report.claims
    .filter((claim) => claim.status === "unsupported")
    .slice(0, 20)
    .map((claim) => ({ text: claim.text, reason: claim.reason ?? "" }));
  run.events.emit({ type: "grounding-end", policy, ...report.counts, repaired, removed: removed.length, flagged });
  return { output, stop, provenance };
}

/** The results claims may rest on: the steps that succeeded. */
function evidenceOf(results: readonly StepView[]): Array<{ id: string; output: unknown }> {
  return results
    .filter((result) => result.status === "succeeded" && result.output !== undefined)
    .map((result) => ({ id: String(result.id), output: result.output }));
}

/** The answer without the sentences that hold an unsupported claim. */
function withoutUnsupported(output: string, report: ClaimReport): { output: string; removed: string[] } {
  const bad = new Set(report.claims.filter((claim) => claim.status === "unsupported").map((claim) => claim.sentence));
  const removed: string[] = [];
  let text = output;
  for (const sentence of [...report.sentences].reverse()) {
    if (!bad.has(sentence.index)) continue;
    removed.unshift(sentence.text);
    let end = sentence.end;
    while (end < text.length && (text[end] === " " || text[end] === "\t")) end += 1;
    text = text.slice(0, sentence.start) + text.slice(end);
  }
  return {
    output: text
      .replace(/[ \t]+\n/g, "\n")
      .replace(/\n{3,}/g, "\n\n")
      .trim(),
    removed,
  };
}

/** An ending with an answer, grounded: its output, stop and provenance as the policy leaves them. */
export async function groundEnding<Ending extends { output?: string; stop: StrategyStop; provenance?: Provenance }>(
  run: StrategyRun,
  ending: Ending,
  input: { results: readonly StepView[]; answerer: GroundingInput["answerer"] },
): Promise<Ending> {
  if (ending.output === undefined || run.grounding === false) return ending;
  const grounded = await groundAnswer(run, { output: ending.output, stop: ending.stop, ...input });
  return { ...ending, output: grounded.output, stop: grounded.stop, provenance: grounded.provenance };
}
