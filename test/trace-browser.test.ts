// The demo's HTML trace in a real browser: Debian's chromium driven by playwright-core.
import { existsSync, mkdtempSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium } from "playwright-core";
import { describe, expect, it } from "vitest";
import { runDemo } from "../src/demo/run-demo.js";
import { renderTraceHtml } from "../src/trace/trace-html.js";
import { hostileEvents, payload } from "./helpers/hostile-events.js";

const executablePath = "/usr/bin/chromium";
const launchArgs = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
];
// CI installs chromium (.ci/run); elsewhere the test is skipped when it is missing.
const available = existsSync(executablePath) || process.env.CI === "true";

describe.skipIf(!available)("the trace page in headless Chromium", () => {
  it("draws every step of the demo's run and can be screenshotted", async () => {
    const dir = mkdtempSync(join(tmpdir(), "planloop-trace-"));
    const { result, files } = await runDemo({ dir, latencyMs: 20, queryLatencyMs: 40, onNotice: () => {} });
    const started = result.trace.filter((event) => event.type === "step-start").map((event) => String(event.stepId));
    const browser = await chromium.launch({ executablePath, args: launchArgs });
    try {
      const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
      await page.goto(pathToFileURL(files.trace).href);
      const drawn = await page.locator("g.step").evaluateAll((nodes) => nodes.map((node) => node.getAttribute("data-step-id")));
      expect(drawn.sort()).toEqual([...started].sort());
      expect(await page.locator("g.replan").count()).toBe(2);
      // The planner's lane shows the strategy's own calls; an agent step's calls are drawn inside its step.
      const plannerCalls = result.trace.filter((event) => event.type === "model-call-end" && event.stepId === undefined).length;
      expect(plannerCalls).toBe(result.usage.modelCalls - 1);
      expect(await page.locator("g.model-call").count()).toBe(plannerCalls);
      expect(await page.locator("table.summary").innerText()).toContain("completed");
      const screenshot = join(dir, "trace.png");
      await page.screenshot({ path: screenshot, fullPage: true });
      expect(statSync(screenshot).size).toBeGreaterThan(5_000);
    } finally {
      await browser.close();
    }
  }, 60_000);

  it("runs no script from a crafted events file", async () => {
    const dir = mkdtempSync(join(tmpdir(), "planloop-trace-"));
    const page = join(dir, "hostile.html");
    writeFileSync(page, renderTraceHtml(await hostileEvents(), { title: payload }));
    const browser = await chromium.launch({ executablePath, args: launchArgs });
    try {
      const tab = await browser.newPage();
      const dialogs: string[] = [];
      tab.on("dialog", (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      await tab.goto(pathToFileURL(page).href);
      await tab.waitForTimeout(200);
      expect(await tab.evaluate(() => (globalThis as { __pwned?: unknown }).__pwned)).toBeUndefined();
      expect(dialogs).toEqual([]);
      expect(await tab.locator("img, script").count()).toBe(0);
    } finally {
      await browser.close();
    }
  }, 60_000);
});
