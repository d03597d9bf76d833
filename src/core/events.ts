import { EventEmitter } from "eventemitter3";
import { systemClock, type Clock } from "./clock.js";
import { shown } from "./errors.js";
import type { ModelDelta, ModelPurpose, ModelResponseInfo } from "./model.js";
import type { ToolError } from "./messages.js";
import type { Usage, UsageTotals } from "./usage.js";

type CallId = string | number;

/** Events of one ReAct loop. A loop inside a plan step carries that step's id in `stepId`. */
export type AgentEventBody =
  | { type: "agent-start"; resumed: boolean; maxSteps: number }
  | { type: "agent-step-start"; step: number }
  /** `model`, `provider` and `server`: as the model declares them (`modelId`, `provider`, `server`), when it does. */
  | {
      type: "model-call-start";
      step: number;
      purpose: ModelPurpose;
      model?: string;
      provider?: string;
      server?: { address?: string; port?: number };
    }
  /** The call waits for its provider's limit (its rate, or the cooldown after a 429) until `until` (ISO time) before it is sent. */
  | { type: "model-waiting"; step: number; purpose: ModelPurpose; limit: string; until: string }
  /** A piece of a model's answer as it streams in: text, reasoning, or a tool call's argument fragment. */
  | ({ type: "model-delta"; step: number; purpose: ModelPurpose } & ModelDelta)
  | {
      type: "model-call-end";
      step: number;
      purpose: ModelPurpose;
      decision: "final" | "tool_calls" | "failed";
      toolCalls: number;
      usage?: Usage;
      /** What the provider said of its answer (id, model, finish reason), where it did. */
      response?: ModelResponseInfo;
      durationMs: number;
    }
  | { type: "tool-call-start"; step: number; callId: CallId; name: string; arguments: unknown }
  | {
      type: "tool-call-end";
      step: number;
      callId: CallId;
      name: string;
      status: "ok" | "error" | "pending";
      error?: ToolError;
      /** The start of the result, for progress displays and traces. */
      preview?: string;
      durationMs: number;
    }
  /** A context policy moved the view's cut: `leftOut` messages are now out of the requests (folded into a summary with "summarize"). */
  | { type: "context-cut"; step: number; keep: "recent" | "summarize"; leftOut: number; tokens: number }
  | { type: "verify-end"; step: number; passed: boolean; feedback?: string; error?: string }
  | { type: "agent-end"; status: string; steps: number; usage: UsageTotals; reason?: string; taskType?: string };

export type StepStatus = "succeeded" | "failed" | "skipped" | "cancelled" | "waiting";

/** Events of a plan run; `step-*` events are about plan steps, never about loop steps. */
export type PlanEventBody =
  | {
      type: "plan-created";
      version: number;
      /** `args`: the step's arguments, secrets masked, a preview when long. */
      steps: Array<{ id: CallId; task: string; depends_on: CallId[]; tool?: string; model?: string; args?: unknown }>;
      /**
       * Code mode: the program (version 1, then each repair) as the model wrote it. Its steps
       * are not known ahead: each call it makes is a step announced by its `step-start`.
       */
      program?: string;
    }
  | { type: "step-ready"; stepId: CallId }
  /** `tool`, `args` (secrets masked): a step no plan listed before it started, a code-mode program's call. */
  | { type: "step-start"; stepId: CallId; kind: "tool" | "agent" | "wait"; attempt: number; tool?: string; args?: unknown }
  | { type: "step-retry"; stepId: CallId; attempt: number; delayMs: number; error: string }
  | { type: "step-end"; stepId: CallId; status: StepStatus; attempts: number; durationMs: number; error?: string; preview?: string }
  | { type: "run-end"; status: string; usage: UsageTotals; durationMs: number; reason?: string }
  /**
   * Made from a stored run's journal for its trace (`planloop trace --run`): where the run
   * stopped (waiting for a person, or its process gone) and where a later process went on.
   */
  | { type: "run-paused"; status: string }
  /** `decided`: the decisions a person gave while it waited, as `<id>: approved|denied|answered`, and when (ms since 1970). */
  | { type: "run-resumed"; decided?: Array<{ id: string; decision: string; at?: number }> };

/** Events of a planning strategy around its executions. */
export type StrategyEventBody =
  /** `unknownTools`: tools the plan calls that the run does not have. */
  | { type: "plan-invalid"; attempt: number; errors: string[]; unknownTools?: string[] }
  /**
   * `early`: started while independent steps still ran (`replanEarly`). A later
   * `replan-start` with the same number means that early plan was dropped and the planner
   * was asked again.
   */
  | { type: "replan-start"; replans: number; reason: string; early?: boolean }
  /** The first plan came from the plan cache (`planCache`): no planner call. */
  | { type: "plan-reused"; key: string }
  | { type: "critic-end"; approved: boolean; feedback?: string }
  /**
   * The answer's claims were checked against the step outputs (`grounding`): the counts of the
   * answer as returned; `repaired`, the solver rewrote it once; `removed`, sentences `strict` took out.
   */
  | {
      type: "grounding-end";
      policy: "flag" | "repair" | "strict";
      claims: number;
      supported: number;
      unsupported: number;
      uncited: number;
      repaired: boolean;
      removed: number;
      /** The unsupported claims (the first 20), with why. */
      flagged: Array<{ text: string; reason: string }>;
    }
  /** A new plan version was reviewed (`reviewPlan`): `unchanged` needed no review, `waiting` waits for a human. */
  | { type: "plan-review"; version: number; decision: "approved" | "edited" | "rejected" | "unchanged" | "waiting"; feedback?: string }
  /** From `stream()`: the consumer fell behind by more than its buffer; this many earlier events were dropped. */
  | { type: "events-dropped"; count: number }
  | { type: "strategy-end"; strategy: string; status: string; usage: UsageTotals; durationMs: number; reason?: string; taskType?: string };

export type PlanloopEventBody = AgentEventBody | PlanEventBody | StrategyEventBody;

/** Every event: JSON-safe, numbered in emission order, stamped with the clock's time. */
/**
 * `inner`: the event comes from a run inside this one (a strategy's plan run or loop, an agent
 * step's loop), passed on; its `run-end` or `agent-end` is not the end of the whole run.
 */
export type PlanloopEvent = PlanloopEventBody & { seq: number; time: number; stepId?: CallId; inner?: true };

export type EventListener = (event: PlanloopEvent) => void;

/**
 * Stamps events with a sequence number and time and hands them to listeners. A listener
 * that throws is reported once as a process warning and never breaks the run.
 */
export class EventHub {
  private readonly emitter = new EventEmitter<{ event: [PlanloopEvent] }>();
  private readonly clock: Clock;
  private sequence = 0;
  private warned = false;
  /** Whether each listener is someone watching the run (see `watched`). */
  private readonly watchers = new Set<() => boolean>();

  /** `internal`: a listener of the library's own (a result's trace), which watches nothing. */
  constructor(options: { clock?: Clock; listener?: EventListener; internal?: EventListener } = {}) {
    this.clock = options.clock ?? systemClock;
    if (options.listener) this.on(options.listener);
    if (options.internal) this.on(options.internal, { internal: true });
  }

  /**
   * True when someone outside the library listens, here or through the runs this one is
   * relayed to: only then are costly, fine-grained events made (pieces of streamed answers).
   */
  get watched(): boolean {
    for (const watching of this.watchers) if (watching()) return true;
    return false;
  }

  on(listener: EventListener, options: { internal?: boolean } = {}): () => void {
    // A relay to another hub watches as much as that hub does.
    const watching = options.internal ? () => false : ((listener as { watching?: () => boolean }).watching ?? (() => true));
    this.watchers.add(watching);
    const guarded = (event: PlanloopEvent) => {
      try {
        listener(event);
      } catch (error) {
        this.reportListenerError(error);
      }
    };
    this.emitter.on("event", guarded);
    return () => {
      this.watchers.delete(watching);
      this.emitter.off("event", guarded);
    };
  }

  /** True when someone listens; skip building costly event bodies otherwise. */
  get active(): boolean {
    return this.emitter.listenerCount("event") > 0;
  }

  /** Emits an event; pass a function to build the body only when someone listens. */
  emit(body: PlanloopEventBody | (() => PlanloopEventBody), context: { stepId?: CallId; inner?: true } = {}): void {
    if (!this.active) return;
    const built = typeof body === "function" ? body() : body;
    const event = { ...built, seq: ++this.sequence, time: this.clock.now() } as PlanloopEvent;
    if (context.stepId !== undefined) event.stepId = context.stepId;
    if (context.inner) event.inner = true;
    this.emitter.emit("event", event);
  }

  /** A listener that re-emits another hub's events here, renumbered, tagged with `stepId` if given. */
  relay(context: { stepId?: CallId } = {}): EventListener {
    const relayed: EventListener & { watching?: () => boolean } = (event) => {
      const { seq: _seq, time: _time, stepId: _step, inner: _inner, ...body } = event;
      this.emit(body as PlanloopEventBody, {
        ...(context.stepId === undefined ? (event.stepId === undefined ? {} : { stepId: event.stepId }) : context),
        inner: true,
      });
    };
    relayed.watching = () => this.watched;
    return relayed;
  }

  private reportListenerError(error: unknown): void {
    if (this.warned) return;
    this.warned = true;
    process.emitWarning(`planloop: an onEvent listener threw and was ignored: ${shown(error)}`);
  }
}
