import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Command } from "commander";
import type { PendingCall } from "../react/agent-status.js";
import type { ApprovalDecision } from "../core/tools/guarded-call.js";
import { CliError, readJsonFile } from "./cli-error.js";
import type { CliIo } from "./cli-io.js";
import { textKeyed } from "../core/records.js";

/** The flags of a command whose run can wait for a human and be resumed. */
export interface PauseFlags {
  state?: string;
  resume?: string;
  approve?: string[];
  deny?: string[];
  answer?: string[];
}

export function pauseOptions(command: Command, defaultState: string): Command {
  return command
    .option("--state <file>", `where a waiting run saves its state (default: ${defaultState})`)
    .option("--resume <file>", "continue the waiting run saved in this state file")
    .option("--approve <callIds...>", "approve these pending calls (with --resume)")
    .option("--deny <callIds...>", "deny these pending calls (with --resume)")
    .option("--answer <callId=text...>", "answer these pending questions (with --resume)");
}

/** The saved state and the human's decisions from the command line; nothing without --resume. */
export function resumeFromFlags(flags: PauseFlags): {
  resume?: unknown;
  approvals?: Record<string, ApprovalDecision>;
  answers?: Record<string, string>;
} {
  const decided = [...(flags.approve ?? []), ...(flags.deny ?? []), ...(flags.answer ?? [])];
  if (!flags.resume) {
    if (decided.length > 0) throw new CliError("--approve, --deny and --answer go with --resume <state file>");
    return {};
  }
  const approvals = textKeyed<ApprovalDecision>();
  for (const callId of flags.approve ?? []) approvals[callId] = { approved: true };
  for (const callId of flags.deny ?? []) approvals[callId] = { approved: false, reason: "denied on the command line" };
  const answers = textKeyed<string>();
  for (const entry of flags.answer ?? []) {
    const split = entry.indexOf("=");
    if (split <= 0) throw new CliError(`--answer takes callId=text, got "${entry}"`);
    answers[entry.slice(0, split)] = entry.slice(split + 1);
  }
  return { resume: readJsonFile(flags.resume, "state"), approvals, answers };
}

/**
 * A run that waits for a human: its state goes to a file, and the pending calls and the
 * command that resumes it are printed. `command` is the command line that ran it.
 */
export function savePaused(
  io: CliIo,
  paused: { state: unknown; pending: readonly PendingCall[]; statePath: string; command: string },
): void {
  const statePath = resolve(paused.statePath);
  writeFileSync(statePath, JSON.stringify(paused.state));
  for (const call of paused.pending) io.out(pendingLine(call));
  io.out(`state: ${statePath}\nresume: ${paused.command} --resume ${statePath} --approve ${paused.pending[0]?.callId ?? "<callId>"}`);
}

/** '  step:2 waits for approval: pay {"amount":120}' */
export function pendingLine(call: PendingCall): string {
  return `  ${call.callId} waits for ${call.kind === "input" ? "an answer" : "approval"}: ${call.name} ${JSON.stringify(call.arguments)}`;
}
