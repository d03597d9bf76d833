import { createLogUpdate } from "log-update";
import type { PlanloopEvent } from "../core/events.js";

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
      state.steps = new Map(event.steps.map((step) => [String(step.id), previous.get(String(step.id))?.status === "succeeded" ? previous.get(String(step.id))! : { task: step.task, status: "waiting to start", attempts: 0 }]));
      break;
    }
    case "step-start":
      state.steps.set(id!, { ...(state.steps.get(id!) ?? { task: "", attempts: 0 }), status: "running", startedAt: event.time, attempts: event.attempt });
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
    case "model-call-end":
      if (event.stepId === undefined) delete state.modelCall;
      break;
    case "strategy-end":
      state.done = event.status;
      break;
  }
}

const icons: Record<string, string> = { succeeded: "✓", failed: "✗", skipped: "–", cancelled: "■", waiting: "⏸", running: "▶", "waiting to start": "·" };

/** The lines of the live display at time `now`. Pure. */
export function renderProgress(state: ProgressState, now: number): string[] {
  const header = [state.version === 0 ? "planning" : `plan v${state.version}`, `replans ${state.replans}`];
  if (state.modelCall) header.push(`model: ${state.modelCall}…`);
  if (state.done) header.push(`done: ${state.done}`);
  const lines = [header.join(" · ")];
  for (const [id, step] of state.steps) {
    const elapsed = step.startedAt === undefined ? "" : ` ${Math.round((step.endedAt ?? now) - step.startedAt)} ms`;
    const retries = step.attempts > 1 ? ` (attempt ${step.attempts})` : "";
    lines.push(`  ${icons[step.status] ?? "?"} ${id.padEnd(3)} ${step.task.slice(0, 60).padEnd(60)} ${step.status}${elapsed}${retries}`);
  }
  return lines;
}

/** A line for a plain log (CI, pipes), or nothing when the event is not worth a line. */
export function progressLine(event: PlanloopEvent): string | undefined {
  switch (event.type) {
    case "plan-created":
      return `plan v${event.version}: ${event.steps.length} steps`;
    case "step-start":
      return `  ▶ step ${event.stepId} started`;
    case "step-retry":
      return `  ↻ step ${event.stepId} retry after ${event.delayMs} ms: ${event.error}`;
    case "step-end":
      return `  ${icons[event.status] ?? "?"} step ${event.stepId} ${event.status} in ${Math.round(event.durationMs)} ms${event.error ? `: ${event.error}` : ""}`;
    case "replan-start":
      return `replan ${event.replans}: ${event.reason}`;
    case "strategy-end":
      return `run ${event.status} in ${Math.round(event.durationMs)} ms`;
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
  const draw = () => update(renderProgress(state, Date.now()).join("\n"));
  const timer = setInterval(draw, 100);
  return {
    listener: (event) => {
      applyEvent(state, event);
      draw();
    },
    stop: () => {
      clearInterval(timer);
      draw();
      update.done();
    },
  };
}
