import { describe, expect, it } from "vitest";
import { pollDecisionId } from "./poll-decision.js";

describe("pollDecisionId", () => {
  it("keeps a call's own id until a decision took it, then numbers on past the highest used on the step", () => {
    const place = "step:1";
    expect(pollDecisionId("step:1", { place, used: [] })).toBe("step:1");
    expect(pollDecisionId("step:1", { place, used: ["step:1"] })).toBe("step:1#2");
    expect(pollDecisionId("step:1", { place, used: ["step:1", "step:1#3", "step:1#2", "step:10", "step:2#9"] })).toBe("step:1#4");
    // An id asked anew by the step itself (a failed approved call) is kept while unused.
    expect(pollDecisionId("step:1#3", { place, used: ["step:1", "step:1#2"] })).toBe("step:1#3");
  });

  it("counts after the place, so a step id with # in it numbers too", () => {
    const place = "step:a#2";
    expect(pollDecisionId(place, { place, used: [place, "step:a#2#2"] })).toBe("step:a#2#3");
  });
});
