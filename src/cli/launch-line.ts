import { resolve } from "node:path";
import { createInterface } from "node:readline/promises";
import type { JournalEntry } from "../journal/checkpoint-store.js";
import { CliError } from "./cli-error.js";
import { limitNumberFlags, limitsSharedPattern, limitsSharedVariablePattern, wholeNumberPattern } from "./limit-option.js";

/*
 * A stored launch line is input, not a command: anyone who can write to the store can plant
 * one. `planloop runs resume|approve|deny|answer` run it again only when it is a line planloop
 * writes (a command and flags it knows, each value of the form planloop writes), and load no
 * module and open no place it names unless the person says so: the same flag on the command
 * line (`--tools <module>`, `--base-url <url>`, …: theirs takes its place), or a yes to the
 * question on a terminal. A place is where the run sends something: the provider's key and the
 * prompts (`--base-url`), the steps (`--redis`), the limit's turns (`--limits-shared`; in the
 * run's own store it needs no word: the person named that store).
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
  // `--limits-shared-env` names a variable of the continuing command's own environment, not a
  // place: it needs no word (a key's variable is refused, and the value is never shown).
  return [...limitNumberFlags, "--limits-shared", "--limits-shared-env"];
}

type Launch = Extract<JournalEntry, { kind: "launch" }>;

/** What the person gave on the continuing command: each takes the place of the stored flag it names. */
export interface PersonsWord {
  /** The store the run is continued in (a limit shared there needs no word). */
  store?: string | undefined;
  tools?: string | undefined;
  model?: string | undefined;
  limitsShared?: string | undefined;
  baseUrl?: string | undefined;
  redis?: string | undefined;
  /** "never" for a service no one answers (`planloop serve`): what is not given is refused, not asked. Default: a terminal is asked. */
  ask?: "on a terminal" | "never" | undefined;
}

/** The stored flags that load a module or open a place, the person's flag that stands for each, and when a stored value needs no word. */
const needsWord = new Map<
  string,
  {
    given: "tools" | "model" | "limitsShared" | "baseUrl" | "redis";
    shape: string;
    /** Whether a stored value names something at all (default: always). */
    named?: (value: string, word: PersonsWord) => boolean;
    /** The person's value as the line keeps it (default: as given). */
    asKept?: (mine: string) => string;
  }
>([
  ["--tools", { given: "tools", shape: "<module>", asKept: (mine) => resolve(mine) }],
  // A provider's model by its name names nothing to load.
  ["--model", { given: "model", shape: "<module>", named: namesModule, asKept: (mine) => resolve(mine) }],
  // A limit kept in the run's own store needs no word (the person named the store), unless they gave another.
  ["--limits-shared", { given: "limitsShared", shape: "<where>", named: (value, word) => !ownStore(value, word), asKept: sharedPlace }],
  ["--base-url", { given: "baseUrl", shape: "<url>" }],
  ["--redis", { given: "redis", shape: "<url>" }],
]);

function ownStore(value: string, word: PersonsWord): boolean {
  return word.store !== undefined && value === word.store && word.limitsShared === undefined;
}

/** What the provider's key variable may be in a stored line: `OPENAI_API_KEY` and the like, never one of planloop's own (`PLANLOOP_…`). */
const providerKeyVariable = /^(?!PLANLOOP_)[A-Z][A-Z0-9_]*_API_KEY$/;

/**
 * The command line to run the stored run again with: the stored one, checked, with what the
 * person named (`word`) in place of what the store names, or the stored module or place once
 * they confirmed it on a terminal.
 */
export async function trustedLaunchLine(runId: string, launch: Launch, word: PersonsWord): Promise<string[]> {
  const { argv, unconfirmed } = launchLineWithWord(runId, launch, word);
  await confirmWord(runId, unconfirmed, word.ask);
  return argv;
}

/**
 * Resolves once the person said yes on a terminal to the stored modules and places they did not
 * name (at once for none); else throws, naming each and the flag that would stand for it.
 */
export async function confirmWord(runId: string, unconfirmed: readonly Unconfirmed[], ask: PersonsWord["ask"]): Promise<void> {
  if (unconfirmed.length === 0) return;
  if (ask !== "never" && (await confirmed(runId, unconfirmed))) return;
  throw new CliError(
    `run "${runId}" was started with ${shownFlags(unconfirmed)}; nothing the store names is loaded or opened without your word: ` +
      `pass ${flagsToGive(unconfirmed)} (the same, or your own)${ask === "never" ? "" : ", or run this on a terminal to confirm it"}`,
  );
}

/**
 * The flags of a launch line this process writes that the command continuing it names again
 * (the store is not trusted to): `--tools /abs/tools.mjs --base-url http://…`, for the line that
 * says how to continue a run.
 */
export function namedAgain(argv: readonly string[], store: string | undefined): string[] {
  const { unconfirmed } = launchLineWithWord("", { kind: "launch", argv: [...argv], cwd: "" }, { store });
  return unconfirmed.flatMap((item) => [item.flag, item.value]);
}

/** A stored flag that needs the person's word they did not give. */
export interface Unconfirmed {
  flag: string;
  value: string;
}

/**
 * The stored line checked (one planloop did not write throws), with the person's flags in place,
 * and the stored modules and places they did not name: a pure look, for a face that says why it
 * cannot continue a run before it tries (`planloop ui`).
 */
export function launchLineWithWord(runId: string, launch: Launch, word: PersonsWord): { argv: string[]; unconfirmed: Unconfirmed[] } {
  const argv = [...launch.argv];
  const allowed = Object.hasOwn(storedFlags, argv[0] ?? "") ? storedFlags[argv[0]!] : undefined;
  if (allowed === undefined || typeof argv[1] !== "string") throw planted(runId, `it starts with ${JSON.stringify(argv.slice(0, 2))}`);
  const unconfirmed: Unconfirmed[] = [];
  for (let position = 2; position < argv.length; position += 1) {
    const flag = argv[position]!;
    if (allowed.switches.includes(flag)) continue;
    if (!allowed.values.includes(flag) || typeof argv[position + 1] !== "string") throw planted(runId, `it holds ${JSON.stringify(flag)}`);
    position += 1;
    checkValue(runId, flag, argv[position]!);
    const rule = needsWord.get(flag);
    if (rule === undefined || (rule.named !== undefined && !rule.named(argv[position]!, word))) continue;
    const mine = word[rule.given];
    if (mine === undefined) unconfirmed.push({ flag, value: argv[position]! });
    else argv[position] = rule.asKept === undefined ? mine : rule.asKept(mine);
  }
  return { argv, unconfirmed };
}

/** A stored value of a form planloop does not write is refused: the line was planted. */
function checkValue(runId: string, flag: string, value: string): void {
  // The variable a provider's key is read from: a stored line must not name another (a secret of planloop's, a database's).
  if (flag === "--api-key-env" && !providerKeyVariable.test(value))
    throw planted(runId, `it reads the API key from ${JSON.stringify(value)}, which is not a provider's key variable (NAME_API_KEY)`);
  if (limitNumberFlags.includes(flag) && !wholeNumberPattern.test(value))
    throw planted(runId, `it gives ${flag} ${JSON.stringify(value)}, not a whole number`);
  if (flag === "--limits-shared-env" && !limitsSharedVariablePattern.test(value))
    throw planted(runId, `it reads its limit's place from ${JSON.stringify(value)}, not a variable's name (or one of a provider's key)`);
  if (flag === "--limits-shared" && !limitsSharedPattern.test(value))
    throw planted(runId, `it keeps its limit in ${JSON.stringify(value)}, not a SQLite file, Postgres or Redis`);
}

/** The flags that would stand for them: `--base-url <url>, --tools <module>`. */
export function flagsToGive(items: readonly Unconfirmed[], separator = ", "): string {
  return [...new Set(items.map((item) => `${item.flag} ${needsWord.get(item.flag)!.shape}`))].join(separator);
}

/** The stored flags, as a person reads them: `--base-url http://…`, one after another. */
export function shownFlags(items: readonly Unconfirmed[]): string {
  return items.map((item) => `${item.flag} ${item.value}`).join(" ");
}

/** A `--limits-shared` the person gave, as the launch line keeps it (a SQLite file by its absolute path). */
function sharedPlace(where: string): string {
  return where.startsWith("sqlite:") ? `sqlite:${resolve(where.slice("sqlite:".length))}` : where;
}

/** A model given as a module of yours (a path), not a provider's name. */
export function namesModule(model: string): boolean {
  return /^[./]|\.(?:[cm]?js|[cm]?ts)$/.test(model);
}

/** Asks on a terminal whether to load the modules and open the places a stored run names; false without one. */
async function confirmed(runId: string, items: readonly Unconfirmed[]): Promise<boolean> {
  if (!process.stdin.isTTY || !process.stdout.isTTY) return false;
  const prompt = createInterface({ input: process.stdin, output: process.stdout });
  try {
    const named = items.map((item) => `${item.flag} ${item.value}`).join(", ");
    const answer = await prompt.question(`run "${runId}" loads or opens ${named} (named in the store). Go on with it? [y/N] `);
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
