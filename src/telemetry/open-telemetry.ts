import type { EventListener, PlanloopEvent } from "../core/events.js";
import type { ModelResponseInfo } from "../core/model.js";
import { loadOptionalPackage } from "../core/optional-package.js";

type Attributes = Record<string, string | number | boolean | string[]>;

/** The part of an OpenTelemetry span planloop uses (declared here: `@opentelemetry/api` is an optional peer). */
export interface SpanLike {
  setAttribute(key: string, value: string | number | boolean | string[]): unknown;
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
  SpanKind: { INTERNAL: number; CLIENT: number };
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
  /** The name of the workflow on its root span (`gen_ai.workflow.name`, or `gen_ai.agent.name` for a loop); default the entry point. */
  name?: string;
  /** The run's tools, for each tool span's `gen_ai.tool.description`. */
  tools?: ReadonlyArray<{ name: string; description?: string }>;
}

export interface OpenTelemetryListener {
  /** Pass as `onEvent` to any entry point (or call from your own listener). */
  onEvent: EventListener;
  /** Ends every span still open (a run that threw ends no span by itself). */
  end(): void;
}

/**
 * Spans of a run following the OpenTelemetry GenAI semantic conventions (docs/observing-runs.md
 * lists them and the version they follow), made from its events: the run (`invoke_workflow
 * {name}`, or `invoke_agent` for a ReAct loop on its own), each plan version (`plan`, planloop's
 * own operation), each step (`execute_tool {tool}` or `invoke_agent step {id}`), each tool call
 * of a loop (`execute_tool {tool}`) and each model call (`chat {model}`, CLIENT when the model
 * is called over the network), nested as the run is, parallel steps side by side under their
 * plan. Errors set the span's status and `error.type`. Needs the optional peer
 * `@opentelemetry/api` (loaded when this is called).
 *
 * @example
 * const telemetry = openTelemetry();
 * const result = await planAndExecute({ task, planner, tools, onEvent: telemetry.onEvent });
 */
export function openTelemetry(options: OpenTelemetryOptions = {}): OpenTelemetryListener {
  const api = loadOptionalPackage<OtelApi>({ name: "@opentelemetry/api", neededFor: "openTelemetry()" });
  const tracer = options.tracer ?? api.trace.getTracer("planloop");
  const content = options.recordContent === true;
  const descriptions = new Map((options.tools ?? []).map((tool) => [tool.name, tool.description]));
  let root: Span | undefined;
  let rootIsAgent = false;
  let plan: Span | undefined;
  let planVersion = 0;
  const stepTools = new Map<string, { tool: string; args: unknown }>();
  /** Steps that are one tool call each (a code-mode program's calls): their tool-call events make no second span. */
  const toolSteps = new Set<string>();
  const steps = new Map<string, Span>();
  const calls = new Map<string, Span>();
  const models = new Map<string, Span[]>();
  /** What the model calls under each agent span used: its provider, and tokens. */
  const agents = new Map<Span, { provider?: string; input: number; output: number }>();
  const open = new Set<Span>();

  /** A span from `event` on; `kind` INTERNAL unless asked for (`{ name, kind }`). */
  const start = (
    named: string | { name: string; kind: number },
    event: PlanloopEvent,
    parent: Span | undefined,
    attributes: Attributes,
  ): Span => {
    const { name, kind } = typeof named === "string" ? { name: named, kind: api.SpanKind.INTERNAL } : named;
    const context = parent ? api.trace.setSpan(api.ROOT_CONTEXT, parent) : api.ROOT_CONTEXT;
    const span = tracer.startSpan(name, { startTime: event.time, attributes, kind }, context);
    open.add(span);
    return span;
  };

  /** Ends a span; a failure sets its status and `error.type` (a low-cardinality word: the status, the tool error's kind). */
  const end = (span: Span | undefined, event: PlanloopEvent, failure?: { message: string; type: string }) => {
    if (!span || !open.has(span)) return;
    if (failure !== undefined) {
      span.setStatus({ code: api.SpanStatusCode.ERROR, message: failure.message });
      span.setAttribute("error.type", failure.type);
    }
    const agent = agents.get(span);
    if (agent !== undefined) {
      span.setAttributes({ "gen_ai.provider.name": agent.provider ?? unknownProvider, ...usageAttributes(agent.input, agent.output) });
      agents.delete(span);
    }
    span.end(event.time);
    open.delete(span);
  };
  const rootOf = (event: PlanloopEvent): Span => {
    if (root) return root;
    rootIsAgent = event.type === "agent-start" && event.inner !== true;
    root = rootIsAgent
      ? start(options.name ? `invoke_agent ${options.name}` : "invoke_agent", event, undefined, {
          "gen_ai.operation.name": "invoke_agent",
          ...(options.name ? { "gen_ai.agent.name": options.name } : {}),
        })
      : start("invoke_workflow", event, undefined, { "gen_ai.operation.name": "invoke_workflow" });
    if (rootIsAgent) agents.set(root, { input: 0, output: 0 });
    return root;
  };
  // A call inside an agent step hangs from its step; the planner's calls and a loop's, from the run.
  const parentOf = (event: PlanloopEvent): Span =>
    (event.stepId === undefined ? undefined : steps.get(String(event.stepId))) ?? rootOf(event);
  const finish = (event: PlanloopEvent, status: string, reason: string | undefined, workflow: string) => {
    for (const span of [...open]) if (span !== root) end(span, event);
    if (root && !rootIsAgent) {
      const name = options.name ?? workflow;
      root.setAttribute("gen_ai.workflow.name", name);
      root.updateName(`invoke_workflow ${name}`);
    }
    root?.setAttribute("planloop.status", status);
    end(root, event, status === "completed" ? undefined : { message: reason ?? status, type: status });
  };
  const toolAttributes = (tool: string, callId: string, args: unknown): Attributes => {
    const description = descriptions.get(tool);
    return {
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": tool,
      "gen_ai.tool.call.id": callId,
      "gen_ai.tool.type": "function",
      ...(description ? { "gen_ai.tool.description": description } : {}),
      ...(content && args !== undefined ? { "gen_ai.tool.call.arguments": JSON.stringify(args) } : {}),
    };
  };

  const onEvent: EventListener = (event) => {
    const top = rootOf(event);
    switch (event.type) {
      case "plan-created": {
        end(plan, event);
        planVersion = event.version;
        for (const step of event.steps) if (step.tool) stepTools.set(String(step.id), { tool: step.tool, args: step.args });
        // planloop's own operation: no GenAI span definition covers a plan version (a custom value, as the conventions allow).
        plan = start("plan", event, top, {
          "gen_ai.operation.name": "plan",
          "planloop.plan.version": event.version,
          "planloop.plan.steps": event.steps.length,
          // A code-mode program: its text is the model's, recorded as content is.
          ...(event.program !== undefined && content ? { "planloop.program": event.program } : {}),
        });
        break;
      }
      case "step-start": {
        const id = String(event.stepId);
        // A step no plan listed (a code-mode program's call) names its tool as it starts.
        const tool = event.tool === undefined ? stepTools.get(id) : { tool: event.tool, args: event.args };
        if (event.tool !== undefined) toolSteps.add(id);
        const attributes: Attributes = {
          "planloop.step.id": id,
          "planloop.plan.version": planVersion,
          "planloop.step.attempt": event.attempt,
        };
        const span = tool
          ? start(`execute_tool ${tool.tool}`, event, plan ?? top, { ...attributes, ...toolAttributes(tool.tool, `step:${id}`, tool.args) })
          : start(`invoke_agent step ${id}`, event, plan ?? top, {
              ...attributes,
              "gen_ai.operation.name": "invoke_agent",
              "gen_ai.agent.name": `step ${id}`,
            });
        if (!tool) agents.set(span, { input: 0, output: 0 });
        steps.set(id, span);
        break;
      }
      case "step-retry":
        steps
          .get(String(event.stepId))
          ?.addEvent("retry", { "planloop.step.attempt": event.attempt, "planloop.step.error": event.error }, event.time);
        break;
      case "step-end": {
        const id = String(event.stepId);
        const span = steps.get(id);
        span?.setAttributes({ "planloop.status": event.status, "planloop.step.attempts": event.attempts });
        if (span && content && event.preview !== undefined) span.setAttribute("gen_ai.tool.call.result", event.preview);
        end(span, event, event.status === "succeeded" ? undefined : { message: event.error ?? event.status, type: event.status });
        steps.delete(id);
        break;
      }
      case "tool-call-start": {
        // A code-mode call is its own step: the step's span is the call's.
        if (event.stepId !== undefined && toolSteps.has(String(event.stepId))) break;
        const span = start(
          `execute_tool ${event.name}`,
          event,
          parentOf(event),
          toolAttributes(event.name, String(event.callId), event.arguments),
        );
        calls.set(`${String(event.stepId)}:${String(event.callId)}`, span);
        break;
      }
      case "tool-call-end": {
        const key = `${String(event.stepId)}:${String(event.callId)}`;
        const span = calls.get(key);
        if (span && content && event.preview !== undefined) span.setAttribute("gen_ai.tool.call.result", event.preview);
        end(
          span,
          event,
          event.status === "ok" ? undefined : { message: event.error?.message ?? event.status, type: event.error?.kind ?? event.status },
        );
        calls.delete(key);
        break;
      }
      case "model-call-start": {
        const parent = parentOf(event);
        const agent = agents.get(parent);
        if (agent && event.provider) agent.provider = event.provider;
        // A model called over the network: a CLIENT span, as the conventions ask.
        const kind = event.server === undefined ? api.SpanKind.INTERNAL : api.SpanKind.CLIENT;
        const span = start({ name: `chat${event.model ? ` ${event.model}` : ""}`, kind }, event, parent, {
          "gen_ai.operation.name": "chat",
          "gen_ai.provider.name": event.provider ?? unknownProvider,
          "planloop.purpose": event.purpose,
          ...(event.model ? { "gen_ai.request.model": event.model } : {}),
          ...(event.server?.address ? { "server.address": event.server.address } : {}),
          ...(event.server?.address && event.server.port !== undefined ? { "server.port": event.server.port } : {}),
        });
        const key = String(event.stepId);
        models.set(key, [...(models.get(key) ?? []), span]);
        break;
      }
      case "model-call-end": {
        const span = models.get(String(event.stepId))?.pop();
        const agent = agents.get(parentOf(event));
        if (agent && event.usage) {
          agent.input += event.usage.inputTokens ?? 0;
          agent.output += event.usage.outputTokens ?? 0;
        }
        span?.setAttributes({
          ...(event.usage ? usageAttributes(event.usage.inputTokens, event.usage.outputTokens) : {}),
          ...responseAttributes(event.response),
        });
        end(span, event, event.decision === "failed" ? { message: "the model call failed", type: "failed" } : undefined);
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
        if (event.inner !== true && event.stepId === undefined) finish(event, event.status, event.reason, "executePlan");
        break;
      case "grounding-end":
        if (event.inner !== true)
          top.setAttributes({
            "planloop.grounding.policy": event.policy,
            "planloop.grounding.claims": event.claims,
            "planloop.grounding.supported": event.supported,
            "planloop.grounding.unsupported": event.unsupported,
            "planloop.grounding.uncited": event.uncited,
            "planloop.grounding.repaired": event.repaired,
            "planloop.grounding.removed": event.removed,
          });
        break;
      case "strategy-end":
        if (event.inner !== true) finish(event, event.status, event.reason, event.strategy);
        break;
    }
  };

  return {
    onEvent,
    end() {
      const now = { time: Date.now() } as PlanloopEvent;
      for (const span of [...open]) end(span, now, { message: "the run ended without an end event", type: "_OTHER" });
    },
  };
}

/**
 * The provider of a model that names none (a function, a scripted model): a custom value, as
 * the conventions allow where none of theirs applies; `gen_ai.provider.name` is required.
 */
const unknownProvider = "unknown";

function usageAttributes(input: number | undefined, output: number | undefined): Attributes {
  return {
    ...(input === undefined ? {} : { "gen_ai.usage.input_tokens": input }),
    ...(output === undefined ? {} : { "gen_ai.usage.output_tokens": output }),
  };
}

function responseAttributes(response: ModelResponseInfo | undefined): Record<string, string | string[]> {
  if (response === undefined) return {};
  return {
    ...(response.id ? { "gen_ai.response.id": response.id } : {}),
    ...(response.model ? { "gen_ai.response.model": response.model } : {}),
    ...(response.finishReason ? { "gen_ai.response.finish_reasons": [response.finishReason] } : {}),
  };
}
