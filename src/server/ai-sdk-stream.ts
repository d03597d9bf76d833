import type { StreamEvent } from "../client/api-types.js";
import type { Frame, StreamFormat } from "./stream-frame.js";

/**
 * A run as the Vercel AI SDK's UI message stream (protocol v1): one assistant message whose
 * parts are the plan (`data-plan`, one per run that planned), each step as it goes
 * (`data-step`, one per step, updated in place by its id), the run's state (`data-run`), and
 * the answer as text. `useChat` and `readUIMessageStream` read it as they read a chat's stream.
 */
export function aiSdkFormat(runId: string): StreamFormat {
  const chunk = (value: Record<string, unknown>): Frame => ({ data: JSON.stringify(value) });
  const data = (name: string, id: string, value: unknown) => chunk({ type: `data-${name}`, id, data: value });
  const stepKey = (event: StreamEvent) => `${event.run}#${String(event.stepId)}`;
  return {
    headers: { "x-vercel-ai-ui-message-stream": "v1" },
    opening: () => [chunk({ type: "start", messageId: runId })],
    absorb: () => {},
    frames(event) {
      switch (event.type) {
        case "plan-created": {
          // A code-mode program: its text, its steps the calls it makes (each names its tool as it starts).
          const program = typeof event.program === "string" ? { program: event.program } : {};
          return [data("plan", `plan:${event.run}`, { run: event.run, version: event.version, steps: event.steps, ...program })];
        }
        case "step-start": {
          const call = typeof event.tool === "string" ? { tool: event.tool, args: event.args } : {};
          return [
            data("step", stepKey(event), { run: event.run, stepId: event.stepId, status: "running", attempt: event.attempt, ...call }),
          ];
        }
        case "step-end": {
          const { run, stepId, status, attempts, durationMs, error, preview } = event;
          return [data("step", stepKey(event), { run, stepId, status, attempts, durationMs, error, preview })];
        }
        case "run-paused":
          return [data("run", "run", { status: event.status, pending: event.pending ?? [] })];
        case "run-resumed":
          return [data("run", "run", { status: "running" })];
        case "run-end": {
          const answer = typeof event.output === "string" ? event.output : event.output === undefined ? "" : JSON.stringify(event.output);
          const text =
            answer === ""
              ? []
              : [
                  chunk({ type: "text-start", id: "answer" }),
                  chunk({ type: "text-delta", id: "answer", delta: answer }),
                  chunk({ type: "text-end", id: "answer" }),
                ];
          return [...text, data("run", "run", { status: event.status, reason: event.reason })];
        }
        default:
          return [];
      }
    },
    closing: () => [chunk({ type: "finish" }), { data: "[DONE]" }],
  };
}
