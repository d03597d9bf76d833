import { createLogUpdate } from "log-update";
import type { PlanloopEvent } from "../core/events.js";
import { forTerminal } from "./terminal-text.js";

interface StepLine {
  task: string;
  status: "waiting to start" | "running" | string;
  startedAt?: number;
  endedAt?: number;
  attempts: number;
}

/** What the progress display knows: the current plan's steps and what happened to them. */
export interface ProgressState {
  version: number;
  steps: Map<string, StepLine>;
  replans: number;
  modelCall?: string;
  /** A model call waiting for its provider's limit: which, and until when (ISO). */
  limitWait?: { limit: string; until: string };
  done?: string;
}

export function emptyProgress(): ProgressState {
  return { version: 0, steps: new Map(), replans: 0 };
}

/** Folds one event into the display's state. Pure apart from updating `state` in place. */
export function applyEvent(state: ProgressState, event: PlanloopEvent): void {
  const id = event.stepId === undefined ? undefined : String(event.stepId);
  switch (event.type) {
    case "plan-created": {
      const previous = state.steps;
      state.version = event.version;
      state.steps = new Map(
        event.steps.map((step) => [
          String(step.id),
          previous.get(String(step.id))?.status === "succeeded"
            ? previous.get(String(step.id))!
            : { task: step.task, status: "waiting to start", attempts: 0 },
        ]),
      );
      break;
    }
    case "step-start":
      state.steps.set(id!, {
        // A step no plan listed (a code-mode program's call) is shown as the call.
        ...(state.steps.get(id!) ?? {
          task: event.tool === undefined ? "" : `${event.tool}(${JSON.stringify(event.args ?? {})})`,
          attempts: 0,
        }),
        status: "running",
        startedAt: event.time,
        attempts: event.attempt,
      });
      break;
    case "step-retry": {
      const step = state.steps.get(id!);
      if (step) step.attempts = event.attempt + 1;
      break;
    }
    case "step-end": {
      const step = state.steps.get(id!) ?? { task: "", attempts: event.attempts, status: "" };
      state.steps.set(id!, { ...step, status: event.status, endedAt: event.time, attempts: event.attempts });
      break;
    }
    case "replan-start":
      state.replans = event.replans;
      break;
    case "model-call-start":
      if (event.stepId === undefined) state.modelCall = event.purpose;
      break;
    case "model-waiting":
      state.limitWait = { limit: event.limit, until: event.until };
      break;
    case "model-call-end":
      if (event.stepId === undefined) delete state.modelCall;
      // Some call was answered: the limit let calls through again.
      delete state.limitWait;
      break;
    case "strategy-end":
      state.done = event.status;
      break;
  }
}

const icons: Record<string, string> = {
  succeeded: "✓",
  failed: "✗",
  skipped: "–",
  cancelled: "■",
  waiting: "⏸",
  running: "▶",
  "waiting to start": "·",
};

/**
 * The lines of the live display at time `now`, at most `maxLines` (a terminal's height): a
 * plan too long for it shows counts by status, then the steps worth watching (running,
 * failed, waiting) and how many are left out. Pure.
 */
export function renderProgress(state: ProgressState, now: number, maxLines = Infinity): string[] {
  const header = [state.version === 0 ? "planning" : `plan v${state.version}`, `replans ${state.replans}`];
  if (state.modelCall) header.push(`model: ${state.modelCall}…`);
  if (state.limitWait) header.push(waitingForLimit(state.limitWait));
  if (state.done) header.push(`done: ${state.done}`);
  const stepLine = (id: string, step: StepLine) => {
    const elapsed = step.startedAt === undefined ? "" : ` ${Math.round((step.endedAt ?? now) - step.startedAt)} ms`;
    const retries = step.attempts > 1 ? ` (attempt ${step.attempts})` : "";
    return `  ${icons[step.status] ?? "?"} ${id.padEnd(3)} ${step.task.slice(0, 60).padEnd(60)} ${step.status}${elapsed}${retries}`;
  };
  if (state.steps.size + 1 <= maxLines) return [header.join(" · "), ...[...state.steps].map(([id, step]) => stepLine(id, step))];
  const counts = new Map<string, number>(statusOrder.map((status) => [status, 0]));
  for (const step of state.steps.values()) counts.set(step.status, (counts.get(step.status) ?? 0) + 1);
  for (const [status, count] of counts) if (count === 0) counts.delete(status);
  const lines = [header.join(" · "), `  ${[...counts].map(([status, count]) => `${count} ${status}`).join(" · ")}`];
  const watched = [...state.steps].filter(([, step]) => watchedStatuses.has(step.status));
  const room = Math.max(0, maxLines - lines.length - 1);
  for (const [id, step] of watched.slice(0, room)) lines.push(stepLine(id, step));
  if (watched.length > room) lines.push(`  … and ${watched.length - room} more`);
  return lines;
}

/** "waiting for the provider's limit (openai) until 12:00:03" (the time in UTC, to the second). */
function waitingForLimit(wait: { limit: string; until: string }): string {
  return `waiting for the provider's limit (${wait.limit}) until ${wait.until.slice(11, 19)} UTC`;
}

const statusOrder = ["running", "waiting to start", "succeeded", "failed", "skipped", "cancelled", "waiting"];
const watchedStatuses = new Set(["running", "failed", "waiting", "cancelled"]);

/** A line for a plain log (CI, pipes), or nothing when the event is not worth a line. */
export function progressLine(event: PlanloopEvent): string | undefined {
  switch (event.type) {
    case "plan-created":
      if (event.program !== undefined) return `program ${event.version}: ${event.program.split("\n").length} lines`;
      // A plan stream that broke before its first step (a server not reached) planned nothing: no line.
      return event.steps.length === 0 ? undefined : `plan v${event.version}: ${event.steps.length} steps`;
    case "step-start":
      return `  ▶ step ${event.stepId}${event.tool === undefined ? "" : ` ${event.tool}`} started`;
    case "step-retry":
      return `  ↻ step ${event.stepId} retry after ${event.delayMs} ms: ${event.error}`;
    case "step-end":
      return `  ${icons[event.status] ?? "?"} step ${event.stepId} ${event.status} in ${Math.round(event.durationMs)} ms${event.error ? `: ${event.error}` : ""}`;
    case "replan-start":
      return `replan ${event.replans}${event.early ? " (started early)" : ""}: ${event.reason}`;
    case "strategy-end":
      return `run ${event.status} in ${Math.round(event.durationMs)} ms`;
    case "model-waiting":
      return `  ⏳ ${waitingForLimit(event)}${event.stepId === undefined ? "" : ` (step ${event.stepId})`}`;
    default:
      return undefined;
  }
}

/**
 * Shows a run's progress: redrawn in place on a terminal (steps, status, elapsed time,
 * retries, replans), one line per change otherwise.
 */
export function createProgress(stream: NodeJS.WriteStream): { listener: (event: PlanloopEvent) => void; stop(): void } {
  if (!stream.isTTY) {
    return {
      listener: (event) => {
        const line = progressLine(event);
        if (line !== undefined) stream.write(`${line}\n`);
      },
      stop: () => {},
    };
  }
  const update = createLogUpdate(stream);
  const state = emptyProgress();
  // Tasks and errors come from runs: their control characters are shown, not obeyed.
  const draw = () =>
    update(
      renderProgress(state, Date.now(), Math.max(5, (stream.rows ?? 40) - 1))
        .map(forTerminal)
        .join("\n"),
    );
  const timer = setInterval(draw, 100);
  // Events of one burst (a thousand quick steps) are drawn once, not once each.
  let drawQueued = false;
  let stopped = false;
  return {
    listener: (event) => {
      applyEvent(state, event);
      if (drawQueued || stopped) return;
      drawQueued = true;
      setImmediate(() => {
        drawQueued = false;
        if (!stopped) draw();
      });
    },
    stop: () => {
      stopped = true;
      clearInterval(timer);
      draw();
      update.done();
    },
  };
}
