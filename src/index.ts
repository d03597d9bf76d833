// The package root: what a user of planloop imports, grouped by what they do with it (docs/api.md).
// Internal helpers stay off it. Beside it: planloop/testing (test doubles, the store conformance
// checks), planloop/evals (the evaluation harness), planloop/sqlite, /postgres, /bullmq, /mcp, /ui.

// Run a ReAct loop
export { runAgent } from "./react/run-agent.js";
export type { AgentOptions } from "./react/agent-options.js";
export type { AgentResult, AgentResultFields, AgentStatus, AgentError, PendingCall } from "./react/agent-result.js";
export type { AgentState } from "./react/agent-state.js";
export type { Verifier, VerifyResult } from "./react/completion-check.js";
export type { NoProgressSettings } from "./react/no-progress.js";
export { suggestLimits } from "./react/suggest-limits.js";
export { approximateTokens, readObservationName } from "./react/context-window.js";
export type { ContextPolicy, ContextTrimmer, ContextCut } from "./react/context-window.js";
export type { LimitSuggestion, Spread } from "./react/suggest-limits.js";

// Give it tools
export { defineTool, askUser, effectOf } from "./core/tools/define-tool.js";
export type { Tool, ToolEffect, ToolOptions, ToolContext, Authorization } from "./core/tools/define-tool.js";
export type { ToolExecutor } from "./core/tools/tool-executor.js";
export type { ApprovalDecision, HumanDecisions } from "./core/tools/guarded-call.js";
export { definePipeline } from "./runs/pipelines.js";
export type { Pipeline } from "./runs/pipelines.js";

// Control runs: decide what a run waits for (one decision or a wave, all or nothing) under its lease, and keep runs going (every face goes through these)
export { decideRun } from "./runs/decide-run.js";
export type { DecideRunOptions, RunDecision, RunDecisions, WaitingRun } from "./runs/decide-run.js";
export { DecisionsRefusedError } from "./runs/decisions-refused.js";
export type { DecisionProblem, DecisionProblemKind } from "./runs/decisions-refused.js";
export { takeDecisions, NoSuchRunError } from "./runs/take-decisions.js";
export type { TakeDecisionsOptions, TakenRun } from "./runs/take-decisions.js";
export { waitingFor } from "./runs/waiting-for.js";
export { serveRuns, RunService } from "./runs/serve-runs.js";
export type { ServeRunsOptions, ContinueRequest, ContinueEnd } from "./runs/serve-runs.js";
export type { StartRetries } from "./runs/failed-starts.js";
export { leftAloneReasons } from "./runs/left-alone.js";

// Run a fixed plan: a report pipeline's DAG
export { validatePlan } from "./plan/validate-plan.js";
export type { PlanValidation, PlanError, PlanErrorCode } from "./plan/validate-plan.js";
export { InvalidPlanError } from "./plan/invalid-plan-error.js";
export { planSchema } from "./plan/plan-schema.js";
export type { Plan, PlanInput, PlanStep, StepId } from "./plan/plan-schema.js";
export { findPlaceholders } from "./plan/placeholders.js";
export type { PlaceholderReference } from "./plan/placeholders.js";
export type { StepRecord, StepStatus } from "./plan/step-record.js";
export { executePlan } from "./executor/execute-plan.js";
export { forkRun, type ForkOptions, type ForkedRun } from "./executor/fork-run.js";
export { executePlanStream } from "./executor/execute-plan-stream.js";
export type { ExecutePlanStreamOptions } from "./executor/execute-plan-stream.js";
export type {
  ExecutePlanOptions,
  ExecutionSettings,
  Observer,
  ObservationVerdict,
  PlanProblem,
  ProblemListener,
} from "./executor/execution-options.js";
export type { PlanRunResult, PlanRunResultFields, PlanRunStatus, PlanPendingCall, PlanWait } from "./executor/execution-result.js";
export type { PlanRunState, WaitingStep, StepWait } from "./executor/resume-state.js";
export type { RetryOptions } from "./executor/retry.js";
export type { TimelineEntry } from "./plan/timeline.js";
export { toolStepCallId } from "./core/tools/approvals.js";
export { LatencyBook, latencyBook } from "./executor/latency-book.js";
export { StepSlots } from "./executor/step-slots.js";
export type { StepSlotsOptions } from "./executor/step-slots.js";
export type { StepSlot } from "./executor/step-slots.js";
export type { LatencyBookJson } from "./executor/latency-book.js";
export type { AgentJob, AgentJobResult, StepRunner, ToolJob } from "./executor/step-runner.js";

// Let a model plan: Plan-and-Execute, ReWOO, LLMCompiler, code mode, ReAct side by side
export { defaultPrompts } from "./planner/prompts.js";
export type { Prompts, StepView } from "./planner/prompts.js";
export { parsePlanText } from "./planner/parsers/parse-plan.js";
export type { PlanFormat } from "./planner/parsers/parse-plan.js";
export { react } from "./strategies/react.js";
export type { ReactOptions, ReactResult } from "./strategies/react.js";
export { planAndExecute } from "./strategies/plan-and-execute.js";
export type { PlanAndExecuteOptions } from "./strategies/plan-and-execute.js";
export type { PlanCacheOption } from "./strategies/plan-cache.js";
export { rewoo } from "./strategies/rewoo.js";
export type { RewooOptions } from "./strategies/rewoo.js";
export { llmCompiler } from "./strategies/llm-compiler.js";
export type { LlmCompilerOptions } from "./strategies/llm-compiler.js";
export { codeMode } from "./strategies/code-mode/code-mode.js";
export type { CodeModeOptions, CodeModeResult, CodeModeResultFields } from "./strategies/code-mode/code-mode.js";
export type { CodeModeState, KeptCall, WrittenProgram } from "./strategies/code-mode/code-mode-state.js";
export { runStrategy, strategyNames, strategyOfState } from "./strategies/run-strategy.js";
export type { SharedStrategyOptions } from "./strategies/run-strategy.js";
export type {
  PlanAndExecuteState,
  RewooState,
  LlmCompilerState,
  PlanStrategyState,
  PlanReviewState,
} from "./strategies/plan-strategy-state.js";
export type { Critic, CriticVerdict, PlanVerifier } from "./strategies/answer-phase.js";
export type {
  StrategyName,
  StrategyStatus,
  StrategyResult,
  StrategyResultFields,
  StrategyState,
  PlanStrategyResult,
} from "./strategies/strategy-result.js";
export type { StrategyOptions } from "./strategies/strategy-run.js";
export type { PlanningOptions, PlanReviewOptions } from "./strategies/planning.js";
export { planChanges } from "./strategies/plan-review.js";
export type {
  PlanDecision,
  PlanChanges,
  PendingPlan,
  PlanReviewContext,
  PlanReviewer,
  ReviewPlanOption,
} from "./strategies/plan-review.js";

// Run a program in a sandbox: QuickJS in WebAssembly, with only the functions it is given
export { runProgram } from "./sandbox/run-program.js";
export type { RunProgramOptions } from "./sandbox/run-program.js";
export { defaultSandboxLimits } from "./sandbox/sandbox-limits.js";
export type { SandboxLimits } from "./sandbox/sandbox-limits.js";
export type { HostCall, HostReply, ProgramError, ProgramErrorKind, ProgramOutcome } from "./sandbox/program-outcome.js";

// Connect a model
export type {
  Message,
  SystemMessage,
  UserMessage,
  AssistantMessage,
  ToolMessage,
  ToolCall,
  ToolError,
  ToolErrorKind,
} from "./core/messages.js";
export type {
  Model,
  ModelFunction,
  ModelAdapter,
  ModelRequest,
  ModelDecision,
  ModelPurpose,
  FinalDecision,
  ToolCallsDecision,
  ToolSpec,
  TextStreamPart,
  ModelDelta,
  ResponseFormat,
  CallCost,
} from "./core/model.js";
export type { Usage, UsageTotals } from "./core/usage.js";
export { openAICompatible } from "./models/openai-compatible.js";
export type { OpenAICompatibleOptions } from "./models/openai-compatible.js";
export { providerLimit } from "./limits/provider-limit.js";
export type { ProviderLimit, ProviderLimitOptions, TurnOptions, LimitBackend } from "./limits/provider-limit.js";
export { resourceLocks } from "./limits/resource-locks.js";
export { WriteKeyLostError } from "./core/errors.js";
export { tenantBudget } from "./limits/tenant-budget.js";
export type { TenantBudgetOptions } from "./limits/tenant-budget.js";
export type { ResourceLocksOptions } from "./limits/resource-locks.js";
export { memoryLimitStore } from "./core/limit-store.js";
export type { BookRequest, HoldRequest, LimitStore, Spend } from "./core/limit-store.js";
export type { FairTurn, FairTurnRequest } from "./core/fair-turn.js";
export type { NextTurnRequest } from "./core/next-turn.js";
export type { HeldResource, ResourceLocks } from "./core/tools/call-gates.js";
export { ModelHttpError } from "./models/http-request.js";
export { IncompleteAnswerError, type AnswerEnd } from "./models/answer-end.js";
export { fromAISDK } from "./models/ai-sdk.js";
export type { AISDKLanguageModel } from "./models/ai-sdk.js";
export { defaultPrices, priceOf } from "./models/prices.js";
export type { ModelPrice, PriceTable } from "./models/prices.js";
export { estimatePromptTokens } from "./models/token-estimate.js";
export { offlineModel, offlineNotice } from "./offline/offline-model.js";
export type { OfflineModelOptions } from "./offline/offline-model.js";
export type { OfflineTask } from "./offline/offline-task.js";

// Budgets, stops and errors
export { Budget } from "./core/budget.js";
export type { RunSettings, StateSigning } from "./core/run-settings.js";
export type { BudgetLimits, BudgetLimit, BudgetBreach, Reservation, SharedBudget, NextCallEstimate } from "./core/budget.js";
export {
  PlanloopError,
  InvalidOptionsError,
  InvalidDecisionError,
  ModelCallError,
  BudgetExceededError,
  RunBusyError,
  LeaseLostError,
  StoreError,
} from "./core/errors.js";
export { MissingPackageError } from "./core/optional-package.js";
export { sleep } from "./core/clock.js";
export type { Clock } from "./core/clock.js";

// Keep runs: stores, leases, secrets (SQLite and Postgres stores are planloop/sqlite, planloop/postgres)
export { RunLease } from "./journal/run-lease.js";
export type { LeaseOptions } from "./journal/run-lease.js";
export { defaultSecretKeys, maskSecrets } from "./trust/secrets.js";
export type { SecretKeys } from "./trust/secrets.js";
export { memoryStore } from "./journal/memory-store.js";
export { modelCallsOf } from "./journal/model-calls.js";
export { runAnchor, checkRunAnchor } from "./journal/run-anchor.js";
export type { AnchorOptions } from "./journal/run-anchor.js";
export type { KeptAnswer, KeptModelCall, ModelCallView } from "./journal/model-calls.js";
export type {
  CheckpointStore,
  JournalEntry,
  LeaseAnswer,
  ListRunsOptions,
  RunOrigin,
  RunOutcome,
  RunStatus,
  RunSummary,
  StoredRun,
  RunChangeListener,
} from "./journal/checkpoint-store.js";

// Wait for a time or an event, and start runs on a schedule: wait and poll steps, events, waking due runs, schedules
export { sendEvent, defaultEventKeepMs } from "./waits/send-event.js";
export type { SendEventOptions, SentEvent } from "./waits/send-event.js";
export { wakeDueRuns } from "./waits/wake-due-runs.js";
export type { WakeOptions, WakeReport, DueRun } from "./waits/wake-due-runs.js";
export type { RunWake, StoredEvent, EventLog } from "./journal/checkpoint-store.js";
export type { PollCondition } from "./executor/step/poll-step.js";
export { saveSchedule, listSchedules, setSchedulePaused, removeSchedule, scheduledRunId } from "./waits/schedules.js";
export type { Schedule, ScheduleInput, ScheduleOverlap, ScheduleState } from "./waits/schedules.js";
export { runSchedules } from "./waits/run-schedules.js";
export type { RunSchedulesOptions, ScheduleFire, ScheduleReport } from "./waits/run-schedules.js";

// Check a report against its steps: every figure, date and name traced to the step that produced it
export { checkClaims } from "./grounding/check-claims.js";
export type { CheckClaimsOptions, ClaimEvidence } from "./grounding/check-claims.js";
export type {
  CheckedClaim,
  ClaimCounts,
  ClaimKind,
  ClaimReport,
  ClaimStatus,
  Derivation,
  GroundingPolicy,
  MatchedValue,
  Provenance,
  Sentence,
} from "./grounding/claim-report.js";

// Watch runs: events, streams, traces, OpenTelemetry
export type { PlanloopEvent, PlanloopEventBody, AgentEventBody, PlanEventBody, StrategyEventBody, EventListener } from "./core/events.js";
export { stream } from "./core/run-stream.js";
export type { RunStream } from "./core/run-stream.js";
export { renderTraceHtml } from "./trace/trace-html.js";
export { perfettoTrace } from "./trace/perfetto.js";
export type { TraceEvent } from "./trace/perfetto.js";
export { openTelemetry } from "./telemetry/open-telemetry.js";
export type { OpenTelemetryListener, OpenTelemetryOptions, SpanLike, TracerLike } from "./telemetry/open-telemetry.js";
