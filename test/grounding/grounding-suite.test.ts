import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { groundingSuite, suitePath, wrongFigures } from "../../bench/grounding/make-suite.js";
import { readSuite, scoreSuite } from "../../bench/grounding/score-suite.js";
import { docsCases } from "../../bench/grounding/docs-cases.js";
import { financeCases } from "../../bench/grounding/finance-cases.js";
import { labelled } from "../../bench/grounding/labelled-cases.js";
import { reportShapesCases } from "../../bench/grounding/report-shapes-cases.js";

describe("the grounding suite (bench/grounding)", () => {
  it("is what its script writes: the same cases on every run", () => {
    const written = readFileSync(suitePath, "utf8");
    expect(
      groundingSuite()
        .map((item) => JSON.stringify(item))
        .join("\n") + "\n",
    ).toBe(written);
  });

  it("flags at least 95% of the planted wrong figures and at most 2% of the correct ones", () => {
    const score = scoreSuite(readSuite(suitePath));
    expect(score.wrong).toBe(wrongFigures);
    expect(score.correct).toBeGreaterThan(1000);
    expect(score.wrongFlagged / score.wrong).toBeGreaterThanOrEqual(0.95);
    expect(score.correctFlagged / score.correct).toBeLessThanOrEqual(0.02);
    // Every figure the suite wrote was read as a claim.
    expect(score.unread).toBe(0);
  });

  it("holds the same targets on the three labelled suites: the docs' promises, company reports, report shapes", () => {
    for (const cases of [docsCases, financeCases, reportShapesCases]) {
      const score = scoreSuite(labelled(cases));
      expect(score.wrong).toBeGreaterThan(15);
      expect(score.correct).toBeGreaterThan(25);
      expect(score.wrongFlagged / score.wrong).toBeGreaterThanOrEqual(0.95);
      expect(score.correctFlagged / score.correct).toBeLessThanOrEqual(0.02);
      expect(score.unread).toBe(0);
      expect(score.extraFlagged).toBe(0);
    }
  });
});
