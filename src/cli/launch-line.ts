import { resolve } from "node:path";
import { createInterface } from "node:readline/promises";
import type { JournalEntry } from "../journal/checkpoint-store.js";
import { CliError } from "./cli-error.js";
import { limitNumberFlags, limitsSharedPattern, wholeNumberPattern } from "./limit-option.js";

/*
 * A stored launch line is input, not a command: anyone who can write to the store can plant
 * one. `planloop runs resume|approve|deny|answer` run it again only when it is a line planloop
 * writes (a command and flags it knows, each value of the form planloop writes), and load no
 * module and open no place it names unless the person says so: `--tools <module>` (or
 * `--limits-shared <where>`) on the command line, or a yes to the question on a terminal. A
 * limit shared in the run's own store needs no word: the person named that store.
 */

/** The flags planloop writes into a launch line, per command: those that take a value, and switches. */
const storedFlags: Record<string, { values: readonly string[]; switches: readonly string[] }> = {
  run: {
    values: ["--tools", "--concurrency", "--model", "--base-url", "--api-key-env", "--redis", "--queue", ...limitFlags()],
    switches: [],
  },
  ask: {
    values: [
      "--strategy",
      "--model",
      "--base-url",
      "--api-key-env",
      "--tools",
      "--context-tokens",
      "--context-keep",
      "--task-type",
      "--grounding",
      ...limitFlags(),
    ],
    switches: ["--replan-early", "--review-plan", "--plan-cache"],
  },
};

function limitFlags(): string[] {
  return [...limitNumberFlags, "--limits-shared"];
}

type Launch = Extract<JournalEntry, { kind: "launch" }>;

/** What `--api-key-env` may name in a stored line: `OPENAI_API_KEY` and the like, never one of planloop's own (`PLANLOOP_…`). */
const providerKeyVariable = /^(?!PLANLOOP_)[A-Z][A-Z0-9_]*_API_KEY$/;

/**
 * The command line to run the stored run again with: the stored one, checked, with the tools
 * module the person named (`given.tools`), or the stored module once they confirmed it.
 */
export async function trustedLaunchLine(
  runId: string,
  launch: Launch,
  given: { tools?: string | undefined; model?: string | undefined; limitsShared?: string | undefined; store?: string | undefined },
): Promise<string[]> {
  const argv = [...launch.argv];
  const allowed = storedFlags[argv[0] ?? ""];
  if (allowed === undefined || typeof argv[1] !== "string") throw planted(runId, `it starts with ${JSON.stringify(argv.slice(0, 2))}`);
  const modules: number[] = [];
  for (let position = 2; position < argv.length; position += 1) {
    const flag = argv[position]!;
    if (allowed.switches.includes(flag)) continue;
    if (!allowed.values.includes(flag) || typeof argv[position + 1] !== "string") throw planted(runId, `it holds ${JSON.stringify(flag)}`);
    position += 1;
    // The variable a provider's key is read from: a stored line must not name another (a secret of planloop's, a database's).
    if (flag === "--api-key-env" && !providerKeyVariable.test(argv[position]!))
      throw planted(
        runId,
        `it reads the API key from ${JSON.stringify(argv[position])}, which is not a provider's key variable (NAME_API_KEY)`,
      );
    if (limitNumberFlags.includes(flag) && !wholeNumberPattern.test(argv[position]!))
      throw planted(runId, `it gives ${flag} ${JSON.stringify(argv[position])}, not a whole number`);
    if (flag === "--limits-shared" && !limitsSharedPattern.test(argv[position]!))
      throw planted(runId, `it keeps its limit in ${JSON.stringify(argv[position])}, not a SQLite file, Postgres or Redis`);
    // A limit kept in the run's own store needs no word (the person named the store), unless they gave another.
    const ownStore = given.store !== undefined && argv[position] === given.store && given.limitsShared === undefined;
    if (flag === "--tools" || (flag === "--model" && namesModule(argv[position]!)) || (flag === "--limits-shared" && !ownStore))
      modules.push(position);
  }
  // What the person named on this command line replaces the stored one; anything else stored that loads or opens needs a yes.
  const named = (flag: string) => (flag === "--tools" ? given.tools : flag === "--model" ? given.model : given.limitsShared);
  for (const position of modules) {
    const mine = named(argv[position - 1]!);
    if (mine !== undefined) argv[position] = argv[position - 1] === "--limits-shared" ? sharedPlace(mine) : resolve(mine);
  }
  const unconfirmed = modules
    .filter((position) => named(argv[position - 1]!) === undefined)
    .map((position) => `${argv[position - 1]} ${argv[position]}`);
  if (unconfirmed.length === 0 || (await confirmed(runId, unconfirmed))) return argv;
  throw new CliError(
    `run "${runId}" was started with ${unconfirmed.join(" ")}; nothing the store names is loaded without your word: ` +
      `pass --tools <module> (and --model <module> for a model module, --limits-shared <where> for a shared limit: the same, or your own), ` +
      `or run this on a terminal to confirm it`,
  );
}

/** A `--limits-shared` the person gave, as the launch line keeps it (a SQLite file by its absolute path). */
function sharedPlace(where: string): string {
  return where.startsWith("sqlite:") ? `sqlite:${resolve(where.slice("sqlite:".length))}` : where;
}

/** A model given as a module of yours (a path), not a provider's name. */
export function namesModule(model: string): boolean {
  return /^[./]|\.(?:[cm]?js|[cm]?ts)$/.test(model);
}

/** Asks on a terminal whether to load the modules a stored run names; false without one. */
async function confirmed(runId: string, modules: readonly string[]): Promise<boolean> {
  if (!process.stdin.isTTY || !process.stdout.isTTY) return false;
  const prompt = createInterface({ input: process.stdin, output: process.stdout });
  try {
    const answer = await prompt.question(`run "${runId}" loads ${modules.join(", ")} (named in the store). Load it? [y/N] `);
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    prompt.close();
  }
}

function planted(runId: string, what: string): CliError {
  return new CliError(
    `run "${runId}" has a launch line planloop did not write (${what}); it is not run. Continue the run from your program, or start it anew`,
  );
}
