import { describe, expect, it } from "vitest";
import { atOnce, inTurns } from "../core/turns.js";
import { checkClaims, checkClaimsStepwise, readEvidence } from "./check-claims.js";

const metrics = {
  status: "succeeded",
  output: { orders: 137, revenue_cny: 69136.98, refund_rate: 0.0422, tickets: 30, top: "late delivery", top_count: 13 },
};
const lastWeek = { status: "succeeded", output: { orders: 120, revenue_cny: 61000, tickets: 26 } };
const daily = {
  status: "succeeded",
  output: [
    { day: "2026-11-16", orders: 23, revenue_cny: 11843.54 },
    { day: "2026-11-17", orders: 18, revenue_cny: 10209.16 },
    { day: "2026-11-22", orders: 22, revenue_cny: 11512.68 },
  ],
};
const steps = { "4": metrics, "5": daily, "6": lastWeek };
const verdicts = (answer: string, evidence: Parameters<typeof checkClaims>[1] = steps) =>
  checkClaims(answer, evidence).claims.map((claim) => [claim.text, claim.status, claim.derivation ?? ""]);

describe("checkClaims", () => {
  it("supports figures the cited step shows, at the precision written", () => {
    expect(verdicts("We took 137 orders worth ¥69,136.98 (about ¥69,000; ¥69.1k) [s4].")).toEqual([
      ["137", "supported", "value"],
      ["¥69,136.98", "supported", "value"],
      ["¥69,000", "supported", "value"],
      ["¥69.1k", "supported", "value"],
    ]);
    expect(verdicts("The refund rate was 4.22% [s4].")).toEqual([["4.22%", "supported", "percent"]]);
    expect(verdicts("We took 138 orders [s4].")).toEqual([["138", "unsupported", ""]]);
    expect(verdicts("The refund rate was 4.8% [s4].")).toEqual([["4.8%", "unsupported", ""]]);
  });

  it("follows a figure through a difference, a percentage change, a share and points, reading its direction", () => {
    expect(verdicts("Orders rose 14.2% on last week, 17 more than its 120 [s4, s6].")).toEqual([
      ["14.2%", "supported", "percent-change"],
      ["17", "supported", "difference"],
      ["120", "supported", "value"],
    ]);
    expect(verdicts("Orders fell 14.2% on last week [s4, s6].")).toEqual([["14.2%", "unsupported", ""]]);
    expect(verdicts("Late delivery was 43% of the tickets [s4].")).toEqual([["43%", "supported", "share"]]);
    // A plain figure is a difference only where the words say so.
    expect(verdicts("We took 17 orders [s4, s6].")).toEqual([["17", "unsupported", ""]]);
  });

  it("checks a cited sentence against the steps it cites, and says where else a figure is", () => {
    const report = checkClaims("Last week had 26 tickets [s4].", steps);
    expect(report.claims[0]).toMatchObject({ status: "unsupported", reason: "26: not in s4; s6 shows it" });
    expect(checkClaims("There were 26 tickets [s9].", steps).claims[0]).toMatchObject({ status: "unsupported" });
    expect(checkClaims("There were 26 tickets [s9].", steps).claims[0]!.reason).toContain("s9 is not a step of this run");
  });

  it("marks figures of an uncited sentence uncited when some step shows them, unsupported when none does", () => {
    expect(verdicts("Last week had 26 tickets. This week had 31.")).toEqual([
      ["26", "uncited", "value"],
      ["31", "unsupported", ""],
    ]);
  });

  it("checks a sentence that names rows against those rows, and blames a wrong label when the figures sit on one other row", () => {
    expect(verdicts("On 2026-11-17 the shop took 18 orders and ¥10,209.16 [s5].")).toEqual([
      ["2026-11-17", "supported", ""],
      ["18", "supported", "value"],
      ["¥10,209.16", "supported", "value"],
    ]);
    // 23 orders is true of 2026-11-16, not of 2026-11-17.
    expect(verdicts("On 2026-11-17 the shop took 23 orders and ¥10,209.16 [s5].")).toEqual([
      ["2026-11-17", "supported", ""],
      ["23", "unsupported", ""],
      ["¥10,209.16", "supported", "value"],
    ]);
    const blamed = checkClaims("The busiest day was 2026-11-17, with 23 orders and ¥11,843.54 [s5].", steps).claims;
    expect(blamed.map((claim) => claim.status)).toEqual(["unsupported", "supported", "supported"]);
    expect(blamed[0]!.reason).toContain("those of the row of 2026-11-16 in s5");
  });

  it("treats what the task states as given, and reads a table's totals and counts", () => {
    const report = checkClaims("The week of 2026-11-16 to 2026-11-22 had 63 orders over 3 days worth ¥33,565.38 [s5].", steps, {
      task: "Report on 2026-11-16 to 2026-11-22",
    });
    expect(report.claims.map((claim) => [claim.text, claim.status, claim.steps])).toEqual([
      ["2026-11-16", "supported", ["task"]],
      ["2026-11-22", "supported", ["task"]],
      ["63", "supported", ["5"]],
      ["3", "supported", ["5"]],
      ["¥33,565.38", "supported", ["5"]],
    ]);
  });

  it("checks names and identifiers as text, and a long number as an identifier", () => {
    const order = [{ id: 1, output: { order_id: "#W2378156", first_name: "Yusuf", last_name: "Rossi", item_ids: ["1151293680"] } }];
    expect(verdicts("Order #W2378156 of Yusuf Rossi held item 1151293680 [s1].", order).map(([, status]) => status)).toEqual([
      "supported",
      "supported",
      "supported",
    ]);
    expect(verdicts("Order #W2378165 of Yusuf Rossi held item 1151293689 [s1].", order).map(([, status]) => status)).toEqual([
      "unsupported",
      "supported",
      "unsupported",
    ]);
    expect(verdicts('Most tickets were about "lost parcel" [s4].')).toEqual([['"lost parcel"', "unsupported", ""]]);
  });

  it("splits sentences and reads citations in their usual places; records offsets in the answer", () => {
    const answer =
      "# Report\n\n| orders | 137 [s4] |\n- Revenue was ¥69,136.98. [s4] Tickets: 30 [s:4].\nSee [the docs](http://x) e.g. for 1.5 more.";
    const report = checkClaims(answer, steps);
    expect(report.sentences.map((sentence) => [sentence.text, sentence.cites])).toEqual([
      ["Report", []],
      ["| orders | 137 [s4] |", ["4"]],
      ["Revenue was ¥69,136.98. [s4]", ["4"]],
      ["Tickets: 30 [s:4].", ["4"]],
      ["See [the docs](http://x) e.g. for 1.5 more.", []],
    ]);
    for (const claim of report.claims) expect(answer.slice(claim.start, claim.end)).toBe(claim.text);
    expect(report.counts).toEqual({ claims: 4, supported: 3, unsupported: 1, uncited: 0 });
  });

  it("reads only succeeded steps of a run's records", () => {
    const records = { "1": { status: "failed", output: { orders: 137 } }, "2": { status: "succeeded", output: { orders: 120 } } };
    expect(verdicts("We took 137 orders.", records)).toEqual([["137", "unsupported", ""]]);
  });

  it("checks a sentence at a time, in turns, with the verdicts it gives at once", async () => {
    const answer = "We took 137 orders worth ¥69,136.98 [s4]. Last week had 26 tickets. This week had 31. Orders rose 14.2% [s4, s6].";
    const evidence = atOnce(readEvidence(steps));
    let pieces = 0;
    const work = checkClaimsStepwise(answer, evidence);
    while (!work.next().done) pieces += 1;
    expect(pieces).toBe(4);
    expect(await inTurns(checkClaimsStepwise(answer, evidence), { sliceMs: 0 })).toEqual(checkClaims(answer, steps));
  });
});
