// The first hour, measured: every block of README.md and docs/*.md marked runnable
// (```ts runnable, ```js runnable) runs as written, offline, in a user's project made from the
// packed tarball. One pack and one install for all blocks; each block runs as a child process
// in a folder of its own inside that project, so what one block writes another never reads.
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtinSqlite } from "../../src/stores/sqlite/node-sqlite.js";
import { packedProject, type PackedProject } from "../helpers/packed-project.js";
import { repoRoot } from "../helpers/paths.js";
import { runnableBlocks, type RunnableBlock } from "../helpers/runnable-blocks.js";

const run = promisify(execFile);
const blocks = runnableBlocks(repoRoot);
// A user runs a .ts file with `npx tsx` (or Node 22.18+ alone); the project does not install
// tsx, so the checkout's is loaded by path, the same on every Node the suite runs on.
const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
const blockTimeoutMs = 120_000;

let user: PackedProject;

beforeAll(async () => {
  user = await packedProject();
  // planloop/sqlite needs better-sqlite3@12 on a Node without node:sqlite (20), as the README
  // tells the user to install. No network or compiler here: the checkout's built copy stands in.
  const driver = join(repoRoot, "node_modules", "better-sqlite3");
  if (builtinSqlite() === undefined && existsSync(driver)) symlinkSync(driver, join(user.project, "node_modules", "better-sqlite3"));
});

afterAll(() => {
  if (user) rmSync(user.work, { recursive: true, force: true });
});

async function runBlock(block: RunnableBlock): Promise<{ ok: boolean; output: string }> {
  const folder = join(user.project, "blocks", block.place.replace(/[/.:]/g, "-"));
  mkdirSync(folder, { recursive: true });
  const file = join(folder, block.language === "ts" ? "block.ts" : "block.mjs");
  writeFileSync(file, block.code);
  const args = block.language === "ts" ? ["--import", tsx, file] : [file];
  // The user's environment, not the test run's: no PLANLOOP_STORE pointing into the suite.
  const env = Object.fromEntries(Object.entries(user.env).filter(([name]) => !name.startsWith("PLANLOOP_")));
  try {
    const { stdout, stderr } = await run(process.execPath, args, { cwd: folder, env, timeout: blockTimeoutMs, maxBuffer: 16 << 20 });
    return { ok: true, output: stdout + stderr };
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; killed?: boolean; message: string };
    const reason = failed.killed ? `killed after ${blockTimeoutMs} ms\n` : "";
    return { ok: false, output: `${reason}${failed.stdout ?? ""}${failed.stderr ?? failed.message}` };
  }
}

describe("the docs' runnable blocks", () => {
  it("are marked in the README and the docs", () => {
    expect(blocks.length).toBeGreaterThanOrEqual(10);
  });

  it.each(blocks.map((block) => [block.place, block] as const))(
    "%s runs as written",
    async (place, block) => {
      const { ok, output } = await runBlock(block);
      expect(ok, `${place} failed:\n${output}`).toBe(true);
    },
    60_000,
  );
});
