import type { Message, ModelCall, RunDetail } from "./api.js";
import { count, cost, duration, shown } from "./format.js";
import { PlanTable } from "./plan-table.js";

type Version = RunDetail["trace"]["versions"][number];

/**
 * The plan a plan or replan call led to: the first version made after the call ended and
 * before the next plan call started (a call whose plan could not run led to none: a repair
 * round follows it).
 */
function planOf(calls: ModelCall[], index: number, versions: readonly Version[], startedAt: number): Version | undefined {
  const call = calls[index]!;
  if (call.purpose !== "plan" && call.purpose !== "replan") return undefined;
  const next = calls.slice(index + 1).find((each) => each.purpose === "plan" || each.purpose === "replan");
  const ended = call.at + call.durationMs - startedAt;
  const until = next === undefined ? Infinity : next.at - startedAt;
  return versions.find((version) => version.at >= ended && version.at <= until);
}

/** Every model call of a run (and the runs it keeps inside it), each opened up on a click. */
export function ModelCalls({ calls, detail }: { calls: ModelCall[]; detail: RunDetail }) {
  // The plans the run ran, and the one waiting for review (it runs once approved).
  const versions: Version[] = [
    ...detail.trace.versions,
    ...detail.pending.flatMap((item) =>
      item.kind === "plan" && item.plan && item.version !== undefined
        ? [
            {
              version: item.version,
              at: Number.MAX_SAFE_INTEGER,
              steps: item.plan.steps.map((step) => ({ ...step, id: String(step.id), depends_on: (step.depends_on ?? []).map(String) })),
            },
          ]
        : [],
    ),
  ];
  if (calls.length === 0) {
    return <p class="quiet">No model calls kept: the run made none, or it was run with keepModelCalls: false.</p>;
  }
  return (
    <ol class="calls">
      {calls.map((call, index) => (
        <CallCard call={call} index={index} plan={planOf(calls, index, versions, detail.trace.startedAt)} tier={tierOf(call, versions)} />
      ))}
    </ol>
  );
}

/** A plan call that answers the planner's complaint about the plan before it: a repair round, with that complaint. */
function repairOf(call: ModelCall): string | undefined {
  const last = call.messages.at(-1);
  if ((call.purpose !== "plan" && call.purpose !== "replan") || last?.role !== "user") return undefined;
  return last.content?.startsWith("That plan cannot run") ? last.content : undefined;
}

/** The model tier an agent step's loop ran on (the step's `model` in its plan), for its calls. */
function tierOf(call: ModelCall, versions: readonly Version[]): string | undefined {
  const inStep = /\/plan:(\d+)\/([^/]+)$/.exec(call.runId);
  if (inStep === null) return undefined;
  const version = versions.find((each) => each.version === Number(inStep[1]));
  return version?.steps.find((step) => step.id === inStep[2])?.model;
}

function CallCard({ call, index, plan, tier }: { call: ModelCall; index: number; plan: Version | undefined; tier: string | undefined }) {
  const repair = repairOf(call);
  const tokens = (call.usage?.inputTokens ?? 0) + (call.usage?.outputTokens ?? 0);
  const where = call.runId.includes("/") ? call.runId.slice(call.runId.indexOf("/") + 1) : "";
  return (
    <li class={`call ${call.error ? "failed" : ""}`} data-call={call.id}>
      <details>
        <summary>
          <span class="purpose">{call.purpose}</span>
          {repair && <span class="badge failed">repair</span>}
          {where && <span class="quiet"> in {where}</span>}
          <span class="quiet">
            {" "}
            #{index + 1} · step {call.step} · {call.model ?? "model"}
            {tier ? ` (tier ${tier})` : ""} · {duration(call.durationMs)} · {count(tokens || undefined)} tokens
            {call.usage?.costUsd ? ` · ${cost(call.usage.costUsd)}` : ""}
          </span>
          {call.error && <span class="problem"> {call.error}</span>}
        </summary>
        <div class="call-body">
          <div class="sent">
            <h3>Sent {call.incomplete && <span class="quiet">(the start of this conversation is not in the store)</span>}</h3>
            {call.responseFormat && <p class="quiet">response format: {call.responseFormat}</p>}
            {call.tools && <p class="quiet">tools offered: {call.tools.join(", ")}</p>}
            {call.messages.map((message) => (
              <MessageView message={message} />
            ))}
          </div>
          <div class="answer">
            <h3>Answer</h3>
            {repair && (
              <p class="problem" title="the error the planner was shown">
                {repair.split("\n").slice(1, 4).join(" ")}
              </p>
            )}
            {call.answer?.reasoning && (
              <div class="reasoning">
                <h4>reasoning</h4>
                <pre>{call.answer.reasoning}</pre>
              </div>
            )}
            {call.answer?.text !== undefined && <pre class="answer-text">{call.answer.text}</pre>}
            {call.answer?.toolCalls?.map((each) => (
              <div class="tool-call">
                <code>{each.name}</code>
                <pre>{shown(each.arguments ?? {})}</pre>
              </div>
            ))}
            {call.error && <pre class="problem">{call.error}</pre>}
            {plan && <ParsedPlan version={plan} />}
          </div>
        </div>
      </details>
    </li>
  );
}

/** The plan as planloop read it from the answer beside it. */
function ParsedPlan({ version }: { version: Version }) {
  return (
    <div class="parsed-plan">
      <h4>read as plan v{version.version}</h4>
      <PlanTable steps={version.steps} />
    </div>
  );
}

function MessageView({ message }: { message: Message }) {
  return (
    <div class={`message ${message.role}`}>
      <span class="role">
        {message.role}
        {message.role === "tool" && message.name ? ` · ${message.name}` : ""}
      </span>
      {message.content !== undefined && message.content !== "" && <pre>{message.content}</pre>}
      {message.toolCalls?.map((each) => (
        <pre class="tool-call">
          {each.name}({shown(each.arguments ?? {})})
        </pre>
      ))}
    </div>
  );
}
