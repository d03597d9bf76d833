import { createHash, randomBytes } from "node:crypto";
import type * as McpServerV2 from "@modelcontextprotocol/server";
import type { PendingItem } from "../client/api-types.js";
import { decisionForm, decisionsOf, type FormAnswer } from "./mcp-elicit.js";
import { runAnswer } from "./mcp-outcome.js";
import { followRun, type McpCall } from "./mcp-run-follow.js";
import { guard, type McpToolContext, type McpToolResult } from "./mcp-tool-table.js";
import { viewOfRun } from "./run-view.js";

/** The key of the one form a wave is asked with, in `inputRequests` and in the retry's `inputResponses`. */
const formKey = "planloop_decisions";

/** What a retried request carries back (signed): which run, and which wave of its pending items the form asked about. */
interface WaveState {
  runId: string;
  pendingIds: string[];
}

/** A process-wide key when the server has no secret: one process must then serve every round of a flow. */
const processKey = randomBytes(32).toString("base64url");

/**
 * The 2026-07-28 line's elicitation (`inputRequired`, stateless): a run tool or `decide` whose run
 * stops waiting for a person answers, when the client can show forms, with `input_required`
 * carrying one form for the whole wave (the form of `mcp-elicit.ts`, as over stdio) and a
 * signed `requestState` naming the run and the wave. The client retries the same call with the
 * person's answer; the retry decides the wave through `decideRun` and follows the run to its next
 * stop — which may ask again. A retry whose wave is no longer pending (decided by an earlier
 * retry of the same request, or elsewhere) decides nothing and reads the run as it is.
 */
export class InputRequiredFlow {
  private readonly codec: McpServerV2.RequestStateCodec<WaveState>;

  constructor(
    private readonly sdk: typeof McpServerV2,
    private readonly context: McpToolContext,
    /** The server's secret, where it has one: states then verify on any of its processes. */
    secret?: string | undefined,
  ) {
    const key = secret === undefined ? processKey : createHash("sha256").update(`planloop mcp requestState\0${secret}`).digest();
    // Bound to the caller: a state minted for one token is refused when another echoes it.
    this.codec = sdk.createRequestStateCodec<WaveState>({ key, bind: () => context.client, ttlSeconds: 24 * 3600 });
  }

  /** The hook the SDK runs on every echoed `requestState` before the handler: a forged or stale one is `-32602`. */
  verify = (state: string, serverContext: McpServerV2.ServerContext) => this.codec.verify(state, serverContext);

  /** A tool's call on this line: a retry carrying an answer continues its run; an answer that waits asks the person. */
  async answer(
    call: (call: McpCall) => Promise<McpToolResult>,
    serverContext: McpServerV2.ServerContext,
    mcpCall: McpCall,
  ): Promise<McpToolResult | McpServerV2.InputRequiredResult> {
    const state = serverContext.mcpReq.requestState<WaveState>();
    const result = state === undefined ? await call(mcpCall) : await this.continueWave(state, serverContext, mcpCall);
    return this.askIfWaiting(result, serverContext);
  }

  private async continueWave(state: WaveState, serverContext: McpServerV2.ServerContext, call: McpCall): Promise<McpToolResult> {
    const { store, host } = this.context;
    const view = await viewOfRun(store, state.runId);
    const wave = (view?.pending ?? []).filter((item) => state.pendingIds.includes(item.id));
    // Decided already (this retry came twice, or someone used decide): nothing is decided again.
    if (view === undefined || wave.length !== state.pendingIds.length) return runAnswer(view, state.runId);
    const answer = serverContext.mcpReq.inputResponses?.[formKey] as FormAnswer | undefined;
    const decisions = answer === undefined ? [] : decisionsOf(wave, answer);
    if (decisions.length === 0) return runAnswer(view, state.runId);
    return guard(() =>
      followRun(this.context, state.runId, call, () => host.decide(state.runId, { decisions, by: `${this.context.client} (elicitation)` })),
    ).then(async (result) =>
      // A concurrent retry of the same wave won the lease and decided it: read the run, do not report its refusal.
      result.isError && (await this.wasDecided(state)) ? runAnswer(await viewOfRun(store, state.runId), state.runId) : result,
    );
  }

  private async wasDecided(state: WaveState): Promise<boolean> {
    const view = await viewOfRun(this.context.store, state.runId);
    return !state.pendingIds.every((id) => view?.pending.some((item) => item.id === id));
  }

  /** A run that waits for a person, asked through the client's form when it declared it can show one. */
  private async askIfWaiting(result: McpToolResult, serverContext: McpServerV2.ServerContext) {
    const structured = result.structuredContent as { runId?: string; status?: string; pending?: PendingItem[] } | undefined;
    const pending = structured?.pending ?? [];
    if (structured?.status !== "waiting" || structured.runId === undefined || pending.length === 0) return result;
    if (!canShowForms(serverContext, this.sdk.CLIENT_CAPABILITIES_META_KEY)) return result;
    const form = decisionForm(structured.runId, pending);
    return this.sdk.inputRequired({
      inputRequests: {
        [formKey]: this.sdk.inputRequired.elicit({ mode: "form", message: form.message, requestedSchema: form.requestedSchema }),
      },
      requestState: await this.codec.mint({ runId: structured.runId, pendingIds: pending.map((item) => item.id) }, serverContext),
    });
  }
}

/** Whether this request's client capabilities (its 2026-07-28 envelope) include form elicitation. */
function canShowForms(serverContext: McpServerV2.ServerContext, capabilitiesKey: string): boolean {
  const envelope = serverContext.mcpReq.envelope as Record<string, unknown> | undefined;
  const elicitation = (envelope?.[capabilitiesKey] as { elicitation?: { form?: unknown } } | undefined)?.elicitation;
  // An empty elicitation capability means forms (the spec's default).
  return elicitation !== undefined && (elicitation.form !== undefined || Object.keys(elicitation).length === 0);
}
