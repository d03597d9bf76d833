// The screenshots of docs/ui.md: a store with the demo's weekly report (Plan-and-Execute,
// two replans), a refund waiting for approval and a plan waiting for review, served by
// planloop ui and drawn in Debian's Chromium. Run: npm run build && node --import tsx scripts/ui-screenshots.ts
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { z } from "zod";
import { defineTool, executePlan, planAndExecute } from "../src/index.js";
import { runDemo } from "../src/demo/run-demo.js";
import { sqliteStore } from "../src/stores/sqlite/index.js";
import { ScriptedModel } from "../src/testing/index.js";
import { startUi } from "../src/ui/index.js";

const out = join(import.meta.dirname, "..", "docs", "ui");
mkdirSync(out, { recursive: true });
const dir = mkdtempSync(join(tmpdir(), "planloop-shots-"));
const store = sqliteStore({ path: join(dir, "runs.sqlite") });

await runDemo({ dir, latencyMs: 40, queryLatencyMs: 60, onNotice: () => {}, store, runId: "weekly-report" });
const refund = defineTool({
  name: "refund",
  description: "Refund an order",
  input: z.object({ order: z.string(), amountCny: z.number() }),
  needsApproval: true,
  execute: ({ order }) => `refunded ${order}`,
});
const lookup = defineTool({
  name: "lookup",
  description: "Look an order up",
  input: z.object({ order: z.string() }),
  execute: ({ order }) => ({ order, paid: 329 }),
});
await executePlan({
  plan: {
    steps: [
      { id: "order", task: "look the order up", tool: "lookup", args: { order: "A7-1182" } },
      { id: "refund", task: "refund it", tool: "refund", args: { order: "A7-1182", amountCny: 329 }, depends_on: ["order"] },
    ],
  },
  tools: [lookup, refund],
  store,
  runId: "refund-A7-1182",
});
const plan = {
  steps: [
    { id: "orders", task: "orders of the week", tool: "lookup", args: { order: "week-47" } },
    { id: "refund", task: "refund the late ones", tool: "refund", args: { order: "late", amountCny: 120 }, depends_on: ["orders"] },
  ],
};
const planner = new ScriptedModel([{ purpose: "plan", reply: { type: "final", content: JSON.stringify(plan) } }]);
await planAndExecute({
  task: "Refund every order of week 47 that shipped late",
  planner,
  tools: [lookup, refund],
  store,
  runId: "late-refunds",
  reviewPlan: true,
});

const ui = await startUi({ store });
const base = ui.url.slice(0, ui.url.indexOf("?"));
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
});
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 760 } });
  await page.goto(ui.url);
  await page.locator("table.runs tbody tr").nth(2).waitFor();
  await page.screenshot({ path: join(out, "runs.png") });
  await page.goto(`${base}#/inbox`);
  await page.locator("article.pending").nth(1).waitFor();
  await page.screenshot({ path: join(out, "inbox.png"), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 1300 });
  await page.goto(`${base}#/runs/weekly-report`);
  await page.frameLocator("iframe.trace").locator("g.step").first().waitFor();
  await page.screenshot({ path: join(out, "run.png") });
  const call = page.locator("li.call").first();
  await call.locator("summary").scrollIntoViewIfNeeded();
  await call.locator("summary").click();
  await call.locator(".message.user").waitFor();
  await call.screenshot({ path: join(out, "model-call.png") });
  console.log(`wrote ${out}/runs.png, inbox.png, run.png, model-call.png`);
} finally {
  await browser.close();
  await ui.close();
  store.close();
}
