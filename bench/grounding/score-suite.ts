import { readFileSync } from "node:fs";
import { checkClaims } from "../../src/grounding/check-claims.js";
import type { CheckedClaim } from "../../src/grounding/claim-report.js";
import type { SlotRecord, SuiteCase } from "./suite-writer.js";

export interface SuiteScore {
  cases: number;
  wrong: number;
  wrongFlagged: number;
  correct: number;
  correctFlagged: number;
  /** Figures the checker read no claim from. */
  unread: number;
  /** Claims the checker read that are no figure the suite wrote (words it took for figures). */
  extra: number;
  /** Of those, how many were flagged: under strict mode each takes its sentence out. */
  extraFlagged: number;
  misses: Array<{ case: string; slot: SlotRecord; sentence: string; claim?: CheckedClaim }>;
  falseFlags: Array<{ case: string; slot: SlotRecord; claim: CheckedClaim }>;
}

export function readSuite(path: string): SuiteCase[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as SuiteCase);
}

/** Checks every case's answer and compares each slot's verdict with whether it was planted wrong. */
export function scoreSuite(cases: readonly SuiteCase[]): SuiteScore {
  const score: SuiteScore = {
    cases: cases.length,
    wrong: 0,
    wrongFlagged: 0,
    correct: 0,
    correctFlagged: 0,
    unread: 0,
    extra: 0,
    extraFlagged: 0,
    misses: [],
    falseFlags: [],
  };
  for (const item of cases) {
    const report = checkClaims(item.answer, item.steps, { task: item.task });
    const used = new Set<CheckedClaim>();
    for (const slot of item.slots) {
      const claims = report.claims.filter((claim) => claim.start < slot.end && claim.end > slot.start);
      claims.forEach((claim) => used.add(claim));
      const flagged = claims.some((claim) => claim.status === "unsupported");
      if (claims.length === 0) score.unread += 1;
      if (slot.wrong) {
        score.wrong += 1;
        if (flagged) score.wrongFlagged += 1;
        else {
          const sentence = report.sentences.find((candidate) => candidate.start <= slot.start && candidate.end >= slot.end)?.text ?? "";
          score.misses.push({ case: item.id, slot, sentence, ...(claims[0] ? { claim: claims[0] } : {}) });
        }
      } else {
        score.correct += 1;
        if (flagged) {
          score.correctFlagged += 1;
          score.falseFlags.push({ case: item.id, slot, claim: claims.find((claim) => claim.status === "unsupported")! });
        }
      }
    }
    const extra = report.claims.filter((claim) => !used.has(claim));
    score.extra += extra.length;
    score.extraFlagged += extra.filter((claim) => claim.status === "unsupported").length;
  }
  return score;
}
