export { runAgent } from "./react/run-agent.js";
export type { AgentOptions, ApprovalDecision } from "./react/agent-options.js";
export type { AgentResult, AgentStatus, AgentError, PendingCall } from "./react/agent-result.js";
export type { AgentState } from "./react/agent-state.js";
export type { Verifier, VerifyResult } from "./react/completion-check.js";
export type { NoProgressSettings } from "./react/no-progress.js";

export { defineTool, askUser } from "./core/tools/define-tool.js";
export type { Tool, ToolOptions, ToolContext, Authorization } from "./core/tools/define-tool.js";
export type { ToolExecutor } from "./core/tools/tool-executor.js";

export { Budget } from "./core/budget.js";
export type { BudgetLimits, BudgetLimit, BudgetBreach } from "./core/budget.js";
export { EventHub } from "./core/events.js";
export type { PlanloopEvent, PlanloopEventBody, AgentEventBody, PlanEventBody, EventListener } from "./core/events.js";
export { PlanloopError, InvalidOptionsError, InvalidDecisionError, ModelCallError } from "./core/errors.js";
export { systemClock, sleep } from "./core/clock.js";
export type { Clock } from "./core/clock.js";
export { canonicalJson } from "./core/canonical-json.js";
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
} from "./core/model.js";
export type { Usage, UsageTotals } from "./core/usage.js";

export { executePlan } from "./executor/execute-plan.js";
export { InvalidPlanError } from "./plan/invalid-plan-error.js";
export type { ExecutePlanOptions } from "./executor/execution-options.js";
export type { PlanRunResult, PlanRunStatus, StepRecord, StepStatus, PlanPendingCall } from "./executor/execution-result.js";
export type { PlanRunState, WaitingStep } from "./executor/resume-state.js";
export type { RetryOptions } from "./executor/retry.js";
export type { TimelineEntry } from "./executor/timeline.js";
export { toolStepCallId } from "./executor/tool-step.js";
export { validatePlan } from "./plan/validate-plan.js";
export type { PlanValidation, PlanError, PlanErrorCode } from "./plan/validate-plan.js";
export { planSchema } from "./plan/plan-schema.js";
export type { Plan, PlanInput, PlanStep, StepId } from "./plan/plan-schema.js";
export { substitutePlaceholders, findPlaceholders } from "./plan/placeholders.js";
export type { PlaceholderReference, Substitution } from "./plan/placeholders.js";

export { planAndExecute } from "./strategies/plan-and-execute.js";
export type { PlanAndExecuteOptions } from "./strategies/plan-and-execute.js";
export type { PlanAndExecuteState, RewooState, LlmCompilerState, PlanStrategyState } from "./strategies/plan-strategy-state.js";
export type { Critic, CriticVerdict, PlanVerifier } from "./strategies/answer-phase.js";
export type { StrategyName, StrategyStatus, StrategyResult, StrategyState, PlanStrategyResult } from "./strategies/strategy-result.js";
export type { HumanDecisions, StrategyOptions } from "./strategies/strategy-run.js";
export type { PlanningOptions } from "./strategies/planning.js";
export type { Observer, ObservationVerdict } from "./executor/execution-options.js";
export { defaultPrompts } from "./planner/prompts.js";
export type { Prompts, StepView } from "./planner/prompts.js";
export { parsePlanText } from "./planner/parsers/parse-plan.js";
export type { PlanFormat } from "./planner/parsers/parse-plan.js";
export type { TextStreamPart } from "./core/model.js";
export type { StrategyEventBody } from "./core/events.js";
export { react } from "./strategies/react.js";
export type { ReactOptions, ReactResult } from "./strategies/react.js";
export { rewoo } from "./strategies/rewoo.js";
export type { RewooOptions } from "./strategies/rewoo.js";
export { llmCompiler } from "./strategies/llm-compiler.js";
export type { LlmCompilerOptions } from "./strategies/llm-compiler.js";
export { executePlanStream } from "./executor/execute-plan-stream.js";
export type { ExecutePlanStreamOptions } from "./executor/execute-plan-stream.js";
export { runStrategy, strategyNames, strategyOfState } from "./strategies/run-strategy.js";
export type { SharedStrategyOptions } from "./strategies/run-strategy.js";
export { openAICompatible } from "./models/openai-compatible.js";
export type { OpenAICompatibleOptions } from "./models/openai-compatible.js";
export { ModelHttpError } from "./models/http-request.js";
export { defaultPrices, priceOf, withCost } from "./models/prices.js";
export type { ModelPrice, PriceTable } from "./models/prices.js";
export { fromAISDK } from "./models/ai-sdk.js";
export type { AISDKLanguageModel } from "./models/ai-sdk.js";
export { offlineModel, offlineNotice } from "./offline/offline-model.js";
export type { OfflineModelOptions } from "./offline/offline-model.js";
export type { OfflineTask } from "./offline/offline-task.js";
