// The package as a user gets it: this checkout packed (`npm pack`) and installed into an
// empty ES module project by an npm that can find no compiler. One way to make it, for
// every test that needs a user's project.
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { promisify } from "node:util";
import { repoRoot } from "./paths.js";

const run = promisify(execFile);
// The npm running the tests (npm test sets npm_execpath); else the one beside this node.
const npmCli = process.env.npm_execpath?.endsWith("npm-cli.js")
  ? process.env.npm_execpath
  : resolve(dirname(process.execPath), "..", "lib", "node_modules", "npm", "bin", "npm-cli.js");
const quiet = { npm_config_audit: "false", npm_config_fund: "false", npm_config_update_notifier: "false" };

export interface PackedProject {
  /** The temporary folder that holds the tarball, `bin/` and the project. */
  work: string;
  /** The user's project: package.json with "type": "module", planloop and its peers installed. */
  project: string;
  /** The user's environment: PATH holds node and a shell, nothing else. */
  env: NodeJS.ProcessEnv;
}

/** Packs the checkout and installs the tarball into a new project (a few seconds, one install). */
export async function packedProject(): Promise<PackedProject> {
  const work = mkdtempSync(join(tmpdir(), "planloop-pack-"));
  // No cc, make or python for a native build to find.
  const bin = join(work, "bin");
  mkdirSync(bin);
  symlinkSync(process.execPath, join(bin, "node"));
  symlinkSync("/bin/sh", join(bin, "sh"));
  const env = { ...process.env, ...quiet, PATH: bin };
  const npm = (args: string[], cwd: string, environment: NodeJS.ProcessEnv = env) =>
    run(process.execPath, [npmCli, ...args], { cwd, env: environment, maxBuffer: 16 << 20 });

  // dist/ as `npm install` (prepare) built it: packing does not build it again under the
  // feet of tests that run the examples from it.
  await npm(["pack", "--ignore-scripts", "--pack-destination", work], repoRoot, { ...process.env, ...quiet });
  const tarball = readdirSync(work).find((name) => name.endsWith(".tgz"))!;
  const project = join(work, "project");
  mkdirSync(project);
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "user-project", private: true, type: "module" }));
  await npm(["install", "--prefer-offline", join(work, tarball)], project);
  return { work, project, env };
}
