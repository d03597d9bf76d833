import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { runDemo } from "../../src/demo/run-demo.js";

describe("the demo: seed 001's weekly report over SQLite", () => {
  it("replans around the renamed column and the USD refunds, and reports numbers that the database confirms", async () => {
    const dir = mkdtempSync(join(tmpdir(), "planloop-demo-test-"));
    const { result, files } = await runDemo({ dir, latencyMs: 0, queryLatencyMs: 0, onNotice: () => {} });
    expect(result).toMatchObject({ status: "completed", replans: 2 });
    expect(result.planVersions).toHaveLength(3);

    const queries = result.trace.filter((event) => event.type === "step-start").map((event) => String(event.stepId));
    expect(queries.filter((id) => id === "1")).toHaveLength(1);
    expect(queries.filter((id) => id === "3")).toHaveLength(1);
    expect(
      result.trace.filter((event) => event.type === "replan-start").map((event) => event.type === "replan-start" && event.reason),
    ).toEqual([expect.stringContaining("no such column: amount"), expect.stringContaining("USD")]);

    const db = new Database(files.database, { readonly: true });
    const week = "created_at BETWEEN '2026-11-16' AND '2026-11-22 23:59:59'";
    const orders = db.prepare(`SELECT COUNT(*) AS n, ROUND(SUM(total_cny), 2) AS revenue FROM orders WHERE ${week}`).get() as {
      n: number;
      revenue: number;
    };
    const refunds = db
      .prepare(
        `SELECT COUNT(*) AS n, SUM(ROUND(refund_amount * (SELECT rate_to_cny FROM fx_rates WHERE fx_rates.currency = refunds.currency), 2)) AS total FROM refunds WHERE ${week}`,
      )
      .get() as { n: number; total: number };
    const usd = db.prepare(`SELECT COUNT(*) AS n FROM refunds WHERE currency = 'USD' AND ${week}`).get() as { n: number };
    const tickets = db.prepare(`SELECT COUNT(*) AS n FROM tickets WHERE ${week}`).get() as { n: number };
    const top = db
      .prepare(`SELECT category, COUNT(*) AS n FROM tickets WHERE ${week} GROUP BY category ORDER BY n DESC, category LIMIT 1`)
      .get() as { category: string; n: number };
    db.close();
    expect(usd.n).toBeGreaterThan(0);

    const money = (value: number) => `¥${value.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
    const report = readFileSync(files.report, "utf8");
    expect(report).toContain(`| orders | ${orders.n} [s4] |`);
    expect(report).toContain(`| revenue | ${money(orders.revenue)} [s4] |`);
    expect(report).toContain(`| refunds | ${refunds.n} (${money(Math.round(refunds.total * 100) / 100)}) [s4] |`);
    expect(report).toContain(
      `| refund rate | ${((Math.round((refunds.total / orders.revenue) * 10_000) / 10_000) * 100).toFixed(2)}% [s4] |`,
    );
    expect(report).toContain(`| support tickets | ${tickets.n} [s4] |`);
    expect(report).toContain(`**${top.category}** (${top.n} of ${tickets.n}) [s4].`);
    // The headline is an agent step on the "fast" tier, planned as such by the offline planner.
    expect(report).toContain(`> Customers complained most about ${top.category}: ${top.n} of ${tickets.n} tickets this week [s4].`);
    // Every figure of the report is traced to the metrics step it cites (grounding "flag", the default).
    expect(result.provenance?.counts).toMatchObject({ unsupported: 0, uncited: 0 });
    expect(result.provenance!.counts.claims).toBeGreaterThanOrEqual(10);
    expect(result.provenance!.claims.filter((claim) => claim.kind === "number").every((claim) => claim.steps.includes("4"))).toBe(true);
    const planned = result.trace.filter((event) => event.type === "plan-created").at(-1);
    expect(planned?.type === "plan-created" && planned.steps.find((step) => step.id === 8)).toMatchObject({ model: "fast" });

    const events = readFileSync(files.events, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(events).toHaveLength(result.trace.length);
    expect(readFileSync(files.trace, "utf8")).toContain('class="dag-node"');
  });
});
