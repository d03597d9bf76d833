import type { EventListener, PlanloopEvent } from "../core/events.js";
import { loadOptionalPackage } from "../core/optional-package.js";

type Attributes = Record<string, string | number | boolean>;

/** The part of an OpenTelemetry span planloop uses (declared here: `@opentelemetry/api` is an optional peer). */
export interface SpanLike {
  setAttribute(key: string, value: string | number | boolean): unknown;
  setAttributes(attributes: Attributes): unknown;
  addEvent(name: string, attributes: Attributes, time: number): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  updateName(name: string): unknown;
  end(time: number): void;
}

/** The part of an OpenTelemetry tracer planloop uses: `trace.getTracer(...)` from `@opentelemetry/api` is one. */
export interface TracerLike {
  startSpan(name: string, options: { startTime: number; attributes: Attributes; kind: number }, context: unknown): SpanLike;
}

/** What planloop takes from `@opentelemetry/api` at run time. */
interface OtelApi {
  trace: { getTracer(name: string): TracerLike; setSpan(context: unknown, span: SpanLike): unknown };
  ROOT_CONTEXT: unknown;
  SpanKind: { INTERNAL: number };
  SpanStatusCode: { ERROR: number };
}

type Span = SpanLike;

export interface OpenTelemetryOptions {
  /** The tracer to make spans with; default `trace.getTracer("planloop")` from `@opentelemetry/api`. */
  tracer?: TracerLike;
  /**
   * Record tool arguments and outputs, and replan reasons' full text, on spans. Off by default:
   * they may hold personal data. (Secrets are masked in events either way.)
   */
  recordContent?: boolean;
  /** The name of the workflow on its root span (`gen_ai.agent.name` / span name); default the entry point. */
  name?: string;
}

export interface OpenTelemetryListener {
  /** Pass as `onEvent` to any entry point (or call from your own listener). */
  onEvent: EventListener;
  /** Ends every span still open (a run that threw ends no span by itself). */
  end(): void;
}

/**
 * Spans of a run following the OpenTelemetry GenAI semantic conventions, made from its
 * events: the run (`invoke_workflow`, or `invoke_agent` for a ReAct loop on its own), each
 * plan version (`plan`), each step (`execute_tool {tool}` or `invoke_agent` for an agent step),
 * each tool call of a loop (`execute_tool {tool}`) and each model call (`chat {model}`),
 * nested as the run is, parallel steps side by side under their plan. Errors set the span's
 * status. Needs the optional peer `@opentelemetry/api` (loaded when this is called).
 *
 * @example
 * const telemetry = openTelemetry();
 * const result = await planAndExecute({ task, planner, tools, onEvent: telemetry.onEvent });
 */
export function openTelemetry(options: OpenTelemetryOptions = {}): OpenTelemetryListener {
  const api = loadOptionalPackage<OtelApi>({ name: "@opentelemetry/api", neededFor: "openTelemetry()" });
  const tracer = options.tracer ?? api.trace.getTracer("planloop");
  const content = options.recordContent === true;
  let root: Span | undefined;
  let plan: Span | undefined;
  let planVersion = 0;
  const toolOf = new Map<string, string>();
  const steps = new Map<string, Span>();
  const calls = new Map<string, Span>();
  const models = new Map<string, Span[]>();
  const open = new Set<Span>();

  const start = (name: string, event: PlanloopEvent, parent: Span | undefined, attributes: Attributes): Span => {
    const context = parent ? api.trace.setSpan(api.ROOT_CONTEXT, parent) : api.ROOT_CONTEXT;
    const span = tracer.startSpan(name, { startTime: event.time, attributes, kind: api.SpanKind.INTERNAL }, context);
    open.add(span);
    return span;
  };
  const end = (span: Span | undefined, event: PlanloopEvent, failure?: string) => {
    if (!span || !open.has(span)) return;
    if (failure !== undefined) span.setStatus({ code: api.SpanStatusCode.ERROR, message: failure });
    span.end(event.time);
    open.delete(span);
  };
  const rootOf = (event: PlanloopEvent): Span => {
    if (root) return root;
    const agent = event.type === "agent-start" && event.inner !== true;
    root = start(agent ? "invoke_agent" : "invoke_workflow", event, undefined, {
      "gen_ai.operation.name": agent ? "invoke_agent" : "invoke_workflow",
      ...(options.name ? { "gen_ai.agent.name": options.name } : {}),
    });
    return root;
  };
  // A call inside an agent step hangs from its step; the planner's calls and a loop's, from the run.
  const parentOf = (event: PlanloopEvent): Span =>
    (event.stepId === undefined ? undefined : steps.get(String(event.stepId))) ?? rootOf(event);
  const finish = (event: PlanloopEvent, status: string, reason: string | undefined) => {
    for (const span of [...open]) if (span !== root) end(span, event);
    root?.setAttribute("planloop.status", status);
    end(root, event, status === "completed" ? undefined : (reason ?? status));
  };

  const onEvent: EventListener = (event) => {
    const top = rootOf(event);
    switch (event.type) {
      case "plan-created": {
        end(plan, event);
        planVersion = event.version;
        for (const step of event.steps) if (step.tool) toolOf.set(String(step.id), step.tool);
        plan = start("plan", event, top, {
          "gen_ai.operation.name": "plan",
          "planloop.plan.version": event.version,
          "planloop.plan.steps": event.steps.length,
        });
        break;
      }
      case "step-start": {
        const id = String(event.stepId);
        const tool = toolOf.get(id);
        const attributes: Attributes = {
          "planloop.step.id": id,
          "planloop.plan.version": planVersion,
          "planloop.step.attempt": event.attempt,
        };
        const span = tool
          ? start(`execute_tool ${tool}`, event, plan ?? top, {
              ...attributes,
              "gen_ai.operation.name": "execute_tool",
              "gen_ai.tool.name": tool,
              "gen_ai.tool.call.id": `step:${id}`,
            })
          : start(`invoke_agent step ${id}`, event, plan ?? top, {
              ...attributes,
              "gen_ai.operation.name": "invoke_agent",
              "gen_ai.agent.name": `step ${id}`,
            });
        steps.set(id, span);
        break;
      }
      case "step-retry":
        steps
          .get(String(event.stepId))
          ?.addEvent("retry", { "planloop.step.attempt": event.attempt, "error.message": event.error }, event.time);
        break;
      case "step-end": {
        const id = String(event.stepId);
        const span = steps.get(id);
        span?.setAttributes({ "planloop.status": event.status, "planloop.step.attempts": event.attempts });
        if (span && content && event.preview !== undefined) span.setAttribute("gen_ai.tool.call.result", event.preview);
        end(span, event, event.status === "succeeded" ? undefined : (event.error ?? event.status));
        steps.delete(id);
        break;
      }
      case "tool-call-start": {
        const span = start(`execute_tool ${event.name}`, event, parentOf(event), {
          "gen_ai.operation.name": "execute_tool",
          "gen_ai.tool.name": event.name,
          "gen_ai.tool.call.id": String(event.callId),
          ...(content ? { "gen_ai.tool.call.arguments": JSON.stringify(event.arguments) } : {}),
        });
        calls.set(`${String(event.stepId)}:${String(event.callId)}`, span);
        break;
      }
      case "tool-call-end": {
        const key = `${String(event.stepId)}:${String(event.callId)}`;
        end(calls.get(key), event, event.status === "ok" ? undefined : (event.error?.message ?? event.status));
        calls.delete(key);
        break;
      }
      case "model-call-start": {
        const span = start(`chat${event.model ? ` ${event.model}` : ""}`, event, parentOf(event), {
          "gen_ai.operation.name": "chat",
          "planloop.purpose": event.purpose,
          ...(event.model ? { "gen_ai.request.model": event.model } : {}),
          ...(event.provider ? { "gen_ai.provider.name": event.provider } : {}),
        });
        const key = String(event.stepId);
        models.set(key, [...(models.get(key) ?? []), span]);
        break;
      }
      case "model-call-end": {
        const span = models.get(String(event.stepId))?.pop();
        if (span && event.usage) {
          span.setAttributes({
            ...(event.usage.inputTokens === undefined ? {} : { "gen_ai.usage.input_tokens": event.usage.inputTokens }),
            ...(event.usage.outputTokens === undefined ? {} : { "gen_ai.usage.output_tokens": event.usage.outputTokens }),
          });
        }
        end(span, event);
        break;
      }
      case "replan-start":
        top.addEvent(
          "replan",
          {
            "planloop.replans": event.replans,
            "planloop.replan.reason": event.reason,
            ...(event.early ? { "planloop.replan.early": true } : {}),
          },
          event.time,
        );
        end(plan, event);
        break;
      case "run-end":
      case "agent-end":
        if (event.inner !== true && event.stepId === undefined) finish(event, event.status, event.reason);
        break;
      case "strategy-end":
        if (event.inner !== true) {
          top.setAttribute("gen_ai.agent.name", options.name ?? event.strategy);
          top.updateName(`invoke_workflow ${options.name ?? event.strategy}`);
          finish(event, event.status, event.reason);
        }
        break;
    }
  };

  return {
    onEvent,
    end() {
      const now = { time: Date.now() } as PlanloopEvent;
      for (const span of [...open]) end(span, now, "the run ended without an end event");
    },
  };
}
