import { describe, expect, it } from "vitest";
import { checkClaims } from "./check-claims.js";
import { rowsOfColumnar, rowsOfDelimited } from "./tabular-output.js";

const sql = {
  columns: ["region", "revenue_usd"],
  rows: [
    ["North", 48200],
    ["South", 39150],
    ["West", 27400],
  ],
};
const csv = "week,tickets,backlog\n2026-W46,412,96\n2026-W47,455,120\n";
const status = (answer: string, output: unknown) => checkClaims(answer, [{ id: 1, output }]).claims.map((claim) => claim.status);

describe("tables as tools return them", () => {
  it("reads columns and rows as row objects, and CSV text as a table", () => {
    expect(rowsOfColumnar(sql)?.rows[1]).toEqual({ region: "South", revenue_usd: 39150 });
    expect(rowsOfColumnar({ columns: ["a", "b"], rows: [[1]] })).toBeUndefined();
    expect(rowsOfDelimited(csv)?.[1]).toEqual({ week: "2026-W47", tickets: 455, backlog: 120 });
    expect(rowsOfDelimited("Orders rose, then fell.\nThen, 12 more.")).toBeUndefined();
  });

  it("a figure of a columnar result is attributed to its row, and its column summed", () => {
    expect(status("North took $48,200 [s1].", sql)).toEqual(["supported"]);
    expect(status("North took $39,150 [s1].", sql)).toEqual(["unsupported"]);
    expect(status("The three regions took $114,750 in all [s1].", sql)).toEqual(["supported", "supported"]);
    expect(status("The lowest revenue was South's, $39,150 [s1].", sql)).toEqual(["unsupported"]);
  });

  it("a CSV export's cells are numbers of a table of weeks", () => {
    expect(status("The backlog grew by 24 to 120 [s1].", csv)).toEqual(["supported", "supported"]);
    expect(status("The backlog shrank by 24 [s1].", csv)).toEqual(["unsupported"]);
  });
});
