// The held-out grounding suite (issue 55): answers written from docs/grounded-reports.md's promises
// and real report shapes, each figure labelled by hand, judged through the public `checkClaims`.
// Prints, per kind, wrong figures flagged and correct figures flagged (false flags).
// Run: npx tsx bench/grounding-heldout/run.ts [--details]
import { heldoutCases } from "./cases/index.js";
import { figureKinds, type Promise55 } from "./figure-kinds.js";
import type { FigureKind } from "./heldout-case.js";
import { judgeCase, type FigureVerdict } from "./judge-case.js";

interface Tally {
  wrong: number;
  wrongFlagged: number;
  correct: number;
  correctFlagged: number;
  notRead: number;
}

const emptyTally = (): Tally => ({ wrong: 0, wrongFlagged: 0, correct: 0, correctFlagged: 0, notRead: 0 });

function add(tally: Tally, verdict: FigureVerdict): void {
  if (verdict.figure.correct) {
    tally.correct += 1;
    if (verdict.flagged) tally.correctFlagged += 1;
  } else {
    tally.wrong += 1;
    if (verdict.flagged) tally.wrongFlagged += 1;
  }
  if (!verdict.read) tally.notRead += 1;
}

const percent = (part: number, whole: number) => (whole === 0 ? "  -  " : `${((100 * part) / whole).toFixed(1)}%`);

function row(label: string, promise: string, tally: Tally): string {
  const wrong = `${tally.wrongFlagged} of ${tally.wrong} (${percent(tally.wrongFlagged, tally.wrong)})`;
  const correct = `${tally.correctFlagged} of ${tally.correct} (${percent(tally.correctFlagged, tally.correct)})`;
  return `${label.padEnd(24)} ${promise.padEnd(9)} ${wrong.padEnd(20)} ${correct.padEnd(20)} ${tally.notRead}`;
}

function checkCaseIds(): void {
  const ids = new Set<string>();
  for (const heldout of heldoutCases) {
    if (ids.has(heldout.id)) throw new Error(`two cases are named ${heldout.id}`);
    ids.add(heldout.id);
  }
}

checkCaseIds();
const started = performance.now();
const judged = heldoutCases.map(judgeCase);
const verdicts = judged.flatMap((each) => each.figures);
const claimsPlacedByDigits = judged.reduce((sum, each) => sum + each.claimsPlacedByDigits, 0);
const elapsed = performance.now() - started;

const byKind = new Map<FigureKind, Tally>();
const byPromise = new Map<Promise55, Tally>();
const overall = emptyTally();
for (const verdict of verdicts) {
  const kind = verdict.figure.kind;
  const promise = figureKinds[kind].promise;
  add(byKind.get(kind) ?? byKind.set(kind, emptyTally()).get(kind)!, verdict);
  add(byPromise.get(promise) ?? byPromise.set(promise, emptyTally()).get(promise)!, verdict);
  add(overall, verdict);
}

console.log(
  `held-out grounding suite: ${heldoutCases.length} answers, ${verdicts.length} figures (${overall.wrong} wrong, ${overall.correct} correct)`,
);
console.log(`${"kind".padEnd(24)} ${"promise".padEnd(9)} ${"wrong flagged".padEnd(20)} ${"correct flagged".padEnd(20)} not read`);
for (const kind of Object.keys(figureKinds) as FigureKind[]) {
  const tally = byKind.get(kind);
  if (tally) console.log(row(kind, figureKinds[kind].promise, tally));
}
console.log("");
for (const promise of ["docs", "issue-55"] as const) {
  const tally = byPromise.get(promise);
  if (tally) console.log(row(promise === "docs" ? "within the docs today" : "asked by issue 55", promise, tally));
}
console.log(row("overall", "", overall));
console.log(`claims placed by their digits (text not in the answer as written): ${claimsPlacedByDigits}`);
console.log(`${elapsed.toFixed(0)} ms for ${heldoutCases.length} answers`);

if (process.argv.includes("--details")) {
  console.log("\nwrong figures not flagged:");
  for (const verdict of verdicts.filter((each) => !each.figure.correct && !each.flagged))
    console.log(
      `  ${verdict.caseId} [${verdict.figure.kind}] "${verdict.figure.text}"${verdict.read ? "" : " (not read)"} — ${verdict.figure.note ?? ""}`,
    );
  console.log("\ncorrect figures flagged:");
  for (const verdict of verdicts.filter((each) => each.figure.correct && each.flagged))
    console.log(`  ${verdict.caseId} [${verdict.figure.kind}] "${verdict.figure.text}" — ${verdict.reasons.join("; ")}`);
}
