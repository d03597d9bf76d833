// planloop ui at scale, in Debian's Chromium: a store of 10,000 runs (the list's first page
// drawn, from opening the URL) and a run of 2,000 steps (its page drawn: the steps table
// and the timeline's frame with every step). Prints the times, and the API's own.
// Targets: under 1 s each. Run: npm run bench:ui
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { z } from "zod";
import { defineTool, executePlan } from "../src/index.js";
import { sqliteStore } from "../src/stores/sqlite/index.js";
import { startUi } from "../src/ui/index.js";

const runs = 10_000;
const steps = 2_000;
const folder = mkdtempSync(join(tmpdir(), "planloop-ui-bench-"));
const store = sqliteStore({ path: join(folder, "runs.sqlite") });

let made = performance.now();
for (let index = 0; index < runs; index += 1) {
  const runId = `run-${String(index).padStart(5, "0")}`;
  store.createRun({ runId, entry: "executePlan", at: 1_790_000_000_000 + index * 1000 });
  const plan = { steps: [{ id: 1, task: `task number ${index}`, tool: "echo", args: { text: "x" } }] };
  store.append(
    runId,
    [
      { kind: "plan", version: 1, plan },
      { kind: "step-start", stepKey: "1", attempt: 1, idempotencyKey: `${runId}/1`, at: 1_790_000_000_000 + index * 1000 },
      { kind: "step-end", stepKey: "1", record: { status: "succeeded", output: "x", attempts: 1, startedAt: 0, endedAt: 5 } },
    ],
    1_790_000_000_000 + index * 1000 + 5,
  );
  const usage = { modelCalls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0, toolCalls: 1 };
  store.finishRun(runId, { status: "completed", output: "x", usage, runId }, 1_790_000_000_000 + index * 1000 + 6);
}
console.log(`made ${runs} runs in ${((performance.now() - made) / 1000).toFixed(1)} s`);

made = performance.now();
const echo = defineTool({ name: "echo", description: "echo", input: z.object({ text: z.string() }), execute: ({ text }) => text });
const wide = {
  steps: Array.from({ length: steps }, (_, index) => ({
    id: index + 1,
    task: `step ${index + 1}`,
    tool: "echo",
    args: { text: `t${index}` },
    ...(index >= 50 ? { depends_on: [index - 49] } : {}),
  })),
};
const big = await executePlan({ plan: wide, tools: [echo], store, runId: "big", concurrency: 50 });
console.log(`ran a ${steps}-step plan (${big.status}) in ${((performance.now() - made) / 1000).toFixed(1)} s`);

const ui = await startUi({ store });
const base = ui.url.slice(0, ui.url.indexOf("/?"));
const headers = { "x-planloop-token": ui.token };
for (const [what, path] of [
  ["GET /api/runs (first page of 100)", "/api/runs?limit=100"],
  [`GET /api/runs/big (${steps} steps)`, "/api/runs/big"],
  [`GET /api/runs/big/trace.html (${steps} steps)`, "/api/runs/big/trace.html"],
] as const) {
  await fetch(base + path, { headers });
  const started = performance.now();
  const answer = await fetch(base + path, { headers });
  const bytes = (await answer.text()).length;
  console.log(`${what}: ${(performance.now() - started).toFixed(0)} ms, ${(bytes / 1024).toFixed(0)} KiB`);
}

const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
});
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  for (const round of [1, 2]) {
    let started = performance.now();
    await page.goto(ui.url);
    await page.locator("table.runs tbody tr").nth(99).waitFor();
    const listed = performance.now() - started;
    started = performance.now();
    await page.goto(`${base}/#/runs/big`);
    await page.locator("table.steps tbody tr").nth(199).waitFor({ timeout: 60_000 });
    const table = performance.now() - started;
    await page
      .frameLocator("iframe.trace")
      .locator("g.step")
      .nth(steps - 1)
      .waitFor({ timeout: 60_000 });
    const drawn = performance.now() - started;
    const clicked = performance.now();
    const more = page.getByRole("button", { name: `Show all ${steps.toLocaleString("en")} steps` });
    // Scrolled to first: a click Playwright scrolls to itself can land beside its target below the timeline's frame (a page of its own).
    await more.scrollIntoViewIfNeeded();
    await more.click();
    await page
      .locator("table.steps tbody tr")
      .nth(steps - 1)
      .waitFor({ timeout: 60_000 });
    await page
      .locator("table.steps tbody tr")
      .nth(steps - 1)
      .waitFor({ timeout: 60_000 });
    const allRows = performance.now() - clicked;
    started = performance.now();
    await page.goto(`${base}/api/runs/big/trace.html?token=${ui.token}`);
    await page
      .locator("g.step")
      .nth(steps - 1)
      .waitFor({ timeout: 60_000 });
    console.log(`round ${round}: the timeline page alone: ${(performance.now() - started).toFixed(0)} ms`);
    console.log(
      `round ${round}: ${runs}-run store, list drawn in ${listed.toFixed(0)} ms; ${steps}-step run page: facts and the first 200 steps ${table.toFixed(0)} ms, timeline frame with every step ${drawn.toFixed(0)} ms; all ${steps} rows listed ${allRows.toFixed(0)} ms after the click`,
    );
  }
} finally {
  await browser.close();
  await ui.close();
  store.close();
  rmSync(folder, { recursive: true, force: true });
}
