import pLimit, { type LimitFunction } from "p-limit";
import { InvalidOptionsError } from "../../core/errors.js";
import type { Model } from "../../core/model.js";
import { copyTextKeyed } from "../../core/records.js";
import { resolveDecisions, type PendingCall } from "../../core/tools/approvals.js";
import type { Tool } from "../../core/tools/define-tool.js";
import type { CallScope } from "../../core/tools/guarded-call.js";
import { guardTools } from "../../core/tools/tool-guard.js";
import { resolvePrompts, type Prompts } from "../../planner/prompts.js";
import type { ProgramError } from "../../sandbox/program-outcome.js";
import { runProgram } from "../../sandbox/run-program.js";
import type { SandboxLimits } from "../../sandbox/sandbox-limits.js";
import { signState } from "../../trust/state-signature.js";
import type { Critic, PlanVerifier } from "../answer-phase.js";
import { runStrategyDurably } from "../durable-strategy.js";
import type { JournalEntry } from "../../journal/checkpoint-store.js";
import { givenDecisions } from "../strategy-durability.js";
import type { ByStatus, StrategyResultFields } from "../strategy-result.js";
import {
  ask,
  checkStop,
  checkStrategyOptions,
  finishStrategy,
  type HumanDecisions,
  type StrategyOptions,
  type StrategyRun,
  type StrategyStop,
} from "../strategy-run.js";
import { createCodeModeState, readCodeModeState, type CodeModeState, type KeptCall, type WrittenProgram } from "./code-mode-state.js";
import { programPrompt, readProgram, repairMessages } from "./code-prompts.js";
import { answerProgram } from "./program-answer.js";
import { ProgramCalls } from "./program-calls.js";
import { keepProgramStart, readCodeJournal, type CodeJournal } from "./code-journal.js";

export interface CodeModeOptions extends StrategyOptions, HumanDecisions {
  /** Writes the program (purpose "plan", repairs "replan") and the answer from its results ("solve"). */
  model: Model;
  tools: readonly Tool[];
  /** Programs the model may write again after one fails or its answer is rejected; default 2. */
  maxRepairs?: number | undefined;
  /** A program's calls running at once (`Promise.all`); default 4. */
  concurrency?: number | undefined;
  /** The sandbox's limits for each run of a program (see `SandboxLimits`). */
  sandbox?: Partial<SandboxLimits> | undefined;
  /** Characters of a tool's output the program gets; default 20,000. */
  maxToolOutputChars?: number | undefined;
  /** Reviews the answer (see `Critic`); a rejection is a repair round. */
  critic?: Critic | undefined;
  /** Checks the answer against the real outcome; a failure is a repair round. */
  verify?: PlanVerifier | undefined;
  /** Replaces the solve, critic and grounding prompts. */
  prompts?: Partial<Prompts> | undefined;
  /** `result.state` of a run that ended `waiting`, to continue it: the waiting program runs again, reading its kept calls. */
  resume?: CodeModeState | undefined;
}

export interface CodeModeResultFields extends StrategyResultFields {
  /** The last program the model wrote. */
  program?: string;
  /** For `waiting`: pass it back as `resume`, with the decisions. JSON-safe. */
  state?: CodeModeState;
}

/** Code mode's result, discriminated by `status` (see `ByStatus`). */
export type CodeModeResult = ByStatus<CodeModeResultFields>;

/**
 * Code mode: the model writes one short program that calls the tools as async functions
 * (loops, branches, `Promise.all`), and the program runs in a QuickJS/WebAssembly sandbox
 * (`runProgram`). Every call it makes is the run's ordinary guarded call; a call that needs
 * approval makes the run wait, and resuming runs the program again from its start, reading the
 * calls that already ran. A failed program is shown to the model, which writes it again
 * (`maxRepairs`); the result is answered from like any strategy's steps.
 *
 * @example
 * const result = await codeMode({ task: "Total sales of the three shops", model, tools: [sales] });
 */
export async function codeMode(options: CodeModeOptions): Promise<CodeModeResult> {
  checkStrategyOptions(options, { planner: false, toolsFor: "code" });
  const maxRepairs = options.maxRepairs ?? 2;
  if (!Number.isInteger(maxRepairs) || maxRepairs < 0) throw new InvalidOptionsError("maxRepairs must be a whole number, 0 or more");
  const saved = options.resume === undefined ? undefined : readCodeModeState(options.resume);
  // Continued by id, the run's totals go on from its last pause, read from its journal.
  const totals = saved ?? ((journal: readonly JournalEntry[]) => readCodeJournal(journal).paused);
  return runStrategyDurably("code", options, totals, (run) =>
    runCodeMode(run, { ...options, maxRepairs, prompts: resolvePrompts(options.prompts) }, saved),
  );
}

type CodeModeConfig = CodeModeOptions & { maxRepairs: number; prompts: Prompts };

/** What one code-mode run keeps as it goes: the programs, every call with its outcome, and the call scope. */
interface Session {
  programs: WrittenProgram[];
  kept: KeptCall[];
  scope: CallScope;
  now: number;
  /** The run's cap on calls running at once (`concurrency`). */
  limit: LimitFunction;
}

async function runCodeMode(run: StrategyRun, config: CodeModeConfig, given: CodeModeState | undefined): Promise<CodeModeResult> {
  // Continued by id: the journal has the last pause and every call that ended since the run began.
  const journal = readCodeJournal(run.durability?.journal ?? []);
  const saved = given ?? journal.paused;
  const session = openSession(run, config, { saved, journal });
  // A resumed run runs its waiting program again; every other round asks for one.
  let waiting = saved?.pending;
  for (;;) {
    if (waiting === undefined) {
      const written = await writeProgram(run, config, session.programs);
      if (!written.ok) return finish(run, session, written.stop);
      session.programs.push({ source: written.source });
    }
    const attempt = session.programs.length - 1;
    const ran = await runAttempt(run, config, { session, attempt, waiting: waiting ?? [], cutShort: journal.cutShort });
    waiting = undefined;
    if ("result" in ran) return ran.result;
    session.programs[attempt]!.failure = ran.problem;
    if (attempt >= config.maxRepairs) {
      return finish(run, session, { status: "failed", reason: `the program failed ${attempt + 1} time(s); the last: ${ran.problem}` });
    }
    // A repair is code mode's replan: the same event, so progress displays and traces count it.
    run.events.emit({ type: "replan-start", replans: attempt + 1, reason: ran.problem });
  }
}

/**
 * One run of program `attempt`: in the sandbox, its calls guarded; then its answer. Ends the
 * run (answered, waiting, stopped), or says what went wrong for the model to repair.
 */
async function runAttempt(
  run: StrategyRun,
  config: CodeModeConfig,
  at: { session: Session; attempt: number; waiting: readonly PendingCall[]; cutShort: ReadonlySet<string> },
): Promise<{ result: CodeModeResult } | { problem: string }> {
  const { session, attempt } = at;
  const calls = new ProgramCalls({ run, scope: session.scope, kept: session.kept, limit: session.limit, ...at });
  const source = session.programs[attempt]!.source;
  keepProgramStart(run, { attempt, now: session.now, source });
  // The program is the run's plan, version by version: its calls are the steps, announced as they are made.
  run.events.emit({ type: "plan-created", version: attempt + 1, steps: [], program: source });
  const outcome = await runProgram({
    source,
    tools: config.tools.map((tool) => tool.name),
    call: (call) => calls.call(call),
    limits: config.sandbox,
    now: session.now,
    signal: run.signal,
  });
  if (outcome.kind === "suspended") return { result: pause(run, session, calls) };
  if (outcome.kind === "stopped") {
    const stop = calls.stopped ?? checkStop(run) ?? { status: "cancelled" as const, reason: outcome.reason };
    return { result: finish(run, session, stop) };
  }
  if (outcome.kind === "failed") return { problem: describeFailure(outcome.error, outcome.logs) };
  const answer = await answerProgram(run, { ...config, calls: calls.read, result: outcome.value });
  if (answer.kind === "stopped") return { result: finish(run, session, answer.stop) };
  if (answer.kind === "rejected") return { problem: `the answer made from its result was rejected: ${answer.problem}` };
  const { stop, output, provenance } = answer;
  return { result: finish(run, session, stop, { output, ...(provenance ? { provenance } : {}) }) };
}

function openSession(run: StrategyRun, config: CodeModeConfig, from: { saved: CodeModeState | undefined; journal: CodeJournal }): Session {
  const { saved, journal } = from;
  const humans = saved
    ? resolveDecisions(saved.pending, givenDecisions(config), saved.usedApprovals)
    : { approvals: {}, answers: {}, used: [] as string[] };
  return {
    programs: saved ? structuredClone(saved.programs) : [],
    // A kept call is found by its key, the newest first: the journal's were written as calls ended.
    kept: distinctCalls([...(saved ? structuredClone(saved.calls) : []), ...journal.calls]),
    now: saved?.now ?? journal.now ?? run.clock.now(),
    limit: pLimit(config.concurrency ?? 4),
    scope: {
      guard: guardTools(config.tools),
      budget: run.budget,
      callCounts: copyTextKeyed(saved?.toolCallCounts),
      humans,
      execution: { signal: run.signal, step: 0, clock: run.clock, maxOutputChars: config.maxToolOutputChars ?? 20_000 },
    },
  };
}

/** One entry per call (program and key), the last kept of each, in the order they first ended. */
function distinctCalls(calls: readonly KeptCall[]): KeptCall[] {
  const byPlace = new Map<string, KeptCall>();
  for (const call of calls) byPlace.set(`${call.attempt}/${call.key}`, call);
  return [...byPlace.values()];
}

/** Asks for a program: the first (purpose "plan"), or a repair that reads why the last failed ("replan"). */
async function writeProgram(
  run: StrategyRun,
  config: CodeModeConfig,
  programs: readonly WrittenProgram[],
): Promise<{ ok: true; source: string } | { ok: false; stop: StrategyStop }> {
  const specs = config.tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema }));
  const messages = programPrompt({ task: run.task, tools: specs });
  for (const program of programs) messages.push(...repairMessages({ source: program.source, failure: program.failure ?? "" }));
  const answer = await ask(run, config.model, programs.length === 0 ? "plan" : "replan", messages);
  if (!answer.ok) return answer;
  const source = readProgram(answer.text);
  // An empty reply is a program that fails at once: the model reads why in the next round.
  return { ok: true, source: source === "" ? "throw new Error('the reply held no program');" : source };
}

/** A failure as the model reads it in the repair round: what kind, what it said, and what the program logged. */
function describeFailure(error: ProgramError, logs: readonly string[]): string {
  const logged = logs.join("\n");
  const shown = logged.length > 2_000 ? `${logged.slice(0, 2_000)}…` : logged;
  return `(${error.kind}) ${error.message}${shown === "" ? "" : `\n\nIts console output:\n${shown}`}`;
}

/** The run waits for a person: the state holds the programs and kept calls, so the resume runs nothing twice. */
function pause(run: StrategyRun, session: Session, calls: ProgramCalls): CodeModeResult {
  const state = createCodeModeState({
    programs: session.programs,
    calls: session.kept,
    pending: calls.pending,
    now: session.now,
    toolCallCounts: { ...session.scope.callCounts },
    usedApprovals: [...session.scope.humans.used],
    usage: run.budget.spent,
    elapsedMs: run.budget.elapsedMs(),
  });
  const reason = `waiting for ${calls.pending.map((call) => `${call.kind} of "${call.name}" (${call.id})`).join(", ")}`;
  return finishStrategy<CodeModeResult>(run, {
    status: "waiting",
    reason,
    pending: calls.pending,
    state: signState(state, run.stateSecret, run.runId),
    steps: session.kept.length,
    replans: session.programs.length - 1,
    program: session.programs.at(-1)!.source,
  });
}

function finish(
  run: StrategyRun,
  session: Session,
  stop: StrategyStop,
  answered: { output?: string; provenance?: CodeModeResultFields["provenance"] } = {},
): CodeModeResult {
  const last = session.programs.at(-1);
  return finishStrategy<CodeModeResult>(run, {
    status: stop.status,
    steps: session.kept.length,
    replans: Math.max(0, session.programs.length - 1),
    ...(stop.reason === undefined ? {} : { reason: stop.reason }),
    ...(stop.limit === undefined ? {} : { limit: stop.limit }),
    ...answered,
    ...(last === undefined ? {} : { program: last.source }),
  } as Parameters<typeof finishStrategy<CodeModeResult>>[1]);
}
