import type { LeaseOptions, RunLease } from "../journal/run-lease.js";
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Command } from "commander";
import type { PendingCall } from "../react/agent-status.js";
import type { ApprovalDecision } from "../core/tools/guarded-call.js";
import type { PendingPlan } from "../strategies/plan-review.js";
import type { PlanWait } from "../executor/execution-result.js";
import { namedAgain } from "./launch-line.js";
import { CliError, readJsonFile } from "./cli-error.js";
import type { CliIo } from "./cli-io.js";
import { textKeyed } from "../core/records.js";

/** The flags of a command whose run can wait for a human and be resumed. */
export interface PauseFlags {
  state?: string;
  resume?: string;
  approve?: string[];
  deny?: string[];
  denyReason?: string;
  answer?: string[];
  /** A run kept in a store continues by id: decisions go with it, as with --resume. */
  runId?: string;
  /** With `--approve plan:<v>`: the edited plan (a JSON file) to run instead. */
  plan?: string;
  /** Another process runs this id: wait until it is free instead of failing. */
  wait?: boolean;
  /** How long this process's lease on a stored run lasts unless renewed, in milliseconds. */
  leaseMs?: string;
  /** Who gives the decisions, kept with them in the journal. */
  decidedBy?: string;
}

/**
 * Leases this process took on runs it is about to continue by their command line (`planloop ui`
 * takes a run for a person's decision before it answers): the command goes on under the lease
 * rather than taking another, so no other process slips in between.
 */
const handedOn = new Map<string, RunLease>();

/** Hands `lease` on to the next command of this process that continues its run, until `takeBack`. */
export function handLeaseOn(lease: RunLease): { takeBack(): RunLease | undefined } {
  handedOn.set(lease.runId, lease);
  return {
    takeBack: () => {
      if (handedOn.get(lease.runId) !== lease) return undefined;
      handedOn.delete(lease.runId);
      return lease;
    },
  };
}

/** The lease a stored run is held with, from `--wait` and `--lease-ms`; a lease handed on for `runId` (`handLeaseOn`) is used as it is. */
export function leaseFromFlags(flags: PauseFlags, runId?: string): LeaseOptions {
  const held = runId === undefined ? undefined : handedOn.get(runId);
  if (held !== undefined) return { held };
  const ttlMs = flags.leaseMs === undefined ? undefined : Number(flags.leaseMs);
  if (ttlMs !== undefined && !(Number.isInteger(ttlMs) && ttlMs >= 10))
    throw new CliError("--lease-ms must be a whole number of milliseconds >= 10");
  return { onBusy: flags.wait ? "wait" : "fail", ...(ttlMs === undefined ? {} : { ttlMs }) };
}

export function pauseOptions(command: Command, defaultState: string): Command {
  return command
    .option("--state <file>", `where a waiting run saves its state (default: ${defaultState})`)
    .option("--resume <file>", "continue the waiting run saved in this state file")
    .option("--approve <ids...>", "approve these pending calls (with --resume or --run-id); an id that is not pending is an error")
    .option("--deny <ids...>", "deny these pending calls (with --resume or --run-id)")
    .option("--deny-reason <text>", "why they are denied (the run sees it)")
    .option("--answer <id=text...>", "answer these pending questions (with --resume or --run-id)")
    .option("--plan <file>", "with --approve plan:<version>: run this edited plan (JSON) instead of the one waiting")
    .option("--decided-by <name>", "who gives these decisions (kept with them in the run's journal)")
    .option("--wait", "if another process is running this run id (--run-id), wait until it is free instead of failing")
    .option(
      "--lease-ms <ms>",
      "how long this process holds a stored run unless it renews the hold; a crash blocks the run at most this long",
      "30000",
    );
}

/** What a state file holds once the run it saved has finished: a second resume runs nothing. */
const finishedKind = "planloop/finished-run";

/** The saved state (with --resume) and the human's decisions from the command line. */
export function resumeFromFlags(flags: PauseFlags): {
  resume?: unknown;
  approvals?: Record<string, ApprovalDecision>;
  answers?: Record<string, string>;
  decidedBy?: string;
  /** The state file holds a run that already finished: nothing is to run. */
  finished?: string;
} {
  const decided = [...(flags.approve ?? []), ...(flags.deny ?? []), ...(flags.answer ?? [])];
  if (!flags.resume && !flags.runId) {
    if (decided.length > 0) throw new CliError("--approve, --deny and --answer go with --resume <state file> or --run-id <id>");
    return {};
  }
  const approvals = textKeyed<ApprovalDecision>();
  for (const callId of flags.approve ?? []) approvals[callId] = { approved: true };
  if (flags.plan !== undefined) {
    const reviewed = (flags.approve ?? []).filter((id) => id.startsWith("plan:"));
    if (reviewed.length !== 1) throw new CliError("--plan goes with exactly one --approve plan:<version>");
    approvals[reviewed[0]!] = { approved: true, plan: readJsonFile(flags.plan, "plan") } as ApprovalDecision;
  }
  const reason = flags.denyReason ?? "denied on the command line";
  for (const callId of flags.deny ?? []) approvals[callId] = { approved: false, reason };
  const answers = textKeyed<string>();
  for (const entry of flags.answer ?? []) {
    const split = entry.indexOf("=");
    if (split <= 0) throw new CliError(`--answer takes callId=text, got "${entry}"`);
    answers[entry.slice(0, split)] = entry.slice(split + 1);
  }
  const by = flags.decidedBy === undefined ? {} : { decidedBy: flags.decidedBy };
  if (!flags.resume) return decided.length === 0 ? {} : { approvals, answers, ...by };
  const saved = readJsonFile(flags.resume, "state") as { kind?: unknown; status?: unknown } | null;
  if (saved?.kind === finishedKind) {
    return { finished: `the run saved in ${flags.resume} already finished (${String(saved.status)}); there is nothing to resume` };
  }
  return { resume: saved, approvals, answers, ...by };
}

/**
 * After a resumed run, the state file moves on with it, so that running the same resume
 * command again cannot repeat what ran: a run that stopped again is saved over it (its
 * used approvals no longer match anything), a completed run marks it finished.
 */
export function settleResumedFile(flags: PauseFlags, result: { status: string; state?: unknown }): void {
  if (!flags.resume) return;
  const contents =
    result.status !== "completed" && result.state !== undefined
      ? result.state
      : { kind: finishedKind, status: result.status, finishedAt: new Date().toISOString() };
  writeFileSync(resolve(flags.resume), JSON.stringify(contents));
}

/** Where a waiting run saves its state: `--state`, else the file it resumed from, else the default. */
export function statePathOf(flags: PauseFlags, fallback: string): string {
  return flags.state ?? flags.resume ?? fallback;
}

/**
 * A run that waits for a human: its state goes to a file, and the pending calls and the
 * command that resumes it are printed. `command` is the command line that ran it.
 */
export function savePaused(
  io: CliIo,
  paused: {
    state: unknown;
    pending: ReadonlyArray<PendingCall | PendingPlan>;
    /** The wait steps it waits on (a plan run's `waits`). */
    waits?: readonly PlanWait[];
    statePath: string;
    command: string;
    runId?: string;
    storeFlag?: string;
    /** The run's launch line: the modules and places it names are named again to continue it (the store is not trusted to name them). */
    launch?: readonly string[] | undefined;
  },
): void {
  const statePath = resolve(paused.statePath);
  writeFileSync(statePath, JSON.stringify(paused.state));
  for (const call of paused.pending) io.out(pendingLine(call));
  for (const wait of paused.waits ?? []) io.out(waitLine(wait, paused.storeFlag ?? ""));
  const first = paused.pending[0];
  const decide = first === undefined ? "" : first.kind === "input" ? ` --answer ${first.id}=<your answer>` : ` --approve ${first.id}`;
  io.out(`state: ${statePath}\nresume: ${paused.command} --resume ${statePath}${decide}`);
  if (paused.runId === undefined) return;
  const again = namedAgain(paused.launch ?? [], paused.storeFlag?.replace(/^ --store /, ""));
  const store = `${again.map((word) => ` ${word}`).join("")}${paused.storeFlag ?? ""}`;
  const byId =
    first === undefined
      ? `planloop runs resume ${paused.runId}${store}`
      : first.kind === "input"
        ? `planloop runs answer ${paused.runId} ${first.id} "<your answer>"${store}`
        : `planloop runs approve ${paused.runId} ${first.id}${store}`;
  io.out(`or by id: ${byId}`);
}

/** '  step 1 waits for event "export-ready": planloop runs signal export-ready --data '<json>' --store …'. */
function waitLine(wait: PlanWait, store: string): string {
  if (wait.kind === "timer") {
    const what = wait.polls === undefined ? `waits until ${wait.until}` : `calls again at ${wait.until} (${wait.polls} calls so far)`;
    return `  step ${wait.stepId} ${what}: planloop runs wake${store} continues it then`;
  }
  const match = wait.match === undefined ? "" : ` with ${JSON.stringify(wait.match)}`;
  const until = wait.deadline === undefined ? "" : ` until ${wait.deadline}`;
  return `  step ${wait.stepId} waits for event "${wait.event}"${match}${until}: planloop runs signal ${wait.event} --data '<json>'${store}, then planloop runs wake${store}`;
}

/**
 * '  step:2 waits for approval: pay {"amount":120}'; a plan waiting for review is shown
 * step by step, each marked with what changed since the plan approved before it.
 */
export function pendingLine(call: PendingCall | PendingPlan): string {
  if (call.kind === "plan") return planReviewLines(call).join("\n");
  if (call.kind === "interrupted")
    return `  ${call.id} was running when the process stopped: ${call.name} ${JSON.stringify(call.arguments)} — did it take effect? approve to run it again, deny to fail it, answer with its output to mark it done`;
  return `  ${call.id} waits for ${call.kind === "input" ? "an answer" : "approval"}: ${call.name} ${JSON.stringify(call.arguments)}`;
}

function planReviewLines(pending: PendingPlan): string[] {
  const { kept, added, changed } = pending.changes;
  const mark = (id: string) => (added.includes(id) ? "new" : changed.includes(id) ? "changed" : kept.includes(id) ? "kept" : "");
  const lines = [`  ${pending.id} waits for review: ${pending.plan.steps.length} steps${pending.reason ? ` (${pending.reason})` : ""}`];
  for (const step of pending.plan.steps) {
    const after = step.depends_on.length > 0 ? ` after ${step.depends_on.join(", ")}` : "";
    const action = step.tool === undefined ? `agent: ${step.task}` : `${step.tool} ${JSON.stringify(step.args ?? {})}`;
    lines.push(`    ${String(step.id)} [${mark(String(step.id))}] ${action}${after}`);
  }
  if (pending.changes.dropped.length > 0) lines.push(`    dropped: ${pending.changes.dropped.join(", ")}`);
  lines.push(`    approve, deny with a reason (the planner writes a new plan), or approve an edited plan with --plan <file>`);
  return lines;
}
