import { describe, expect, it } from "vitest";
import { readFigures } from "./read-figures.js";

const read = (text: string) =>
  readFigures(text).map((figure) => ({ kind: figure.kind, text: figure.text, value: figure.value ?? figure.dates ?? figure.name }));

describe("readFigures", () => {
  it("reads money, percentages, scales and the precision they were written with", () => {
    const [money, percent, scaled] = readFigures("Revenue was ¥123,456.78, up 12.5%, on $4.2M of orders.");
    expect(money).toMatchObject({ value: 123456.78, precision: 0.01, unit: "currency", currency: "¥" });
    expect(percent).toMatchObject({ value: 12.5, precision: 0.1, unit: "%" });
    expect(scaled).toMatchObject({ value: 4_200_000, precision: 100_000, unit: "currency" });
    expect(readFigures("2.1 percentage points, 3x, −3.2%")).toMatchObject([
      { value: 2.1, unit: "pp" },
      { value: 3, unit: "x" },
      { value: -3.2, unit: "%" },
    ]);
  });

  it("reads hedges: about, over, under", () => {
    expect(readFigures("about 1,200 orders, over 40 tickets, under 5% refunds").map((figure) => figure.hedge)).toEqual([
      "about",
      "over",
      "under",
    ]);
  });

  it("reads dates in their usual forms, and does not take their digits for numbers", () => {
    expect(read("From 2026-11-16 to Nov 22, 2026; 3 December; May 2026; 2026-11-16T08:00:00Z at 14:05.")).toEqual([
      { kind: "date", text: "2026-11-16", value: ["2026-11-16"] },
      { kind: "date", text: "Nov 22, 2026", value: ["2026-11-22"] },
      { kind: "date", text: "3 December", value: ["--12-03"] },
      { kind: "date", text: "May 2026", value: ["2026-05"] },
      { kind: "date", text: "2026-11-16T08:00:00Z", value: ["2026-11-16"] },
    ]);
    expect(readFigures("03/04/2026")[0]!.dates).toEqual(["2026-04-03", "2026-03-04"]);
  });

  it("reads identifiers, quoted, bold and capitalised names; skips ordinals, codes and versions", () => {
    expect(read('Order #W2378156 for Yusuf Rossi paid with credit_card_9513926: "damaged item", **late delivery**.')).toEqual([
      { kind: "id", text: "#W2378156", value: "#W2378156" },
      { kind: "name", text: "Yusuf Rossi", value: "Yusuf Rossi" },
      { kind: "id", text: "credit_card_9513926", value: "credit_card_9513926" },
      { kind: "name", text: '"damaged item"', value: "damaged item" },
      { kind: "name", text: "**late delivery**", value: "late delivery" },
    ]);
    // A number glued to a unit ("250ms") is not read: docs/grounded-reports.md lists it among what is not checked.
    expect(read("The 1st of Q3, v2.1 and s3 came in 250ms")).toEqual([]);
    expect(read("The Weekly Report")).toEqual([]);
  });

  it("reads numbers as each locale writes them, with the currency before or after", () => {
    const values = (text: string, locale?: string) =>
      readFigures(text, { locale }).map((figure) => [figure.text, figure.value, figure.precision]);
    expect(values("€1.234,50 · 1 234,50 € · CHF 1'234.50 · ₹12,34,567 · 98.765,40 EUR · 1\u202f234,5 €")).toEqual([
      ["€1.234,50", 1234.5, 0.01],
      ["1 234,50 €", 1234.5, 0.01],
      ["CHF 1'234.50", 1234.5, 0.01],
      ["₹12,34,567", 1234567, 1],
      ["98.765,40 EUR", 98765.4, 0.01],
      ["1\u202f234,5 €", 1234.5, 0.1],
    ]);
    // An ambiguous form reads as the locale says: 1.234 is a thousand and more in German, a decimal in English.
    expect(values("1.234 and 1,234", "de")).toEqual([
      ["1.234", 1234, 1],
      ["1,234", 1.234, 0.001],
    ]);
    expect(values("1.234 and 1,234", "en")).toEqual([
      ["1.234", 1.234, 0.001],
      ["1,234", 1234, 1],
    ]);
    expect(values("Umsatz 2,5 Mio. €", "de")).toEqual([["2,5 Mio. €", 2_500_000, 100_000]]);
    // A plain space groups digits only where a decimal comma or a currency says so: "week 47 120 orders" is two numbers.
    expect(values("week 47 120 orders")).toEqual([
      ["47", 47, 1],
      ["120", 120, 1],
    ]);
    // Digits that no locale writes so are no number (a version, a list).
    expect(values("v 3.5.1 and 1,234.567,8")).toEqual([]);
  });

  it("reads negatives (-, −, accounting parentheses), and numbers in words", () => {
    const values = (text: string) => readFigures(text, { words: true }).map((figure) => [figure.text, figure.value, figure.unit ?? ""]);
    expect(values("Net income was (1,200.00), cash ($3,400), the rest (27 of them), -5 and −3.2%.")).toEqual([
      ["1,200.00", -1200, ""],
      ["$3,400", -3400, "currency"],
      ["27", 27, ""],
      ["-5", -5, ""],
      ["−3.2%", -3.2, "%"],
    ]);
    expect(values("We closed fifteen tickets and two hundred and forty orders; forty-two percent were late; one region.")).toEqual([
      ["fifteen", 15, ""],
      ["two hundred and forty", 240, ""],
      ["forty-two percent", 42, "%"],
    ]);
  });
});
