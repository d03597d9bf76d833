import { z } from "zod";
import { errorMessage } from "../core/errors.js";
import { strategyNames } from "../strategies/run-strategy.js";
import type { StrategyName } from "../strategies/strategy-result.js";
import { groundingChoices, type GroundingChoice } from "../grounding/grounding-gate.js";
import type { Pipeline } from "../runs/pipelines.js";
import { newRunId } from "../runs/run-host.js";
import { checkNewRunId, newRunIdSchema, runReferenceSchema } from "../runs/run-id.js";
import { BodyError, type StartRun } from "./api-requests.js";
import { runOutcome, runOutcomeShape } from "./mcp-outcome.js";
import { followRun, type McpCall, type RunFollowOptions } from "./mcp-run-follow.js";
import { viewOfRun } from "./run-view.js";

export interface McpToolContext extends RunFollowOptions {
  /** Who the runs started here came from, and who decides: the token's name over HTTP, `mcp` over stdio. */
  client: string;
  pipelines?: readonly Pipeline[] | undefined;
}

/** A tool's answer: text a model reads, the same as structured content, `isError` for a refusal or a failed run. */
export interface McpToolResult {
  [key: string]: unknown;
  content: Array<{ type: "text"; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: true;
}

/** A tool that starts a run: which run, and what it runs (a 2025-11-25 task call uses these). */
export interface McpRunStart {
  /** The run's id: the one given, checked by the library's rule, or a new one. Throws on a bad one. */
  runIdOf(input: unknown): string;
  startOf(input: never): StartRun;
}

/** One tool of planloop's MCP face, served alike by both SDK lines (`mcp-server.ts`, `mcp-modern-server.ts`). */
export interface McpTool {
  name: string;
  config: {
    title?: string;
    description: string;
    inputSchema: z.ZodRawShape | z.ZodObject<z.ZodRawShape>;
    outputSchema: z.ZodRawShape;
  };
  call(input: never, call: McpCall): Promise<McpToolResult>;
  run?: McpRunStart;
  /** The call runs a run until it stops (a run tool, `decide`): a stop that waits for a person may be asked about. */
  followsRun?: true;
}

const decision = z.object({
  pendingId: z.string(),
  action: z.enum(["approve", "deny", "answer"]),
  reason: z.string().optional(),
  text: z.string().optional().describe("The answer, for action answer"),
});

/**
 * planloop's MCP tools, one table for every protocol version (docs/mcp.md): the run tools
 * (`run_plan`, `ask`, one per pipeline) start a run and answer when it completes, fails or
 * waits; `decide` answers what a run waits for; `cancel_run`, `get_run`, `list_runs`.
 */
export function planloopTools(context: McpToolContext): McpTool[] {
  const { store, host } = context;
  const pipelineTools = (context.pipelines ?? []).map((pipeline) =>
    runTool(
      context,
      pipeline.name,
      { description: pipeline.description, inputSchema: pipeline.input as z.ZodObject<z.ZodRawShape> },
      (input: never) =>
        pipeline.plan
          ? { plan: pipeline.plan(input) }
          : { task: pipeline.task!(input), strategy: pipeline.strategy ?? ("plan-and-execute" as const) },
    ),
  );
  return [
    runTool(
      context,
      "run_plan",
      {
        title: "Run a plan",
        description:
          "Run a fixed plan (planloop's JSON plan: steps with id, task, tool, args, depends_on) and wait until it completes, fails or waits for a person.",
        inputSchema: { plan: z.looseObject({ steps: z.array(z.unknown()) }), runId: newRunIdSchema.optional() },
      },
      (input: { plan: { steps: unknown[] } }) => ({ plan: input.plan }),
    ),
    runTool(
      context,
      "ask",
      {
        title: "Ask planloop",
        description:
          "Give a task to a planloop strategy (plan-and-execute by default) and wait until it answers, fails or waits for a person.",
        inputSchema: {
          task: z.string().min(1),
          strategy: z.enum(strategyNames as [StrategyName, ...StrategyName[]]).optional(),
          runId: newRunIdSchema.optional(),
          grounding: z
            .enum(groundingChoices)
            .optional()
            .describe("How the answer's figures are checked against the steps: flag (default), repair, strict, or off"),
        },
      },
      (input: { task: string; strategy?: StrategyName; grounding?: GroundingChoice }) => ({
        task: input.task,
        strategy: input.strategy ?? "plan-and-execute",
        ...(input.grounding === undefined ? {} : { grounding: input.grounding }),
      }),
    ),
    {
      name: "decide",
      followsRun: true,
      config: {
        title: "Decide what a run waits for",
        description:
          "Approve, deny or answer what a waiting run waits for (ids from pending), all at once, and wait until the run stops again.",
        inputSchema: { runId: runReferenceSchema, decisions: z.array(decision).min(1) },
        outputSchema: runOutcomeShape,
      },
      call: (input: { runId: string; decisions: Array<z.infer<typeof decision>> }, call) =>
        guard(() => {
          const decisions = input.decisions.map((given) =>
            given.action === "answer"
              ? { pendingId: given.pendingId, action: "answer" as const, text: given.text ?? "" }
              : given.action === "deny"
                ? { pendingId: given.pendingId, action: "deny" as const, reason: given.reason }
                : { pendingId: given.pendingId, action: "approve" as const },
          );
          // Checked whole against what the run waits for now, and again under its lease; a refusal is the tool's error, naming each bad item.
          return followRun(context, input.runId, call, () => host.decide(input.runId, { decisions, by: context.client }));
        }),
    },
    {
      name: "cancel_run",
      config: {
        title: "Cancel a run",
        description: "Cancel a run; a tool running in it is aborted.",
        inputSchema: { runId: runReferenceSchema },
        outputSchema: runOutcomeShape,
      },
      call: (input: { runId: string }) =>
        guard(async () => {
          const cancelled = await host.cancel(input.runId, "cancelled through MCP");
          if (cancelled === "missing") throw new BodyError(`there is no run "${input.runId}"`, "runId");
          return runOutcome(await viewOfRun(store, input.runId), input.runId);
        }),
    },
    {
      name: "get_run",
      config: {
        title: "Read a run",
        description: "A run's status, what it waits for, and its answer.",
        inputSchema: { runId: runReferenceSchema },
        outputSchema: runOutcomeShape,
      },
      call: (input: { runId: string }) => guard(async () => runOutcome(await viewOfRun(store, input.runId), input.runId)),
    },
    {
      name: "list_runs",
      config: {
        title: "List runs",
        description: "The runs in the store, newest first.",
        inputSchema: { limit: z.number().int().min(1).max(200).optional(), status: z.string().optional() },
        outputSchema: { runs: z.array(z.object({ runId: z.string(), entry: z.string(), status: z.string(), createdAt: z.number() })) },
      },
      call: (input: { limit?: number; status?: string }) =>
        guard(async () => {
          const rows = await store.listRuns({ topLevel: true, limit: input.limit ?? 20, status: input.status });
          const runs = rows.map((row) => ({
            runId: row.runId,
            entry: row.entry,
            status: row.outcome?.status ?? "running",
            createdAt: row.createdAt,
          }));
          const text = runs.length === 0 ? "no runs" : runs.map((run) => `${run.runId}: ${run.status} (${run.entry})`).join("\n");
          return { content: [{ type: "text" as const, text }], structuredContent: { runs } };
        }),
    },
    ...pipelineTools,
  ];
}

/**
 * A tool that starts a run and answers when it completes, fails or waits for a person, with a
 * progress notification per step. Its run's id is the one given (by the library's one rule:
 * never an inner run's, a schedule's or "") or a new one.
 */
function runTool<Input>(
  context: McpToolContext,
  name: string,
  config: Omit<McpTool["config"], "outputSchema">,
  startOf: (input: Input) => StartRun,
): McpTool {
  const run: McpRunStart = {
    runIdOf: (input) => {
      const given = (input as { runId?: unknown }).runId;
      return given === undefined ? newRunId() : checkNewRunId(given);
    },
    startOf: startOf as (input: never) => StartRun,
  };
  return {
    name,
    config: { ...config, outputSchema: runOutcomeShape },
    run,
    followsRun: true,
    call: (input, call) =>
      guard(() => {
        const runId = run.runIdOf(input);
        return followRun(context, runId, call, () => startNewRun(context, { ...run.startOf(input), runId }));
      }),
  };
}

/** Starts a new run: an id that is taken (another client's run, or this one's earlier) is refused, never its old answer. */
export async function startNewRun(context: McpToolContext, request: StartRun & { runId: string }): Promise<void> {
  if ((await context.host.start(request, { client: context.client })).created) return;
  throw new RunIdTakenError(request.runId);
}

/** A run tool given the id of a run that exists: it starts new runs only. */
export class RunIdTakenError extends BodyError {
  constructor(runId: string) {
    super(`run "${runId}" exists already: a run tool starts a new run; give another runId, or read that one with get_run`, "runId");
  }
}

/** A refusal or failure as a tool error the client's model reads, never a thrown protocol error. */
export async function guard(work: () => Promise<McpToolResult>): Promise<McpToolResult> {
  try {
    return await work();
  } catch (error) {
    return toolError(errorMessage(error));
  }
}

export function toolError(text: string): McpToolResult & { isError: true } {
  return { content: [{ type: "text", text }], isError: true };
}

/** A tool's input schema whole: a raw shape wrapped by this package's zod (never an SDK's copy). */
export function inputObjectOf(tool: McpTool): z.ZodObject<z.ZodRawShape> {
  const schema = tool.config.inputSchema;
  return schema instanceof z.ZodObject ? schema : z.object(schema);
}
