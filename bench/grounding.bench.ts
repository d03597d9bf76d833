import { docsCases } from "./grounding/docs-cases.js";
import { financeCases } from "./grounding/finance-cases.js";
import { labelled } from "./grounding/labelled-cases.js";
import { heldOutKindsBatches, reportShapesCases } from "./grounding/report-shapes-cases.js";
import { suitePath } from "./grounding/make-suite.js";
import { readSuite, scoreSuite } from "./grounding/score-suite.js";

// The grounding checker on the seeded suite (bench/grounding/suite.jsonl, made by
// bench/grounding/make-suite.ts): how many planted wrong figures it flags, how many correct
// ones it flags by mistake, and how long it takes. It takes no model: 0 model calls.
const cases = readSuite(suitePath);
const started = performance.now();
const score = scoreSuite(cases);
const elapsed = performance.now() - started;
const share = (part: number, whole: number) => `${((part / whole) * 100).toFixed(1)}%`;
console.log(`cases: ${score.cases}, figures: ${score.wrong + score.correct} (${score.wrong} planted wrong)`);
console.log(`wrong figures flagged: ${score.wrongFlagged} of ${score.wrong} (${share(score.wrongFlagged, score.wrong)})`);
console.log(`correct figures flagged: ${score.correctFlagged} of ${score.correct} (${share(score.correctFlagged, score.correct)})`);
console.log(`figures not read as claims: ${score.unread}; claims read that are no figure: ${score.extra}`);
console.log(
  `model calls: 0 (checkClaims takes no model); ${elapsed.toFixed(0)} ms for the suite, ${(elapsed / score.cases).toFixed(2)} ms a case`,
);
for (const miss of score.misses)
  console.log(
    `  missed  ${miss.case}: ${miss.sentence}\n          ${miss.slot.text} (true: ${miss.slot.truth}) -> ${miss.claim ? `${miss.claim.status} ${miss.claim.derivation ?? ""} ${JSON.stringify(miss.claim.matched)}` : "not read"}`,
  );
for (const flag of score.falseFlags) console.log(`  flagged ${flag.case}: ${flag.slot.text}: ${flag.claim.reason}`);

// Three suites written by hand, each figure labelled: one from the docs' promises
// (bench/grounding/docs-cases.ts), one from public companies' annual figures, a source the
// seeded suite does not use (bench/grounding/finance-cases.ts), and one of the shapes weekly
// reports and research summaries take (bench/grounding/report-shapes-cases.ts).
for (const [name, cases] of [
  ["docs' promises", docsCases],
  ["company reports", financeCases],
  ["report shapes", reportShapesCases],
  // Of which the batches written for issue 55's held-out kinds (the tenth to the sixteenth), each before its fixes.
  ["  of which batches 10-16", heldOutKindsBatches],
] as const) {
  const written = scoreSuite(labelled(cases));
  console.log(
    `${name}: ${written.cases} cases; wrong figures flagged: ${written.wrongFlagged} of ${written.wrong} (${share(written.wrongFlagged, written.wrong)}); ` +
      `correct figures flagged: ${written.correctFlagged} of ${written.correct} (${share(written.correctFlagged, written.correct)}); ` +
      `other numbers flagged (years, phone numbers, list numbers): ${written.extraFlagged}`,
  );
  for (const miss of written.misses) console.log(`  missed  ${miss.case}: ${miss.slot.text} -> ${miss.claim?.status ?? "not read"}`);
  for (const flag of written.falseFlags) console.log(`  flagged ${flag.case}: ${flag.slot.text}: ${flag.claim.reason}`);
}
