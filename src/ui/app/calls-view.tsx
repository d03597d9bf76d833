import type { Message, ModelCall } from "./api.js";
import { count, cost, duration, shown } from "./format.js";

/** Every model call of a run (and the runs it keeps inside it), each opened up on a click. */
export function ModelCalls({ calls }: { calls: ModelCall[] }) {
  if (calls.length === 0) {
    return <p class="quiet">No model calls kept: the run made none, or it was run with keepModelCalls: false.</p>;
  }
  return (
    <ol class="calls">
      {calls.map((call, index) => (
        <CallCard call={call} index={index} />
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

function CallCard({ call, index }: { call: ModelCall; index: number }) {
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
            #{index + 1} · step {call.step} · {call.model ?? "model"} · {duration(call.durationMs)} · {count(tokens || undefined)} tokens
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
          </div>
        </div>
      </details>
    </li>
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
