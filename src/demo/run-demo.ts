import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { CheckpointStore } from "../journal/checkpoint-store.js";
import type { EventListener, PlanloopEvent } from "../core/events.js";
import { toModelFunction, type Model } from "../core/model.js";
import { offlineModel } from "../offline/offline-model.js";
import { planAndExecute } from "../strategies/plan-and-execute.js";
import type { PlanStrategyResult } from "../strategies/strategy-result.js";
import { renderTraceHtml } from "../trace/trace-html.js";
import { generateDemoData } from "./demo-data.js";
import { createDemoDatabase } from "./demo-database.js";
import { reportTools } from "./report-tools.js";
import { sqlTools } from "./sql-tools.js";
import { tieredWeeklyReportTask, weeklyReportTaskText } from "./weekly-report-task.js";

export interface DemoOptions {
  /** Where the database, report, events and trace go. */
  dir: string;
  /** A real model; by default the offline model plans and answers. */
  model?: Model;
  /**
   * Models agent steps may name (see `models` in `executePlan`). By default, with the offline
   * model, a "fast" tier writes the report's headline and the planner's model is "strong".
   */
  models?: Record<string, Model>;
  /** The offline model's thinking time per call; default 300 ms, so the run can be watched. */
  latencyMs?: number;
  /** Each SQL query's simulated round trip; default 200 ms. */
  queryLatencyMs?: number;
  onEvent?: EventListener;
  onNotice?: (notice: string) => void;
  /** Stops the run (Ctrl-C in the CLI); the files still say how far it got and why it stopped. */
  signal?: AbortSignal | undefined;
  /** Keep the run here, under this id (see docs/durable-runs.md). */
  store?: CheckpointStore | undefined;
  runId?: string | undefined;
  /**
   * Have the solver write one wrong figure (the revenue, 7% too high), as a model sometimes
   * does: the run's grounding flags it, in `result.provenance` and the printed report's check.
   */
  plantWrongFigure?: boolean | undefined;
}

export interface DemoFiles {
  database: string;
  report: string;
  events: string;
  trace: string;
}

/**
 * Seed 001's weekly report, for real: a SQLite database with a week of orders, refunds and
 * tickets (the refunds' amount column was renamed; some refunds are in USD), SQL tools,
 * and Plan-and-Execute that replans around both surprises. Writes the report, the events
 * as JSONL, and an HTML trace.
 */
export async function runDemo(options: DemoOptions): Promise<{ result: PlanStrategyResult; files: DemoFiles }> {
  mkdirSync(options.dir, { recursive: true });
  const files: DemoFiles = {
    database: join(options.dir, "shop.sqlite"),
    report: join(options.dir, "weekly-report.md"),
    events: join(options.dir, "events.jsonl"),
    trace: join(options.dir, "trace.html"),
  };
  writeFileSync(files.events, "");
  const db = createDemoDatabase(files.database, generateDemoData());
  const events: PlanloopEvent[] = [];
  try {
    const offline = (latencyMs: number) =>
      offlineModel({ tasks: [tieredWeeklyReportTask], latencyMs, ...(options.onNotice ? { onNotice: options.onNotice } : {}) });
    const chosen = options.model ?? offline(options.latencyMs ?? 300);
    const model = options.plantWrongFigure ? withWrongRevenue(chosen) : chosen;
    // The cheaper tier answers sooner, as a smaller model would.
    const models = options.models ?? (options.model ? undefined : { strong: model, fast: offline((options.latencyMs ?? 300) / 3) });
    const result = await planAndExecute({
      task: weeklyReportTaskText,
      planner: model,
      tools: [...sqlTools(db, { latencyMs: options.queryLatencyMs ?? 200 }), ...reportTools()],
      concurrency: 4,
      maxReplans: 3,
      ...(models ? { models } : {}),
      signal: options.signal,
      store: options.store,
      runId: options.runId,
      onEvent: (event) => {
        events.push(event);
        appendFileSync(files.events, `${JSON.stringify(event)}\n`);
        options.onEvent?.(event);
      },
    });
    const report =
      result.output ?? `# Weekly report not written\n\nThe run ended ${result.status}: ${result.reason ?? "no reason given"}.\n`;
    writeFileSync(files.report, report.endsWith("\n") ? report : `${report}\n`);
    writeFileSync(files.trace, renderTraceHtml(events, { title: "planloop demo: the weekly report" }));
    return { result, files };
  } finally {
    db.close();
  }
}

/** A model whose answers (purpose "solve") state the revenue 7% too high. */
function withWrongRevenue(model: Model): Model {
  const call = toModelFunction(model)!;
  return async (request) => {
    const decision = await call(request);
    if (request.purpose !== "solve" || decision.type !== "final") return decision;
    const content = decision.content.replace(/(\| revenue \| ¥)([\d,.]+)/, (_, head: string, figure: string) => {
      const wrong = Number(figure.replace(/,/g, "")) * 1.07;
      return `${head}${wrong.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
    });
    return { ...decision, content };
  };
}
