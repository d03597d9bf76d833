import { mkdtempSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli } from "../helpers/run-cli.js";
import { tmpdir } from "node:os";

describe("planloop demo: grounding in the CLI's output", () => {
  it("prints the weekly report as fully supported, and flags a planted wrong figure by its value and why", async () => {
    const dir = mkdtempSync(join(tmpdir(), "planloop-grounding-"));
    const fast = ["--latency", "0", "--query-latency", "0", "--no-store"];
    const clean = await cli("demo", "--dir", join(dir, "clean"), ...fast);
    expect(clean.code).toBe(0);
    expect(clean.out).toMatch(/grounded \(flag\): 13 claims, 13 supported by the steps they cite, 0 uncited/);
    const planted = await cli("demo", "--dir", join(dir, "planted"), ...fast, "--wrong-figure");
    expect(planted.code).toBe(0);
    const revenue = /\| revenue \| (¥[\d,.]+) \[s4\] \|/.exec(readFileSync(join(dir, "planted", "weekly-report.md"), "utf8"))?.[1];
    expect(planted.out).toContain("grounding (flag): 1 of 13 claims unsupported, 12 supported, 0 uncited");
    expect(planted.out).toContain(`  ✗ ${revenue}: not in s4, nor in any other step`);
    // The trace page says the same.
    const trace = readFileSync(join(dir, "planted", "trace.html"), "utf8");
    expect(trace).toContain('<h2>Grounding</h2><p class="grounding">13 claims: 12 supported, 1 unsupported, 0 uncited (flag)</p>');
    expect(trace).toContain(`<li><b>${revenue}</b>: ${revenue}: not in s4, nor in any other step</li>`);
  });
});
