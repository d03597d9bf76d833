// planloop/client: a small typed client for the run server's HTTP API (docs/server.md). It needs
// only fetch: Node 20+, browsers, edge runtimes.
export { planloopClient, PlanloopApiError } from "./planloop-client.js";
export { verifyWebhook, webhookSignature } from "./verify-webhook.js";
export type { PlanloopClient, ClientOptions, StreamOptions } from "./planloop-client.js";
export type {
  ApiError,
  ApiScope,
  DecisionAnswer,
  DecisionRequest,
  GrantAnswer,
  GrantRequest,
  PendingItem,
  RunList,
  RunView,
  StartRunAnswer,
  StartRunRequest,
  StreamEvent,
} from "./api-types.js";
