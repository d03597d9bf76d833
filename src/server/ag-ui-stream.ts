import type { StreamEvent } from "../client/api-types.js";
import type { Frame, StreamFormat } from "./stream-frame.js";

/** A JSON Pointer token: "~" and "/" escaped (RFC 6901). */
const pointer = (key: string) => key.replace(/~/g, "~0").replace(/\//g, "~1");

/**
 * A run as AG-UI events (protocol 1.0): a RUN_STARTED…RUN_FINISHED span per stretch the run
 * ran, each opening with a STATE_SNAPSHOT; the plan and every step's status as STATE_SNAPSHOT / STATE_DELTA, each step as
 * STEP_STARTED/FINISHED and each tool step's call as TOOL_CALL_*; a wait for people ends its
 * span with an interrupt outcome naming what it waits for; the answer as a text message.
 */
export function agUiFormat(runId: string): StreamFormat {
  const state = {
    open: false,
    spans: 0,
    active: new Set<string>(),
    tools: new Map<string, { tool: string; args: unknown }>(),
    /** Tool calls started and not answered yet, by step key: a call that waited for approval is started once. */
    calls: new Map<string, string>(),
  };
  const snapshot = { status: "running", plans: {} as Record<string, unknown>, steps: {} as Record<string, string> };
  const frame = (value: Record<string, unknown>): Frame => ({ data: JSON.stringify(value) });
  const spanId = () => (state.spans <= 1 ? runId : `${runId}~${state.spans}`);
  // Each span opens with the whole state, so no patch ever comes before a snapshot it applies to.
  const start = (): Frame[] => {
    if (state.open) return [];
    state.open = true;
    state.spans += 1;
    return [
      frame({ type: "RUN_STARTED", threadId: runId, runId: spanId() }),
      frame({ type: "STATE_SNAPSHOT", snapshot: structuredClone(snapshot) }),
    ];
  };
  const finishSteps = (): Frame[] => {
    const frames = [...state.active].map((stepName) => frame({ type: "STEP_FINISHED", stepName }));
    state.active.clear();
    return frames;
  };
  const finish = (outcome?: Record<string, unknown>): Frame[] => {
    state.open = false;
    return [...finishSteps(), frame({ type: "RUN_FINISHED", threadId: runId, runId: spanId(), ...(outcome ? { outcome } : {}) })];
  };
  const keyOf = (event: StreamEvent) =>
    event.run === runId ? String(event.stepId) : `${event.run.slice(runId.length + 1)}/${String(event.stepId)}`;
  const setStep = (key: string, status: string): Frame => {
    const op = key in snapshot.steps ? "replace" : "add";
    snapshot.steps[key] = status;
    return frame({ type: "STATE_DELTA", delta: [{ op, path: `/steps/${pointer(key)}`, value: status }] });
  };

  const waitingSteps = () => {
    const keys = Object.keys(snapshot.steps).filter((key) => snapshot.steps[key] === "waiting");
    const interrupts = keys.map((key) => {
      const toolCallId = state.calls.get(key);
      return { id: key, reason: "waiting", message: `step ${key} waits`, ...(toolCallId === undefined ? {} : { toolCallId }) };
    });
    return interrupts.length > 0 ? interrupts : [{ id: `${spanId()}:waiting`, reason: "waiting", message: "the run waits" }];
  };

  function frames(event: StreamEvent): Frame[] {
    switch (event.type) {
      case "plan-created": {
        const steps = (event.steps ?? []) as Array<{ id: string | number; tool?: string; args?: unknown }>;
        for (const step of steps)
          if (step.tool) state.tools.set(keyOf({ ...event, stepId: step.id }), { tool: step.tool, args: step.args });
        snapshot.plans[event.run] = { version: event.version, steps };
        return [...start(), frame({ type: "STATE_SNAPSHOT", snapshot: structuredClone(snapshot) })];
      }
      case "step-start": {
        const key = keyOf(event);
        // A step no plan listed (a code-mode program's call) names its tool as it starts.
        if (typeof event.tool === "string") state.tools.set(key, { tool: event.tool, args: event.args });
        const call = state.tools.get(key);
        // A call that waited for a decision goes on as the same call.
        const waited = state.calls.get(key);
        const toolCallId = waited ?? `${key}@${String(event.attempt)}`;
        // Started again with no end between (its process stopped and another took the run up): the step is open already.
        const again = state.active.has(key);
        state.active.add(key);
        const calling =
          call && waited === undefined
            ? [
                frame({ type: "TOOL_CALL_START", toolCallId, toolCallName: call.tool }),
                frame({ type: "TOOL_CALL_ARGS", toolCallId, delta: JSON.stringify(call.args ?? {}) }),
                frame({ type: "TOOL_CALL_END", toolCallId }),
              ]
            : [];
        if (call) state.calls.set(key, toolCallId);
        return [...start(), ...(again ? [] : [frame({ type: "STEP_STARTED", stepName: key })]), setStep(key, "running"), ...calling];
      }
      case "step-end": {
        const key = keyOf(event);
        const call = state.tools.get(key);
        const toolCallId = state.calls.get(key) ?? `${key}@${String(event.attempts)}`;
        // A step that waits for a decision keeps its call open: it is answered when the step ends for real.
        const waits = event.status === "waiting";
        if (!waits) state.calls.delete(key);
        const content =
          String(event.status === "succeeded" ? (event.preview ?? "") : (event.error ?? event.status)) || String(event.status);
        const result =
          call && !waits ? [frame({ type: "TOOL_CALL_RESULT", messageId: `result:${toolCallId}`, toolCallId, content, role: "tool" })] : [];
        const wasActive = state.active.delete(key);
        return [
          ...start(),
          ...(wasActive ? [] : [frame({ type: "STEP_STARTED", stepName: key })]),
          ...result,
          setStep(key, String(event.status)),
          frame({ type: "STEP_FINISHED", stepName: key }),
        ];
      }
      case "run-paused": {
        if (!state.open) return [];
        // A process that stopped did not end the run: its span goes on when another process takes the run up.
        if (event.status === "process stopped") return [];
        const pending = (event.pending ?? []) as Array<{ id: string; kind?: string; tool?: string; question?: string; stepId?: unknown }>;
        const callOf = (item: (typeof pending)[number]) => {
          const toolCallId = item.stepId === undefined ? undefined : state.calls.get(keyOf({ ...event, stepId: item.stepId }));
          return toolCallId === undefined ? {} : { toolCallId };
        };
        snapshot.status = String(event.status);
        const interrupts: Array<Record<string, unknown>> = pending.map((item) => ({
          id: item.id,
          reason: item.kind ?? "decision",
          message: item.question ?? (item.tool ? `${item.tool} waits for approval` : `${item.kind ?? "a decision"} is needed`),
          ...callOf(item),
          metadata: { pending: item },
        }));
        // A run that waits never reports a success: with no pending item known, its waiting steps are what it waits for.
        if (interrupts.length === 0 && snapshot.status === "waiting") interrupts.push(...waitingSteps());
        const delta = frame({ type: "STATE_DELTA", delta: [{ op: "replace", path: "/status", value: snapshot.status }] });
        return [delta, ...finish(interrupts.length > 0 ? { type: "interrupt", interrupts } : undefined)];
      }
      case "run-resumed":
        snapshot.status = "running";
        return [...start(), frame({ type: "STATE_DELTA", delta: [{ op: "replace", path: "/status", value: "running" }] })];
      case "run-end": {
        const status = String(event.status);
        snapshot.status = status;
        const answer = typeof event.output === "string" ? event.output : event.output === undefined ? "" : JSON.stringify(event.output);
        const text =
          answer === ""
            ? []
            : [
                frame({ type: "TEXT_MESSAGE_START", messageId: "answer", role: "assistant" }),
                frame({ type: "TEXT_MESSAGE_CONTENT", messageId: "answer", delta: answer }),
                frame({ type: "TEXT_MESSAGE_END", messageId: "answer" }),
              ];
        const opened = start();
        const delta = frame({ type: "STATE_DELTA", delta: [{ op: "replace", path: "/status", value: status }] });
        if (status === "completed") return [...opened, ...text, delta, ...finish()];
        if (status === "cancelled") return [...opened, delta, ...finish({ type: "cancelled" })];
        state.open = false;
        return [...opened, ...finishSteps(), delta, frame({ type: "RUN_ERROR", message: String(event.reason ?? status), code: status })];
      }
      default:
        return [];
    }
  }

  return {
    headers: {},
    opening: () => start(),
    absorb: (event) => void frames(event),
    frames,
    closing: () => [],
  };
}
