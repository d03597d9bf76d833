// planloop ui's page on the run server (planloop serve --port, a process of its own), in Debian's
// Chromium: the page at /ui/ with the session token lists a run the API started, and Approve all
// continues it in the server, the way it was started: each payment once.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";
import { planloopClient } from "planloop/client";
import { startCli, type CliProcess } from "../helpers/cli-process.js";
import { testRoot } from "../helpers/paths.js";

const executablePath = "/usr/bin/chromium";
const available = existsSync(executablePath) || process.env.CI === "true";
const launchArgs = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"];
let serve: CliProcess | undefined;
let browser: Browser | undefined;
afterAll(async () => {
  await browser?.close();
  await serve?.stop("SIGKILL");
});

describe.skipIf(!available)("planloop serve's page", () => {
  it("shows the API's runs at /ui/, and Approve all there continues the run in the server", async () => {
    const dir = mkdtempSync(join(tmpdir(), "planloop-serve-page-"));
    const payments = join(dir, "calls.log");
    writeFileSync(payments, "");
    serve = startCli(
      ["serve", "--tools", join(testRoot, "fixtures", "ui-tools.ts"), "--store", `sqlite:${join(dir, "runs.sqlite")}`, "--port", "0"],
      { PLANLOOP_TEST_LOG: payments },
    );
    const url = /the API is on (http:\/\/\S+) /.exec(await serve.line(/the API is on /))![1]!;
    const page = /the page is on (\S+)$/.exec(await serve.line(/the page is on /))![1]!;
    const token = new URL(page).searchParams.get("token")!;
    expect(page).toBe(`${url}/ui/?token=${token}`);
    const client = planloopClient({ url, token });
    await client.start({
      plan: { steps: [1, 2].map((id) => ({ id, task: `pay ${id}`, tool: "pay", args: { amount: id * 10 } })) },
      runId: "paid",
    });
    for await (const event of client.stream("paid")) if (event.type === "run-paused") break;

    browser = await chromium.launch({ executablePath, args: launchArgs });
    const tab = await browser.newPage();
    await tab.goto(page);
    await tab.locator('tr[data-run="paid"] .badge.waiting').waitFor({ timeout: 20_000 });
    // The API's routes are the server's own beside the page: the page's token opens them too.
    expect((await fetch(`${url}/api/runs/paid`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    await tab.getByRole("link", { name: "Inbox" }).click();
    await tab.locator('.wave[data-wave="paid"]').getByRole("button", { name: "Approve all (2)" }).click();
    const events = [];
    for await (const event of client.stream("paid")) events.push(event);
    expect(events.at(-1)).toMatchObject({ type: "run-end", status: "completed" });
    expect(readFileSync(payments, "utf8").trim().split("\n").sort()).toEqual(["paid 10 paid/1", "paid 20 paid/2"]);
    expect((await client.get("paid")).decisions.map((decision) => decision.by)).toEqual(["planloop ui", "planloop ui"]);
  });
});
