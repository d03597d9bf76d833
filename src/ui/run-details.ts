import type { CheckpointStore } from "../journal/checkpoint-store.js";
import { pendingFor, runDetail, type InboxItem, type RunDetail, type StepDetail } from "./run-detail.js";

/** How many steps the run page is sent at first; the rest come a page at a time (`steps`). */
export const firstSteps = 200;
/** The most steps one page of `GET /api/runs/:id/steps` holds. */
export const stepsPage = 5_000;

/** The run page's answer: the first steps only, their count, and the run's result without its copies of steps and state. */
export type RunPageDetail = Omit<RunDetail, "steps" | "trace"> & {
  steps: StepDetail[];
  stepCount: number;
  /** The timeline's bars are left out (the timeline is drawn by trace.html) unless asked for (`bars`). */
  trace: Omit<RunDetail["trace"], "bars"> & { bars?: RunDetail["trace"]["bars"] };
};

/**
 * Each run's page, made once per change: a run's detail is kept with what its row (and its
 * inner runs' rows) looked like, and made again only when one of them moved — a finished run
 * of 50,000 steps is read and summed up once, however often its page is opened. The newest few
 * are kept.
 */
export class RunDetails {
  private readonly kept = new Map<string, { seen: string; detail: RunDetail }>();
  /** What each waiting run waits for, with how its row looked: the inbox reads a run again only when it moved. */
  private readonly waits = new Map<string, { seen: string; items: InboxItem[] }>();

  constructor(
    private readonly store: CheckpointStore,
    private readonly keep = 8,
  ) {}

  /** The run's page (`bars`: with the timeline's bars); undefined for no such run. */
  async page(runId: string, options: { bars?: boolean } = {}): Promise<RunPageDetail | undefined> {
    const detail = await this.detail(runId);
    if (detail === undefined) return undefined;
    const { bars, ...trace } = detail.trace;
    return {
      ...detail,
      steps: detail.steps.slice(0, firstSteps),
      stepCount: detail.steps.length,
      trace: options.bars ? { ...trace, bars } : trace,
      ...(detail.result === undefined ? {} : { result: shownResult(detail.result) }),
    };
  }

  /** Steps `from` on, at most `limit` (up to `stepsPage`) of them; undefined for no such run. */
  async steps(runId: string, from: number, limit: number): Promise<{ steps: StepDetail[]; stepCount: number } | undefined> {
    const detail = await this.detail(runId);
    if (detail === undefined) return undefined;
    return { steps: detail.steps.slice(from, from + Math.min(limit, stepsPage)), stepCount: detail.steps.length };
  }

  /** What every waiting run waits for, newest run first (the inbox). */
  async inbox(): Promise<InboxItem[]> {
    const rows = await this.store.listRuns({ topLevel: true, status: "waiting" });
    const waits = new Map<string, { seen: string; items: InboxItem[] }>();
    for (const row of rows) {
      const seen = `${row.updatedAt} ${row.entries} ${row.status}`;
      const kept = this.waits.get(row.runId);
      const items = kept?.seen === seen ? kept.items : ((await pendingFor(this.store, row.runId)) ?? []);
      waits.set(row.runId, { seen, items });
    }
    // Runs no longer waiting are let go.
    this.waits.clear();
    for (const [runId, kept] of waits) this.waits.set(runId, kept);
    return [...waits.values()].flatMap((kept) => kept.items);
  }

  private async detail(runId: string): Promise<RunDetail | undefined> {
    const seen = await this.look(runId);
    if (seen === undefined) return undefined;
    const kept = this.kept.get(runId);
    if (kept !== undefined && kept.seen === seen) {
      // The newest kept last: the least recently read goes first.
      this.kept.delete(runId);
      this.kept.set(runId, kept);
      return kept.detail;
    }
    const detail = await runDetail(this.store, runId);
    if (detail === undefined) return undefined;
    this.kept.delete(runId);
    this.kept.set(runId, { seen, detail });
    if (this.kept.size > this.keep) this.kept.delete(this.kept.keys().next().value!);
    return detail;
  }

  /** How the run and the runs inside it look now (rows only, no journal): undefined for no such run. */
  private async look(runId: string): Promise<string | undefined> {
    const [rows, inner] = await Promise.all([this.store.listRuns({ runId, limit: 1 }), this.store.listRuns({ within: runId })]);
    if (rows.length === 0) return undefined;
    return [...rows, ...inner]
      .map((row) => `${row.runId} ${row.updatedAt} ${row.entries} ${row.status} ${row.outcome?.status ?? ""}`)
      .join("\n");
  }
}

/** What the page shows of a run's result: its own fields, without the copies of every step, state and trace it may carry. */
function shownResult(result: unknown): unknown {
  if (typeof result !== "object" || result === null) return result;
  const { steps: _steps, state: _state, trace: _trace, ...shown } = result as Record<string, unknown>;
  return shown;
}
