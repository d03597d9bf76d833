// A run started with limit flags keeps them when it is continued (issue 58): the launch line
// holds --requests-per-minute and --limits-shared, and `planloop runs approve` runs the rest of
// the plan under the same limit. A stored line is input: a limit flag of a form planloop does not
// write is refused, and a shared limit elsewhere than the run's own store is not opened without
// the person's word (--limits-shared on the command line, or a yes on a terminal).
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { sqliteStore } from "planloop/sqlite";
import { trustedLaunchLine } from "../../src/cli/launch-line.js";
import { cli } from "../helpers/run-cli.js";
import { completion, startChatServer, type ChatServer } from "../helpers/chat-server.js";
import { testRoot } from "../helpers/paths.js";

const dir = mkdtempSync(join(tmpdir(), "planloop-launch-limits-"));
const toolsModule = join(testRoot, "fixtures", "plan-tools.ts");
const servers: ChatServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

/** A payment a human approves, then two agent steps at once that each ask the model. */
function planFile(): string {
  const path = join(dir, `plan-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(
    path,
    JSON.stringify({
      steps: [
        { id: 1, task: "pay", tool: "pay", args: { amount: 5 } },
        { id: 2, task: "summarize the payment", depends_on: [1] },
        { id: 3, task: "summarize the day", depends_on: [1] },
      ],
    }),
  );
  return path;
}

const launch = (argv: string[]) => ({ kind: "launch" as const, argv, cwd: dir });

describe("limit flags on a run continued later", () => {
  it("runs approve continues the run under the limit it was started with: the two model calls three seconds apart", async () => {
    const server = await startChatServer([completion({ content: "one" }), completion({ content: "two" })]);
    servers.push(server);
    const storeFile = join(dir, "runs.sqlite");
    const store = `sqlite:${storeFile}`;
    const model = ["--base-url", server.baseURL, "--model", "m"];
    const limit = ["--requests-per-minute", "20", "--limits-shared", store];
    const started = await cli("run", planFile(), "--tools", toolsModule, ...model, ...limit, "--store", store, "--run-id", "limited-1");
    expect(started.code).toBe(3);
    const kept = sqliteStore({ path: storeFile, readonly: true });
    const line = (await kept.getRun("limited-1"))!.journal.find((entry) => entry.kind === "launch") as { argv: string[] };
    await kept.close();
    expect(line.argv).toEqual(expect.arrayContaining(["--requests-per-minute", "20", "--limits-shared", store]));

    const approved = await cli(
      "runs",
      "approve",
      "limited-1",
      "step:1",
      "--tools",
      toolsModule,
      "--base-url",
      server.baseURL,
      "--store",
      store,
    );
    expect(approved.code).toBe(0);
    const at = server.requests.map((request) => request.at).sort((a, b) => a - b);
    expect(at).toHaveLength(2);
    // A turn every three seconds: without the stored flags the two calls arrive within a few ms. The
    // margin is for a busy machine, where the first call can reach the server late (568 ms of a
    // 1,000 ms turn under a load of 25).
    expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(2000);
  });

  it("refuses a stored limit flag of a form planloop does not write", async () => {
    for (const [flag, value, why] of [
      ["--requests-per-minute", "0", "not a whole number"],
      ["--tokens-per-minute", "60 --events /tmp/x", "not a whole number"],
      ["--concurrent-requests", "-1", "not a whole number"],
      ["--limits-shared", "file:///etc/passwd", "not a SQLite file, Postgres or Redis"],
      ["--limits-shared", "http://attacker.example/", "not a SQLite file, Postgres or Redis"],
    ] as const) {
      const argv = ["ask", "anything", "--model", "m", "--base-url", "http://127.0.0.1:9/v1", flag, value];
      await expect(trustedLaunchLine("planted", launch(argv), { store: "sqlite:/runs.sqlite" })).rejects.toThrow(
        `run "planted" has a launch line planloop did not write (it ${flag === "--limits-shared" ? "keeps its limit in" : `gives ${flag}`} ${JSON.stringify(value)}, ${why})`,
      );
    }
  });

  it("opens a stored shared limit only in the run's own store, or where the person says", async () => {
    const base = ["run", "/plans/p.json", "--tools", "/tools.mjs", "--base-url", "http://127.0.0.1:9/v1", "--model", "m"];
    const given = { tools: "/tools.mjs", baseUrl: "http://127.0.0.1:9/v1", store: "sqlite:/data/runs.sqlite" };
    // The run's own store: the person named it.
    const own = [...base, "--requests-per-minute", "60", "--limits-shared", "sqlite:/data/runs.sqlite"];
    expect(await trustedLaunchLine("r", launch(own), given)).toEqual(own);
    // Unless the person gives another place: theirs is used.
    expect(await trustedLaunchLine("r", launch(own), { ...given, limitsShared: "sqlite:mine.sqlite" })).toEqual([
      ...own.slice(0, -1),
      `sqlite:${join(process.cwd(), "mine.sqlite")}`,
    ]);
    // Elsewhere (a database the store's writer chose): not without a word.
    const elsewhere = [...base, "--limits-shared", "postgres://planloop@attacker.example/db"];
    await expect(trustedLaunchLine("r", launch(elsewhere), given)).rejects.toThrow(
      'run "r" was started with --limits-shared postgres://planloop@attacker.example/db; nothing the store names is loaded or opened without your word',
    );
    // The person's own place replaces it.
    expect(await trustedLaunchLine("r", launch(elsewhere), { ...given, limitsShared: "redis://127.0.0.1:6379" })).toEqual([
      ...base,
      "--limits-shared",
      "redis://127.0.0.1:6379",
    ]);
  });

  it("continues an ask run started with --grounding (a flag planloop writes)", async () => {
    const argv = ["ask", "anything", "--strategy", "react", "--model", "m", "--base-url", "http://127.0.0.1:9/v1", "--grounding", "strict"];
    expect(await trustedLaunchLine("r", launch(argv), { baseUrl: "http://127.0.0.1:9/v1" })).toEqual(argv);
  });
});
