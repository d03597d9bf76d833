import { describe, expect, it } from "vitest";
import { findPlaceholders, substitutePlaceholders } from "./placeholders.js";

const outputs: Record<string, unknown> = {
  "1": "Paris",
  "3": { rows: [{ total: 42 }, { total: 7 }], name: "refunds" },
  "10": "ten",
  "4": "text with $1 and #E3 inside",
  orders: [1, 2, 3],
};
const outputOf = (step: string) => (step in outputs ? { found: true, value: outputs[step] } : { found: false });
const substitute = (args: unknown) => substitutePlaceholders(args, outputOf);

describe("substitutePlaceholders", () => {
  it.each([
    ["whole placeholder keeps the type", { data: "$3" }, { data: outputs["3"] }],
    ["#E form", "#E1", "Paris"],
    ["${} form", "${3}", outputs["3"]],
    ["string step id", "${orders}", [1, 2, 3]],
    ["path into the output", "$3.rows[0].total", 42],
    ["path after ${}", "${3}.rows[1]", { total: 7 }],
    ["inside text", "weather in $1 today", "weather in Paris today"],
    ["objects inside text become JSON", "rows: #E3.rows", 'rows: [{"total":42},{"total":7}]'],
    ["#E1 never matches inside #E10", "#E10 and #E1", "ten and Paris"],
    ["$1 never matches inside $10", "$10/$1", "ten/Paris"],
    ["nested objects and arrays", { a: [{ b: "$1" }, "#E10"], n: 5, t: true }, { a: [{ b: "Paris" }, "ten"], n: 5, t: true }],
    ["inserted text is not scanned again", "got: $4", "got: text with $1 and #E3 inside"],
    ["whole placeholder whose output holds placeholders", "$4", "text with $1 and #E3 inside"],
    ["a sentence-ending dot is not a path", "city: $1.", "city: Paris."],
    ["keys are left alone", { $1: "x" }, { $1: "x" }],
  ])("%s", (_name, args, expected) => {
    expect(substitute(args)).toEqual({ ok: true, value: expected });
  });

  it("reports a missing path with what is there instead", () => {
    const result = substitute("$3.rows[5].total");
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toBe("$3.rows[5].total: $3.rows[5] does not exist ($3.rows is an array of 2)");
    const key = substitute({ x: "$3.count" });
    expect(!key.ok && key.error).toContain("$3 is an object with keys rows, name");
  });

  it("reports a step without output", () => {
    const result = substitute("#E9");
    expect(!result.ok && result.error).toBe("#E9 refers to step 9, which has no output");
  });

  it("does not copy a plain value with no placeholders into anything else", () => {
    expect(substitute(undefined)).toEqual({ ok: true, value: undefined });
    expect(substitute("costs 5 dollars")).toEqual({ ok: true, value: "costs 5 dollars" });
  });
});

describe("findPlaceholders", () => {
  it("lists every reference with its step and path", () => {
    expect(findPlaceholders({ a: "#E1 and $2.x[0]", b: ["${c}"] })).toEqual([
      { step: "1", path: [], text: "#E1" },
      { step: "2", path: ["x", 0], text: "$2.x[0]" },
      { step: "c", path: [], text: "${c}" },
    ]);
  });
});

describe("a step's own number", () => {
  it("is text as a bare $N (a price), and still a reference in the #E and ${} forms", () => {
    const options = { isStep: () => true, self: "1" };
    expect(findPlaceholders({ q: "$1 off, then $3 and #E1 and ${1}" }, options).map((reference) => reference.text)).toEqual([
      "$3",
      "#E1",
      "${1}",
    ]);
    expect(substitutePlaceholders("$1 off in $3.name", outputOf, options)).toEqual({ ok: true, value: "$1 off in refunds" });
  });
});

describe("quoted keys in paths", () => {
  it("follow keys that are not identifiers", () => {
    const rates = (step: string) => (step === "7" ? { found: true, value: { "Ask Price": 7.1, data: [{ "x-y": 2 }] } } : { found: false });
    expect(substitutePlaceholders('$7["Ask Price"]', rates)).toEqual({ ok: true, value: 7.1 });
    expect(substitutePlaceholders('rate ${7}.data[0]["x-y"]!', rates)).toEqual({ ok: true, value: "rate 2!" });
    const missing = substitutePlaceholders('$7["Bid Price"]', rates);
    expect(!missing.ok && missing.error).toContain('$7["Bid Price"] does not exist');
    expect(findPlaceholders({ a: '$7["Ask Price"]' })).toEqual([{ step: "7", path: ["Ask Price"], text: '$7["Ask Price"]' }]);
  });
});
