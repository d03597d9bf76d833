// The command's rough edges (issue 30 §5): a reader that closes the pipe early ends the command
// quietly; a run not found names the store's absolute path and how to name another.
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { sqliteStore } from "planloop/sqlite";
import { cli } from "./helpers/run-cli.js";

const main = join(import.meta.dirname, "..", "src", "cli", "main.ts");

describe("planloop on a closed pipe and a missing run", () => {
  it("runs list | head -1 prints one line and no stack trace", () => {
    const path = join(mkdtempSync(join(tmpdir(), "planloop-pipe-")), "runs.sqlite");
    sqliteStore({ path }).close();
    const db = new Database(path);
    const insert = db.prepare(
      "INSERT INTO planloop_runs (run_id, entry, status, created_at, updated_at) VALUES (?, 'executePlan', 'running', ?, ?)",
    );
    db.transaction(() => {
      for (let index = 0; index < 5_000; index += 1) insert.run(`run-${index}`, index, index);
    })();
    db.close();
    const piped = spawnSync(
      "sh",
      ["-c", `"${process.execPath}" --import tsx "${main}" runs list --limit 5000 --store "sqlite:${path}" | head -1`],
      {
        encoding: "utf8",
      },
    );
    expect(piped.stdout.trim().split("\n")).toHaveLength(1);
    expect(piped.stderr).not.toMatch(/EPIPE|Error/);
  }, 60_000);

  it("a run not found names the store by its absolute path, and --store / PLANLOOP_STORE", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "planloop-where-")), "runs.sqlite");
    sqliteStore({ path }).close();
    const shown = await cli("runs", "show", "nope", "--store", `sqlite:${relative(process.cwd(), path)}`);
    expect(shown.code).not.toBe(0);
    expect(shown.err).toContain(
      `there is no run "nope" in sqlite:${path}; name the store the run was kept in with --store or PLANLOOP_STORE`,
    );
  });
});
