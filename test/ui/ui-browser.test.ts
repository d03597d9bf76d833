// `planloop ui` as a person uses it, in Debian's Chromium: the command in a process of its own
// over a SQLite file, runs started beside it by other processes' code (the CLI in-process, the
// library), the page driven by playwright-core. Screenshots go to test-artifacts/ui-*.png.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser, type Locator, type Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from "vitest";
import { codeMode, executePlan, planAndExecute } from "planloop";
import { sqliteStore } from "planloop/sqlite";
import { ScriptedModel } from "planloop/testing";
import { cli } from "../helpers/run-cli.js";
import { startUiProcess, type UiProcess } from "../helpers/ui-process.js";
import { tools } from "../fixtures/ui-tools.js";
import { repoRoot, testRoot } from "../helpers/paths.js";

const executablePath = "/usr/bin/chromium";
const launchArgs = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"];
const available = existsSync(executablePath) || process.env.CI === "true";
const root = repoRoot;
const shots = join(root, "test-artifacts");
const toolsModule = join(testRoot, "fixtures", "ui-tools.ts");

const dir = mkdtempSync(join(tmpdir(), "planloop-ui-"));
const storeFile = join(dir, "runs.sqlite");
const payments = join(dir, "calls.log");
process.env.PLANLOOP_TEST_LOG = payments;
const store = `sqlite:${storeFile}`;
let ui: UiProcess | undefined;
let browser: Browser | undefined;
let url = "";

const text = (content: string) => ({ type: "final" as const, content });

const payPlan = () => {
  const file = join(dir, "pay.json");
  writeFileSync(
    file,
    JSON.stringify({
      steps: [
        { id: 1, task: "double", tool: "double", args: { value: 60 } },
        { id: 2, task: "pay", tool: "pay", args: { amount: "$1" }, depends_on: [1] },
      ],
    }),
  );
  return file;
};

/**
 * A click on something below the timeline's frame, scrolled to first: the frame is a page of
 * its own (sandboxed, another process), and a click that Playwright scrolls to itself can
 * land beside its target.
 */
async function press(target: Locator) {
  await target.scrollIntoViewIfNeeded();
  await target.click();
}

async function shot(page: Page, name: string) {
  mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: join(shots, `ui-${name}.png`), fullPage: true });
}

// Each test gets a second try: in .ci/run this session, a page in Chromium twice did not react
// (rows never drawn, a click that opened nothing) in one test of the seven, never here; each
// failure prints what the ui printed, and the 450-step test what its page showed.
describe.skipIf(!available)("planloop ui in headless Chromium", { retry: 1 }, () => {
  beforeAll(async () => {
    ui = await startUiProcess(["--store", store, "--tools", toolsModule], { PLANLOOP_TEST_LOG: payments });
    url = ui.url;
    browser = await chromium.launch({ executablePath, args: launchArgs });
  });
  // A failure shows what the ui printed: the output of the runs it continued.
  beforeEach(() => onTestFailed(() => console.error(`planloop ui's stderr:\n${ui?.stderr.join("") ?? ""}`)));
  afterAll(async () => {
    await browser?.close();
    ui?.stop();
  });

  it("prints one line with the URL and its token; a request without the token is refused", async () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{20,}$/);
    expect(ui!.stdout).toEqual([`planloop ui: ${url}`]);
    const page = await browser!.newPage();
    const refused = await page.goto(url.slice(0, url.indexOf("?")));
    expect(refused!.status()).toBe(401);
    expect(await page.content()).toContain("this needs the token");
    const api = await page.goto(`${url.slice(0, url.indexOf("?"))}api/runs`);
    expect(api!.status()).toBe(401);
    await page.close();
  });

  it("a waiting run appears in the list without reload; Approve runs the call once and the run page turns completed", async () => {
    const page = await browser!.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(url);
    await page.getByRole("heading", { name: "Runs" }).waitFor();
    // The token left the address bar once the page kept it.
    expect(page.url()).not.toContain("token=");
    const waiting = await cli("run", payPlan(), "--tools", toolsModule, "--store", store, "--run-id", "pay-ui");
    expect(waiting.code).toBe(3);
    const row = page.locator('tr[data-run="pay-ui"]');
    await row.locator(".badge.waiting").waitFor({ timeout: 20_000 });
    // A plan run has no task of its own: it is named by its plan, not by its first step.
    expect(await row.locator("td.task").innerText()).toBe("a plan of 2 steps");
    expect(await row.locator("a.run-id").getAttribute("title")).toBe("pay-ui");
    await shot(page, "runs");

    await page.getByRole("link", { name: "Inbox" }).click();
    const card = page.locator('article[data-pending="step:2"]');
    await card.waitFor();
    expect(await card.innerText()).toContain("pay");
    // The arguments field by field, each value as text.
    expect(await card.locator("dl.arguments dt").allInnerTexts()).toEqual(["amount"]);
    expect(await card.locator("dl.arguments dd").first().innerText()).toBe("120");
    await shot(page, "inbox");
    await card.getByRole("button", { name: "Approve" }).click();
    // "Decision taken" shows in the card until the inbox follows the run on: the card may be gone
    // before it is seen (in .ci/run on Node 22 it was), so either ends the wait; a refusal would stay.
    await expect
      .poll(async () => (await card.getByText("Decision taken").count()) > 0 || (await card.count()) === 0, { timeout: 30_000 })
      .toBe(true);
    expect(await page.locator('[role="alert"]').count()).toBe(0);

    await page.goto(`${url.slice(0, url.indexOf("?"))}#/runs/pay-ui`);
    await page.locator('[data-testid="run-status"]', { hasText: "completed" }).waitFor({ timeout: 30_000 });
    await page.locator('tr[data-step="2"] .badge.succeeded').waitFor();
    // The timeline's frame draws the run's two steps.
    await page.frameLocator("iframe.trace").locator("g.step").nth(1).waitFor();
    await shot(page, "run");
    // The payment ran once, under the run's key for the step, continued by the ui's own process.
    expect(readFileSync(payments, "utf8")).toBe("double 60 pay-ui/1\npaid 120 pay-ui/2\n");
    expect((await cli("runs", "show", "pay-ui", "--store", store)).out).toContain("decision step:2: approved");
    await page.close();
  });

  it("a run of 450 steps: the page lists the first 200, and Show all reads the rest a page at a time", { timeout: 240_000 }, async () => {
    const file = sqliteStore({ path: storeFile });
    const plan = { steps: Array.from({ length: 450 }, (_, index) => ({ id: index + 1, task: "pause", tool: "pause", args: { ms: 0 } })) };
    expect((await executePlan({ plan, tools, store: file, runId: "wide-ui", concurrency: 50 })).status).toBe("completed");
    file.close();
    const page = await browser!.newPage();
    await page.goto(url);
    await page.goto(`${url.slice(0, url.indexOf("?"))}#/runs/wide-ui`);
    const rows = page.locator("table.steps tbody tr");
    // 1.7 s here; in two of three .ci/run runs the rows never came (under investigation): say what the page showed.
    await rows
      .nth(199)
      .waitFor({ timeout: 60_000 })
      .catch(async (error: unknown) => {
        const api = await page.evaluate<number>(
          'fetch("api/runs/wide-ui", { headers: { "x-planloop-token": sessionStorage.getItem("planloop-token") ?? "" } }).then((answer) => answer.status)',
        );
        throw new Error(
          `${String(error)}\nthe page at ${page.url()} showed ${await rows.count()} rows and: ${(await page.innerText("body")).slice(0, 800)}\nGET api/runs/wide-ui: ${api}`,
        );
      });
    expect(await rows.count()).toBe(200);
    await press(page.getByRole("button", { name: "Show all 450 steps" }));
    await rows.nth(449).waitFor({ timeout: 60_000 });
    expect(await rows.count()).toBe(450);
    await page.close();
  });

  it("a code-mode run: each call of its program a row of the steps, and the timeline's frame shows the program", async () => {
    const file = sqliteStore({ path: storeFile });
    const source = "const [a, b] = await Promise.all([tools.double({ value: 2 }), tools.double({ value: 5 })]);\nreturn a + b;";
    const model = new ScriptedModel([text("```js\n" + source + "\n```"), text("The doubles add up to 14.")]);
    const done = await codeMode({ task: "Double 2 and 5", model, tools, store: file, runId: "code-ui", grounding: false });
    expect(done.status).toBe("completed");
    file.close();
    const page = await browser!.newPage();
    await page.goto(url);
    await page.goto(`${url.slice(0, url.indexOf("?"))}#/runs/code-ui`);
    const rows = page.locator('table.steps tbody tr[data-step^="code:0:"]');
    await rows.nth(1).waitFor({ timeout: 30_000 });
    expect(await rows.locator(".badge.succeeded").count()).toBe(2);
    expect(await rows.locator("td:first-child").allInnerTexts()).toEqual([
      expect.stringMatching(/^code:0:[0-9a-f]{16}:1 double of program 1$/),
      expect.stringMatching(/^code:0:[0-9a-f]{16}:1 double of program 1$/),
    ]);
    expect((await rows.locator("td:nth-child(3)").allInnerTexts()).sort()).toEqual(['{"value":2}', '{"value":5}']);
    const program = page.frameLocator("iframe.trace").locator('pre.program[data-version="1"]');
    await program.waitFor({ timeout: 30_000 });
    expect(await program.innerText()).toBe(source);
    await shot(page, "code-mode");
    await page.close();
  });

  it("a plan under review: an edit with a cycle is refused in the page; the plan call's messages and answer are shown", async () => {
    // A step's task written by a model is text: markup in it is shown, never run.
    const hostile = `<img src=x onerror="window.hacked=1"><script>window.hacked=2</script>`;
    const plan = {
      steps: [
        { id: "a", task: "double 21", tool: "double", args: { value: 21 } },
        { id: "h", task: hostile, tool: "double", args: { value: 1 } },
      ],
    };
    const planner = new ScriptedModel([{ purpose: "plan", reply: { type: "final", content: `The plan:\n${JSON.stringify(plan)}` } }]);
    const kept = sqliteStore({ path: storeFile });
    try {
      const paused = await planAndExecute({ task: "double 21", planner, tools, store: kept, runId: "review-ui", reviewPlan: true });
      expect(paused.status).toBe("waiting");
    } finally {
      await kept.close();
    }
    const page = await browser!.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${url}#/inbox`);
    const card = page.locator('article[data-pending="plan:1"]');
    await card.waitFor({ timeout: 20_000 });
    await card.getByRole("button", { name: "Edit" }).click();
    const cycle = {
      steps: [
        { id: "a", task: "double 21", tool: "double", args: { value: 21 }, depends_on: ["b"] },
        { id: "b", task: "double again", tool: "double", args: { value: 2 }, depends_on: ["a"] },
      ],
    };
    await card.locator("textarea").fill(JSON.stringify(cycle, null, 2));
    await card.getByRole("button", { name: "Approve the edited plan" }).click();
    const alert = card.getByRole("alert");
    await alert.waitFor();
    expect(await alert.innerText()).toMatch(/cannot run[\s\S]*cycle/i);
    await shot(page, "plan-edit");
    expect(await card.locator("table.plan").innerText()).toContain(hostile);
    expect(await page.evaluate(() => (globalThis as { hacked?: number }).hacked)).toBeUndefined();

    await page.goto(`${url.slice(0, url.indexOf("?"))}#/runs/review-ui`);
    const call = page.locator("li.call").first();
    await call.waitFor();
    await press(call.locator("summary"));
    await call.locator(".message.user").waitFor();
    expect(await call.locator(".message.user").innerText()).toContain("Task: double 21");
    expect(await call.locator(".message.system").innerText()).toContain("You are the planner");
    expect(await call.locator(".answer-text").innerText()).toContain('"task":"double 21"');
    expect(await call.locator("summary").innerText()).toContain("plan");
    // Beside the raw answer, the plan planloop read from it.
    expect(await call.locator(".parsed-plan").innerText()).toContain("read as plan v1");
    expect(await call.locator(".parsed-plan").innerText()).toContain(hostile);
    expect(await page.evaluate(() => (globalThis as { hacked?: number }).hacked)).toBeUndefined();
    expect(await page.locator("main img").count()).toBe(0);
    await call.scrollIntoViewIfNeeded();
    await shot(page, "model-call");
    // Still waiting: the refused edit changed nothing.
    expect(await page.locator('[data-testid="run-status"]').innerText()).toBe("waiting");
    await page.close();
  });

  it("rerun from a step with new arguments: a new run that reuses the steps before it and links to the run it came from", async () => {
    const file = join(dir, "chain.json");
    const chain = {
      steps: [
        { id: "a", task: "double 3", tool: "double", args: { value: 3 } },
        { id: "b", task: "double a", tool: "double", args: { value: "${a}" }, depends_on: ["a"] },
        { id: "c", task: "double b", tool: "double", args: { value: "${b}" }, depends_on: ["b"] },
      ],
    };
    writeFileSync(file, JSON.stringify(chain));
    expect((await cli("run", file, "--tools", toolsModule, "--store", store, "--run-id", "chain-ui")).code).toBe(0);
    const logged = readFileSync(payments, "utf8");
    const page = await browser!.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${url}#/runs/chain-ui`);
    const row = page.locator('tr[data-step="b"]');
    await press(row.getByRole("button", { name: "Rerun from here" }));
    // The step's arguments as its plan gave them, to edit.
    expect(JSON.parse(await row.locator("textarea").inputValue())).toEqual({ value: "${a}" });
    await row.locator("textarea").fill('{ "value": 7 }');
    await press(row.getByRole("button", { name: "Rerun" }));
    await page.locator('[data-testid="forked-from"]').waitFor({ timeout: 20_000 });
    await page.locator('[data-testid="run-status"]', { hasText: "completed" }).waitFor({ timeout: 30_000 });
    expect(await page.locator('[data-testid="forked-from"]').innerText()).toContain("Rerun of chain-ui from step b");
    const forkId = decodeURIComponent(page.url().slice(page.url().indexOf("#/runs/") + "#/runs/".length));
    // Only b (with its new arguments) and c ran again; a was reused.
    expect(readFileSync(payments, "utf8").slice(logged.length)).toBe(`double 7 ${forkId}/b\ndouble 14 ${forkId}/c\n`);
    expect(await page.locator(".output").innerText()).toBe("28");
    await shot(page, "rerun");

    // The run and its rerun side by side: figures, and timelines on one time axis.
    await page.getByRole("link", { name: "Runs" }).click();
    await page.getByLabel("pick chain-ui to compare").check();
    await page.getByLabel(`pick ${forkId} to compare`).check();
    await page.getByRole("link", { name: "Compare 2" }).click();
    await page.locator("table.compare tbody tr").nth(1).waitFor();
    const compared = await page.locator("table.compare tbody tr").allInnerTexts();
    expect(compared.map((row) => row.split("\t")[0])).toEqual(["chain-ui", forkId]);
    expect(await page.locator(".lanes svg").count()).toBe(2);
    for (const lane of await page.locator(".lanes svg").all()) expect(await lane.locator("rect.bar").count()).toBe(3);
    // The rerun ran two of the three steps; both runs completed.
    expect(compared.every((row) => row.includes("completed") && row.includes("3/3"))).toBe(true);
    await shot(page, "compare");
    await page.close();
  });
  it("Approve all decides a wave of approvals in one request: each call runs once and the run completes", async () => {
    const file = join(dir, "wave.json");
    writeFileSync(file, JSON.stringify({ steps: [1, 2, 3].map((id) => ({ id, task: `pay ${id}`, tool: "pay", args: { amount: id } })) }));
    const waiting = await cli("run", file, "--tools", toolsModule, "--store", store, "--run-id", "wave-ui");
    expect(waiting.code).toBe(3);
    const page = await browser!.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(url);
    await page.getByRole("link", { name: "Inbox" }).click();
    const wave = page.locator('.wave[data-wave="wave-ui"]');
    await wave.waitFor();
    await shot(page, "wave");
    await wave.getByRole("button", { name: "Approve all (3)" }).click();
    await page.goto(`${url.slice(0, url.indexOf("?"))}#/runs/wave-ui`);
    await page.locator('[data-testid="run-status"]', { hasText: "completed" }).waitFor({ timeout: 30_000 });
    const paid = readFileSync(payments, "utf8")
      .split("\n")
      .filter((line) => line.includes("wave-ui/"));
    expect(paid.sort()).toEqual(["paid 1 wave-ui/1", "paid 2 wave-ui/2", "paid 3 wave-ui/3"]);
    // The decisions say they were taken in the page.
    const reading = sqliteStore({ path: storeFile });
    const decided = (await reading.getRun("wave-ui"))!.journal.filter((entry) => entry.kind === "human-decision");
    await reading.close();
    expect(decided.map((entry) => (entry as { by?: string }).by)).toEqual(["planloop ui", "planloop ui", "planloop ui"]);
    await page.close();
  });

  it("a grounded report: its sentences link to their steps, and a planted wrong figure is marked with why", async () => {
    const demo = await cli(
      "demo",
      "--store",
      store,
      "--run-id",
      "report-ui",
      "--dir",
      join(dir, "demo"),
      "--latency",
      "0",
      "--query-latency",
      "0",
      "--wrong-figure",
    );
    expect(demo.code).toBe(0);
    const page = await browser!.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(url);
    await page.getByRole("heading", { name: "Runs" }).waitFor();
    await page.goto(`${url.slice(0, url.indexOf("?"))}#/runs/report-ui`);
    const summary = page.locator('[data-testid="grounding"]');
    await summary.waitFor({ timeout: 30_000 });
    expect(await summary.innerText()).toContain("1 of 13 claims are not supported by the steps they cite");
    const flagged = page.locator('.sentence[data-status="unsupported"] mark.claim.unsupported');
    expect(await flagged.count()).toBe(1);
    expect(await flagged.innerText()).toMatch(/^¥[\d,]+\.\d{2}$/);
    expect(await flagged.getAttribute("title")).toContain("not in s4, nor in any other step");
    expect(await page.locator('.sentence[data-status="supported"]').count()).toBeGreaterThanOrEqual(6);
    await shot(page, "grounded-report");
    await press(page.locator('.sentence[data-status="unsupported"] button.cite[data-cite="4"]'));
    // The row of the plan that ran last: step 4 of plan 3, which made the metrics.
    await page.locator('tr[data-step="4"].pointed', { hasText: "plan:3" }).waitFor();
    await page.close();
  });
});
