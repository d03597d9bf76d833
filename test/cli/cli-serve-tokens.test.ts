// `planloop serve tokens` writes to the store `--store` names, before or after the subcommand, and
// `planloop serve --host 0.0.0.0` refuses without a token with advice that, followed, works.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cli } from "../helpers/run-cli.js";
import { startCli, type CliProcess } from "../helpers/cli-process.js";
import { testRoot } from "../helpers/paths.js";

const toolsModule = join(testRoot, "fixtures", "plan-tools.ts");
const started: CliProcess[] = [];

afterEach(async () => {
  await Promise.all(started.splice(0).map((process) => process.stop("SIGKILL")));
});

/** Starts `planloop serve` with the API on a free port; resolves with its port once it listens. */
async function serveApi(store: string): Promise<number> {
  const server = startCli(["serve", "--tools", toolsModule, "--store", store, "--port", "0", "--host", "0.0.0.0", "--tick-ms", "100"]);
  started.push(server);
  const line = await server.line(/^planloop serve: the API is on /);
  return Number(/:(\d+) /.exec(line)![1]);
}

function listRuns(port: number, token: string): Promise<number> {
  return fetch(`http://127.0.0.1:${port}/api/runs`, { headers: { authorization: `Bearer ${token}` } }).then((response) => response.status);
}

describe("planloop serve tokens", () => {
  it("keeps tokens in the store --store names, before or after the subcommand: a server on that store takes them", async () => {
    const store = `sqlite:${join(mkdtempSync(join(tmpdir(), "planloop-tokens-")), "runs.sqlite")}`;
    const after = await cli("serve", "tokens", "add", "reports", "--scope", "read", "--store", store);
    const before = await cli("serve", "--store", store, "tokens", "add", "ops", "--scope", "admin");
    expect([after.code, before.code]).toEqual([0, 0]);
    expect((await cli("serve", "tokens", "--store", store, "list")).out).toMatch(/^reports {2}read {2}made .*\nops {2}admin {2}made /);
    // Nothing went to the default store.
    expect((await cli("serve", "tokens", "list")).out).not.toMatch(/^(reports|ops) /m);

    const port = await serveApi(store);
    expect(await listRuns(port, after.out.trim())).toBe(200);
    expect(await listRuns(port, before.out.trim())).toBe(200);
    expect((await cli("serve", "tokens", "remove", "reports", "--store", store)).code).toBe(0);
    expect(await listRuns(port, after.out.trim())).toBe(401);
    expect(await listRuns(port, before.out.trim())).toBe(200);
  });

  it("serve --host 0.0.0.0 without a token names the command that adds one to its store; followed, the server starts and takes it", async () => {
    const store = `sqlite:${join(mkdtempSync(join(tmpdir(), "planloop-tokens-")), "runs.sqlite")}`;
    const refused = await cli("serve", "--tools", toolsModule, "--store", store, "--port", "0", "--host", "0.0.0.0");
    expect(refused.code).not.toBe(0);
    const advice = /add one with planloop (serve tokens add .*?), then start serve again/.exec(refused.err)?.[1];
    expect(advice, refused.err).toBe(`serve tokens add <name> --scope run --store ${store}`);

    const added = await cli(...advice!.replace("<name>", "app").split(" "));
    expect(added.code).toBe(0);
    const port = await serveApi(store);
    expect(await listRuns(port, added.out.trim())).toBe(200);
    expect(await listRuns(port, "plt_not-a-token")).toBe(401);
  });
});
