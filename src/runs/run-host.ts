import { randomBytes } from "node:crypto";
import pLimit, { type LimitFunction } from "p-limit";
import { groundingMark, groundingOption, type GroundingMark } from "../grounding/grounding-gate.js";
import { errorMessage, InvalidOptionsError, RunBusyError } from "../core/errors.js";
import { forkRun, type ForkedRun } from "../executor/fork-run.js";
import type { BudgetLimits } from "../core/budget.js";
import type { PlanloopEvent } from "../core/events.js";
import type { Model } from "../core/model.js";
import type { Tool } from "../core/tools/define-tool.js";
import { executeCheckedPlan } from "../executor/execute-plan.js";
import type { StepRunner } from "../executor/step-runner.js";
import { StepSlots } from "../executor/step-slots.js";
import { cancelStoredRun, type CancelOutcome } from "../journal/cancel-run.js";
import type { CheckpointStore, RunOrigin } from "../journal/checkpoint-store.js";
import { checkPlan, validatePlan, type CheckedPlan } from "../plan/validate-plan.js";
import { runStrategy } from "../strategies/run-strategy.js";
import { decideRun, decisionOptions, type RunDecision, type RunDecisions } from "./decide-run.js";
import { NoSuchRunError, takeDecisions, type TakenRun } from "./take-decisions.js";
import { waitingFor } from "./waiting-for.js";
import { checkSecret } from "../trust/keyed-hash.js";
import { RunLease } from "../journal/run-lease.js";
import { tenantOf } from "./run-tenant.js";
import { CannotContinueError, NotHostedError } from "./run-host-errors.js";

export { CannotContinueError, NotHostedError } from "./run-host-errors.js";
import {
  dropDecided,
  hostedRequest,
  keepDecided,
  keepHostedRequest,
  keptDecided,
  createHostedRun,
  RunRequestError,
  type HostedRequest,
  type StartedRun,
  type StartRun,
} from "./hosted-request.js";
import { coveredByGrants } from "./standing-grants.js";
import { DecisionsRefusedError } from "./decisions-refused.js";
import { checkNewRunId } from "./run-id.js";
import { childrenOf } from "../strategies/stored-runs.js";
import { strategyEntries } from "../strategies/durable-strategy.js";

/** How a run of this process stopped: its status and reason, or why it could not run. */
export interface RunStop {
  status: string;
  reason?: string | undefined;
  grounding?: GroundingMark | undefined;
  /** The request it was started with (its `webhook`, say). */
  request: HostedRequest;
}

export interface RunHostOptions {
  store: CheckpointStore;
  tools: readonly Tool[];
  /** For task runs and plans with agent steps; without it the server runs plans of tool steps only. */
  model?: Model | undefined;
  /** Runs the steps elsewhere (`bullmqRunner` from planloop/bullmq: on workers); default: in this process. */
  runner?: StepRunner | undefined;
  /** At most this many runs at once in this process; more wait their turn (first come, first served). Default 8. */
  concurrency?: number | undefined;
  /**
   * At most this many steps at once across the runs of this process, a freed slot going to the
   * run that holds the fewest (`StepSlots`): a run of a thousand ready steps does not crowd out
   * one of three. Default 32.
   */
  stepSlots?: number | undefined;
  /**
   * The server's secret (16 characters or more; `planloop serve` reads PLANLOOP_SERVER_SECRET):
   * how each run was started (its plan or task, its webhook) is kept signed with it, and one
   * whose signature does not check is not continued (`TamperedRequestError`). Without it, what
   * is kept is trusted as the store holds it.
   */
  secret?: string | undefined;
  /** Told when a run of this process (or a run kept inside it) emits an event: it may have written to the store. */
  onActivity?: ((runId: string, event: PlanloopEvent) => void) | undefined;
  /** Told when a run stops here: finished, waiting, cancelled (also one cancelled in the store), or not run (`status: "not run"`). */
  onStop?: ((runId: string, stop: RunStop) => void) | undefined;
}

/** A run's lease taken before it runs, with its decisions; a run this host just created: its origin, its plan as checked then. */
type TakenLease = { lease: RunLease; decided: RunDecisions | undefined };
type CreatedHere = { origin: RunOrigin | undefined; plan: CheckedPlan | undefined };

/** A run in this process: its signal, and when it stops. */
interface LiveRun {
  controller: AbortController;
  done: Promise<void>;
}

/**
 * Runs what the server is asked to run, in its own process, under each run's lease: starts a
 * plan or a task, continues a waiting run with people's decisions, cancels. How each run was
 * started is kept in the store beside it, so another server (or this one after a restart)
 * continues it the same way, with its own tools and model: nothing stored is loaded or run.
 */
export class RunHost {
  private readonly live = new Map<string, LiveRun>();
  private readonly limit: LimitFunction;
  /** The step slots this process's runs share. */
  readonly slots: StepSlots;

  constructor(private readonly options: RunHostOptions) {
    checkSecret(options.secret, "secret");
    this.limit = pLimit(options.concurrency ?? 8);
    this.slots = new StepSlots(options.stepSlots ?? 32);
  }

  /**
   * Starts a run; a run with this id there already is not started again (`created: false`).
   * The id is claimed in the store first (one write that only one of two servers asked at the
   * same moment wins), so exactly one answers `created: true`. The id a caller names is checked
   * (`checkNewRunId`); its origin records who asked. Its origin, and its lease when the claim took it, are not read back.
   */
  async start(body: StartRun, given: { client?: string | undefined } = {}): Promise<StartedRun> {
    const { request, plan } = this.checked(body);
    const runId = body.runId === undefined ? newRunId() : checkNewRunId(body.runId);
    const { store } = this.options;
    if (this.live.has(runId)) return { runId, created: false };
    const entry = request.kind === "plan" ? "executePlan" : strategyEntries[request.strategy];
    const origin = given.client === undefined ? undefined : { client: given.client };
    const created = await createHostedRun(store, { runId, entry, at: Date.now(), origin }, request, this.options.secret);
    if (!created.created) return { runId, created: false };
    this.launch(runId, request, created.lease && { lease: created.lease, decided: undefined }, { origin, plan });
    return { runId, created: true };
  }

  /**
   * Reruns a run this server started from one of its steps (`forkRun`): a new run of the same
   * plan (a task run's latest plan), the steps before that one reused, started here at once.
   */
  async fork(
    runId: string,
    request: { step: string | number; args?: unknown; plan?: unknown; runId?: string | undefined },
    given: { client?: string | undefined } = {},
  ): Promise<ForkedRun> {
    if (request.runId !== undefined) checkNewRunId(request.runId);
    const hosted = await this.requestOf(runId);
    if (hosted === undefined) throw new InvalidOptionsError(`run "${runId}" was not started by this server; rerun it where it was started`);
    const from = hosted.kind === "plan" ? runId : await this.latestPlanRun(runId);
    const forked = await forkRun(this.options.store, {
      from,
      step: request.step,
      ...(request.args === undefined ? {} : { args: request.args }),
      ...(request.plan === undefined ? {} : { plan: request.plan }),
      runId: request.runId ?? `${runId}~rerun-${randomBytes(3).toString("hex")}`,
      client: given.client,
    });
    const rerun: HostedRequest = { kind: "plan", plan: forked.plan, ...(hosted.webhook === undefined ? {} : { webhook: hosted.webhook }) };
    await keepHostedRequest(this.options.store, forked.runId, rerun, this.options.secret);
    this.launch(forked.runId, rerun);
    return forked;
  }

  /** The plan run a strategy run ran last (`<id>/plan:<v>`, the highest v). */
  private async latestPlanRun(runId: string): Promise<string> {
    const plans = (await childrenOf(this.options.store, runId))
      .map((child) => ({ runId: child.runId, version: Number(/\/plan:(\d+)$/.exec(child.runId)?.[1] ?? NaN) }))
      .filter((child) => Number.isInteger(child.version))
      .sort((a, b) => b.version - a.version);
    if (plans[0] === undefined) throw new InvalidOptionsError(`run "${runId}" ran no plan; there is no step to rerun from`);
    return plans[0].runId;
  }

  /** Whether this server started the run (and so knows how to continue it). */
  async hosts(runId: string): Promise<boolean> {
    // Whether it is kept at all: one whose signature does not check is still this server's, and refused when continued.
    return (await hostedRequest(this.options.store, runId)) !== undefined;
  }

  /** Resolves when the run stops running in this process (at once when it is not running here). */
  settled(runId: string): Promise<void> {
    return this.live.get(runId)?.done ?? Promise.resolve();
  }

  /** Whether the run is running in this process now. */
  isLive(runId: string): boolean {
    return this.live.has(runId);
  }

  /**
   * Continues a run this server started: with people's decisions as `takeDecisions` took them
   * (the run's lease held, the decisions checked under it), so the run goes on under that lease
   * and no other process can slip in between; without (a wait that is over, a run whose owner
   * is gone) its lease is taken here, before it waits for a place among this server's runs, so
   * a decision sent meanwhile is refused as busy instead of answered and then lost. A run
   * another process holds is a `RunBusyError`; one this server's tools or model cannot run, a
   * `CannotContinueError`.
   */
  async continue(runId: string, taken?: TakenRun): Promise<{ done: Promise<void> }> {
    try {
      const request = await this.requestOf(runId);
      if (request === undefined) throw new NotHostedError(runId);
      this.checkRunnable(runId, request);
      if (this.live.has(runId)) throw new RunBusyError(runId, { owner: "this server", expiresAt: Date.now() });
      const { store, secret } = this.options;
      // Decisions a server answered as taken and then died before the run went on with: this one goes on with them.
      const held = taken ?? {
        lease: await RunLease.take(store, runId, { lease: { onBusy: "fail" } }),
        decided: await keptDecided(store, runId, secret),
      };
      if (taken !== undefined) await keepDecided(store, runId, taken.decided, secret);
      return { done: this.launch(runId, request, held) };
    } catch (error) {
      await taken?.lease.release();
      throw error;
    }
  }

  /** Why this server cannot continue a run it started (its plan does not fit the tools here, it has no model); undefined when it can. */
  async cannotContinue(runId: string): Promise<string | undefined> {
    const request = await this.requestOf(runId);
    if (request === undefined) return undefined;
    try {
      this.checkRunnable(runId, request);
      return undefined;
    } catch (error) {
      if (error instanceof CannotContinueError) return error.message;
      throw error;
    }
  }

  /** Whether this server can run the run as it was started: its plan checks against the tools here, its task has a model. */
  private checkRunnable(runId: string, request: HostedRequest): void {
    if (request.kind === "task") {
      if (this.options.model === undefined)
        throw new CannotContinueError(runId, "it is a task run, and this server has no model (--model)");
      return;
    }
    const plan = validatePlan(request.plan, { tools: this.options.tools });
    if (!plan.ok)
      throw new CannotContinueError(
        runId,
        `its plan does not check against this server's tools (${plan.errors.map((error) => error.message).join("; ")})`,
      );
  }

  /**
   * Takes people's decisions on a run this server started and continues it with them: checked
   * first against what the run waits for (a refusal names each bad item, `DecisionsRefusedError`),
   * then the run's lease taken and the decisions checked again under it (`takeDecisions`), so a
   * decision answered as taken is one the run goes on with. A run that is not in the store is a
   * `NoSuchRunError`; one this server did not start, a `NotHostedError`; one running here or in
   * another process, a `RunBusyError`.
   */
  async decide(
    runId: string,
    given: { decisions: RunDecision | readonly RunDecision[]; by: string },
  ): Promise<{ decided: RunDecisions; done: Promise<void> }> {
    const { store, tools } = this.options;
    const before = await waitingFor(store, runId);
    if (before === undefined) throw new NoSuchRunError(runId);
    decideRun({ run: before, ...given, tools });
    if (!(await this.hosts(runId))) throw new NotHostedError(runId);
    if (this.live.has(runId)) throw new RunBusyError(runId, { owner: "this server", expiresAt: Date.now() });
    const taken = await takeDecisions({ store, runId, ...given, tools });
    const { done } = await this.continue(runId, taken);
    return { decided: taken.decided, done };
  }

  /**
   * Approves what the run waits for that a standing grant covers, and continues it (the
   * decisions say which grant's giver they came from). The ids approved; none when nothing is
   * covered or the run is running here.
   */
  async applyGrants(runId: string): Promise<string[]> {
    if (this.live.has(runId)) return [];
    const covered = await coveredByGrants(this.options.store, runId, Date.now());
    if (covered.length === 0) return [];
    const by = `standing grant of ${[...new Set(covered.map((item) => item.by))].join(", ")}`;
    let taken: TakenRun;
    try {
      taken = await takeDecisions({
        store: this.options.store,
        runId,
        decisions: covered.map((item) => ({ pendingId: item.id, action: "approve" as const })),
        by,
      });
    } catch (error) {
      // Another process is on the run, or it went on meanwhile: its next wait is looked at again.
      if (error instanceof RunBusyError || error instanceof DecisionsRefusedError) return [];
      throw error;
    }
    await this.continue(runId, taken);
    return taken.decided.ids;
  }

  /** Cancels the run: one running here by its signal (its running tools are aborted), any other in the store, under its lease. */
  async cancel(runId: string, reason: string): Promise<CancelOutcome> {
    const live = this.live.get(runId);
    if (live !== undefined) {
      live.controller.abort(new Error(reason));
      await live.done;
      const run = await this.options.store.getRun(runId);
      if (run?.status === "finished") return "cancelled";
    }
    const outcome = await cancelStoredRun(this.options.store, runId, { reason });
    const request = await this.requestOf(runId);
    if (outcome === "cancelled" && request !== undefined) this.options.onStop?.(runId, { status: "cancelled", reason, request });
    return outcome;
  }

  /**
   * Waits for the runs of this process to stop. `abort`: cancels them first (they end
   * cancelled); without it they run on to their end or their next wait.
   */
  async close(options: { abort?: boolean } = {}): Promise<void> {
    if (options.abort) for (const live of this.live.values()) live.controller.abort(new Error("the server is stopping"));
    await Promise.all([...this.live.values()].map((live) => live.done));
  }

  private checked(body: StartRun): { request: HostedRequest; plan?: CheckedPlan } {
    if ("plan" in body) {
      const plan = checkPlan(body.plan, { tools: this.options.tools });
      if (!plan.ok) throw new RunRequestError(`plan: ${plan.errors.map((error) => error.message).join("; ")}`, "plan");
      return { request: { kind: "plan", plan: body.plan, ...(body.webhook === undefined ? {} : { webhook: body.webhook }) }, plan };
    }
    if (this.options.model === undefined)
      throw new RunRequestError("task: this server was started without --model; it runs plans ({ plan }) only", "task");
    return {
      request: {
        kind: "task",
        task: body.task,
        strategy: body.strategy,
        ...(body.budget ? { budget: body.budget as BudgetLimits } : {}),
        ...(body.webhook === undefined ? {} : { webhook: body.webhook }),
        ...(body.grounding === undefined ? {} : { grounding: body.grounding }),
      },
    };
  }

  private requestOf(runId: string): Promise<HostedRequest | undefined> {
    return hostedRequest(this.options.store, runId, this.options.secret);
  }

  private launch(runId: string, request: HostedRequest, taken?: TakenLease, created?: CreatedHere): Promise<void> {
    const controller = new AbortController();
    const done = this.limit(async () => {
      // Its place come, the run takes its decisions into its own journal as it opens: kept for another server no longer
      // (given again after a crash inside the run, an approval would run a cut-off call a second time).
      if (taken?.decided !== undefined) await dropDecided(this.options.store, runId, taken.decided.decidedAt).catch(() => {});
      return this.execute(runId, request, { taken, signal: controller.signal, created });
    })
      .finally(() => {
        this.live.delete(runId);
        // The run gave up the lease it was handed as it stopped; one that could not start gives it up here.
        void taken?.lease.release();
      })
      .then(
        (stop) => {
          this.options.onStop?.(runId, { ...stop, request });
          // A standing grant approves what the run now waits for without asking.
          if (stop.status === "waiting") void this.applyGrants(runId).catch(() => {});
        },
        (error: unknown) => {
          this.options.onStop?.(runId, { status: "not run", reason: errorMessage(error), request });
          if (error instanceof RunBusyError) throw error;
        },
      );
    this.live.set(runId, { controller, done: done.catch(() => {}) });
    return done;
  }

  private async execute(
    runId: string,
    request: HostedRequest,
    given: { taken: TakenLease | undefined; signal: AbortSignal; created?: CreatedHere | undefined },
  ): Promise<Omit<RunStop, "request">> {
    const { store, tools, model } = this.options;
    const onEvent = (event: PlanloopEvent) => this.options.onActivity?.(runId, event);
    const tenant = tenantOf(given.created !== undefined ? given.created.origin : (await store.getRun(runId))?.origin);
    const durable = {
      store,
      runId,
      signal: given.signal,
      onEvent,
      slots: this.slots,
      ...(tenant === undefined ? {} : { tenant }),
      ...(this.options.runner === undefined ? {} : { runner: this.options.runner }),
      lease: given.taken === undefined ? { onBusy: "fail" as const } : { held: given.taken.lease },
      ...decisionOptions(given.taken?.decided),
    };
    if (request.kind === "plan") {
      // Checked once (as started here, or as kept); in the options too, so secrets the store kept out are given again from it.
      const plan = given.created?.plan ?? checkPlan(request.plan, { tools });
      if (!plan.ok) throw new Error(`the stored plan of run "${runId}" does not check against this server's tools`);
      const result = await executeCheckedPlan({ ...{ plan: plan.plan }, tools, model, ...durable }, plan);
      return { status: result.status, reason: result.reason };
    }
    if (model === undefined) throw new Error(`run "${runId}" is a task run; this server has no --model to continue it with`);
    const asked = { ...(request.budget === undefined ? {} : { budget: request.budget }), ...groundingOption(request.grounding) };
    const result = await runStrategy(request.strategy, { task: request.task, model, tools, ...asked, ...durable });
    return { status: result.status, reason: result.reason, grounding: groundingMark(result) };
  }
}

/** A new run's id, when the caller gave none. */
export function newRunId(): string {
  return `run-${Date.now().toString(36)}-${randomBytes(4).toString("hex")}`;
}
