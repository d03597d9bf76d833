// How the page shows what a person reads and decides on: a call's arguments field by field
// (an e-mail's body with its line breaks, not a JSON string with "\n" in it), and run ids on
// one line (a schedule's `name@fire time` cut in the middle, whole in the link's title).
import { describe, expect, it } from "vitest";
import { argumentFields, shortRunId } from "../../src/ui/app/format.js";

describe("argumentFields", () => {
  it("shows text arguments as text, with their line breaks, and the rest as indented JSON", () => {
    const email = {
      to: "team@example.com",
      subject: "Weekly report",
      body: "Hello team,\n\nOrders are up 4%.\nAnna",
      cc: ["ops@example.com"],
    };
    expect(argumentFields(email)).toEqual([
      { name: "to", text: "team@example.com" },
      { name: "subject", text: "Weekly report" },
      { name: "body", text: "Hello team,\n\nOrders are up 4%.\nAnna" },
      { name: "cc", text: '[\n  "ops@example.com"\n]' },
    ]);
    expect(argumentFields({ amount: 120 })).toEqual([{ name: "amount", text: "120" }]);
  });

  it("leaves arguments that are not an object of fields to be shown whole", () => {
    expect(argumentFields("just text")).toBeUndefined();
    expect(argumentFields([1, 2])).toBeUndefined();
    expect(argumentFields(null)).toBeUndefined();
  });

  it("keeps a __proto__ field as a field", () => {
    expect(argumentFields(JSON.parse('{"__proto__": "x"}'))).toEqual([{ name: "__proto__", text: "x" }]);
  });
});

describe("shortRunId", () => {
  it("keeps a short id whole and cuts a long one in the middle: the schedule's name and the end of the fire time stay", () => {
    expect(shortRunId("pay-ui")).toBe("pay-ui");
    const scheduled = "weekly-report-for-the-board@2026-12-07T08:00:00.000Z";
    const short = shortRunId(scheduled);
    expect([...short]).toHaveLength(36);
    expect(short).toBe("weekly-report-for-…-07T08:00:00.000Z");
    expect(short.startsWith("weekly-report")).toBe(true);
  });
});
