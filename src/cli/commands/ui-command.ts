import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Command } from "commander";
import { startUi } from "../../ui/ui-server.js";
import type { ContinueRun, Decision } from "../../ui/ui-decisions.js";
import { CliError } from "../cli-error.js";
import type { CliIo } from "../cli-io.js";
import { loadTools } from "../load-tools.js";
import { defaultStore, openStore } from "../store-option.js";
import type { Rerun } from "../continue-run.js";
import { handLeaseOn } from "../pause-resume.js";
import { flagsToGive, launchLineWithWord, shownFlags } from "../launch-line.js";
import type { CheckpointStore } from "../../journal/checkpoint-store.js";

interface UiFlags {
  store: string;
  tools?: string;
  model?: string;
  limitsShared?: string;
  baseUrl?: string;
  redis?: string;
  host: string;
  port: string;
}

/** What runs are continued with by their command lines, in place of what their launch lines name (see `launch-line.ts`). */
export interface ContinuingWord {
  store: string;
  tools: string;
  model?: string;
  limitsShared?: string;
  baseUrl?: string;
  redis?: string;
}

/**
 * `planloop ui`: the web app over a store, until Ctrl-C. With `--tools`, a decision taken in
 * the page continues the run in this process, as `planloop runs approve` would (the run's
 * own command, its output on stderr); without, the page shows the command that does.
 */
export function uiCommand(program: Command, io: CliIo, rerun: Rerun): void {
  program
    .command("ui")
    .option("--store <sqlite:path|postgres://…>", "the store whose runs to show", defaultStore)
    .option("--tools <module>", "the tools module the runs were started with: decisions taken in the page then continue the runs here")
    .option("--model <module>", "for runs started with a model module (--model ./model.mjs): the module to continue them with")
    .option(
      "--limits-shared <sqlite:path|postgres://…|redis://…>",
      "for runs started with --limits-shared elsewhere than the store: where to keep their limit",
    )
    .option("--base-url <url>", "for runs started with --base-url: the server their model calls, and your API key, go to")
    .option("--redis <url>", "for runs started with --redis: the Redis their steps go to")
    .option("--host <address>", "where to listen (anything but 127.0.0.1 lets other machines in, with the token)", "127.0.0.1")
    .option("--port <n>", "the port (0: a free one)", "4321")
    .action(async (flags: UiFlags) => {
      const port = Number(flags.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliError(`--port takes 0 to 65535, got "${flags.port}"`);
      if (flags.model !== undefined && !/^[./]|\.(?:[cm]?js|[cm]?ts)$/.test(flags.model))
        throw new CliError(
          `--model here names a model module (./model.mjs); a provider's model (${flags.model}) is read from the run's own command line`,
        );
      const store = await openStore(flags.store, { readonly: false });
      const tools = flags.tools === undefined ? undefined : await loadTools(flags.tools);
      // The store and the tools as they read from here: continuing a run moves to the folder it ran in.
      const storeFlag = flags.store.startsWith("sqlite:") ? `sqlite:${resolve(flags.store.slice("sqlite:".length))}` : flags.store;
      const word: ContinuingWord | undefined =
        flags.tools === undefined
          ? undefined
          : {
              store: storeFlag,
              tools: resolve(flags.tools),
              ...(flags.model === undefined ? {} : { model: resolve(flags.model) }),
              ...(flags.limitsShared === undefined ? {} : { limitsShared: flags.limitsShared }),
              ...(flags.baseUrl === undefined ? {} : { baseUrl: flags.baseUrl }),
              ...(flags.redis === undefined ? {} : { redis: flags.redis }),
            };
      const continueRun = word === undefined ? undefined : continuing(rerun, quietIo(io), word);
      const ui = await startUi({
        store,
        storeFlag,
        host: flags.host,
        port,
        ...(tools ? { tools } : {}),
        ...(continueRun && word
          ? { continueRun, cannotContinue: (runId: string) => whyNotHere(store, runId, { word, command: "planloop ui" }) }
          : {}),
      }).catch(async (error: unknown) => {
        await store.close();
        const code = (error as { code?: string }).code;
        if (code === "EADDRINUSE") throw new CliError(`port ${port} is taken; pick another with --port (0: any free one)`);
        throw error;
      });
      io.out(`planloop ui: ${ui.url}`);
      if (flags.tools === undefined)
        io.err("planloop ui: no --tools: decisions taken in the page are not run here; the page shows the command that runs them");
      await new Promise<void>((done) => {
        const stop = () => {
          process.off("SIGINT", stop);
          process.off("SIGTERM", stop);
          void ui.close().then(async () => {
            await store.close();
            done();
          });
        };
        process.on("SIGINT", stop);
        process.on("SIGTERM", stop);
      });
    });
}

/**
 * The command lines this process runs to continue runs go one at a time: each moves the process
 * to its run's folder (`process.chdir`), which two at once would pull from under each other.
 */
let inHand: Promise<unknown> = Promise.resolve();

/** Continues a run with a decision: `planloop runs approve|deny|answer …` in this process, one at a time (see `inHand`). */
export function continuing(rerun: Rerun, io: CliIo, where: ContinuingWord): ContinueRun {
  const one = continuingOne(rerun, io, where);
  return (request) => {
    const turn = inHand.then(() => one(request));
    inHand = turn.catch(() => {});
    return turn;
  };
}

function continuingOne(rerun: Rerun, io: CliIo, where: ContinuingWord): ContinueRun {
  return async ({ runId, decision, decisions, taken }) => {
    // The run's lease, taken for the decision, goes on to the command that continues it.
    const handed = taken === undefined ? undefined : handLeaseOn(taken.lease);
    const folder = decision?.action === "edit" ? mkdtempSync(join(tmpdir(), "planloop-ui-")) : undefined;
    try {
      const words =
        decisions !== undefined && decisions.length > 0
          ? waveWords(runId, decisions)
          : decision === undefined
            ? ["resume", runId]
            : decisionWords(runId, decision, folder);
      const by = decision === undefined && decisions === undefined ? [] : ["--decided-by", "planloop ui"];
      const argv = [
        "runs",
        ...words,
        "--store",
        where.store,
        "--tools",
        where.tools,
        ...wordArguments(where),
        ...by,
        // An answer is a person's text: after "--", one that starts with "-" is not read as an option.
        ...(words[0] === "answer" && decision?.action === "answer" ? ["--", decision.text] : []),
      ];
      // How the run then ends (completed, failed, waiting again) is the run's, shown in the page; only a run that could not be continued fails here.
      await rerun(argv, io);
    } finally {
      await handed?.takeBack()?.release();
      if (folder) rmSync(folder, { recursive: true, force: true });
    }
  };
}

/** A wave of approvals (or of denials, with the first one's reason) as one command. */
function waveWords(runId: string, decisions: readonly Decision[]): string[] {
  const first = decisions[0]!;
  const ids = decisions.map((decision) => decision.pendingId);
  if (first.action === "deny") return ["deny", runId, ...ids, ...(first.reason ? ["--reason", first.reason] : [])];
  return ["approve", runId, ...ids];
}

function decisionWords(runId: string, decision: Decision, folder: string | undefined): string[] {
  switch (decision.action) {
    case "approve":
      return ["approve", runId, decision.pendingId];
    case "edit": {
      const file = join(folder!, "plan.json");
      writeFileSync(file, JSON.stringify(decision.plan));
      return ["approve", runId, decision.pendingId, "--plan", file];
    }
    case "deny":
      return ["deny", runId, decision.pendingId, ...(decision.reason ? ["--reason", decision.reason] : [])];
    case "answer":
      return ["answer", runId, decision.pendingId];
  }
}

/** The flags of the person's word, handed on to the command that continues a run. */
function wordArguments(where: ContinuingWord): string[] {
  const given: Array<[string, string | undefined]> = [
    ["--model", where.model],
    ["--limits-shared", where.limitsShared],
    ["--base-url", where.baseUrl],
    ["--redis", where.redis],
  ];
  return given.flatMap(([flag, value]) => (value === undefined ? [] : [flag, value]));
}

/**
 * Why this face cannot continue a run by its command line: it has none (a program started it,
 * and continues it), its line is not one planloop writes, or it names a module or a place
 * (`--model ./model.mjs`, `--base-url`, `--redis`, `--limits-shared`) this face was not given.
 */
export async function whyNotHere(
  store: CheckpointStore,
  runId: string,
  here: { word: ContinuingWord; command: string },
): Promise<string | undefined> {
  const run = await store.getRun(runId);
  if (run === undefined) return undefined;
  const launch = run.journal.find((entry) => entry.kind === "launch");
  if (launch === undefined) return `run "${runId}" was started by a program (${run.entry}), which continues it: decide it there`;
  try {
    const { unconfirmed } = launchLineWithWord(runId, launch, here.word);
    if (unconfirmed.length === 0) return undefined;
    return `run "${runId}" was started with ${shownFlags(unconfirmed)}: start ${here.command} with ${flagsToGive(unconfirmed)} to continue it here`;
  } catch (error) {
    if (error instanceof CliError) return error.message;
    throw error;
  }
}

/** The ui's own io, with what a continued run prints sent to stderr: stdout carries the one line with the URL. */
export function quietIo(io: CliIo): CliIo {
  return { ...io, stdout: io.stderr, out: (line) => io.err(line), exitCode: () => {} };
}
