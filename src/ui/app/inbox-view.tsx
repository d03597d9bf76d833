import { useState } from "preact/hooks";
import { api, ApiError, useApi, type Decision, type PendingItem } from "./api.js";
import { argumentFields, shown, when } from "./format.js";
import { RunIdLink } from "./run-id-link.js";
import { PlanTable } from "./plan-table.js";

/** Everything runs wait for a person on, across the store. */
export function InboxView() {
  const { data, error, reload } = useApi<{ items: PendingItem[]; canDecide: boolean }>("/api/inbox", () => true);
  return (
    <section>
      <h1>Inbox</h1>
      {error && <p class="problem">{error}</p>}
      {data === undefined ? (
        <p class="quiet">loading…</p>
      ) : data.items.length === 0 ? (
        <p class="quiet">Nothing waits for you: no run waits for an approval, an answer or a plan review.</p>
      ) : (
        <>
          {data.canDecide &&
            [...new Set(data.items.map((item) => item.runId))].map((runId) => (
              <WaveActions items={data.items.filter((item) => item.runId === runId)} done={reload} />
            ))}
          {data.items.map((item) => (
            <PendingCard item={item} canDecide={data.canDecide} done={reload} showRun />
          ))}
        </>
      )}
    </section>
  );
}

/**
 * Approve all / Deny all for a run waiting on several approvals at once (a wave): one request,
 * taken whole or not at all. Shown when a run waits on two or more.
 */
export function WaveActions({ items, done }: { items: readonly PendingItem[]; done(): void }) {
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const approvals = items.filter((item) => item.kind === "approval");
  if (approvals.length < 2) return null;
  const runId = approvals[0]!.runId;
  const decideAll = async (action: "approve" | "deny") => {
    try {
      const wave = approvals.map((item) => ({ pendingId: item.id, action }));
      await api(`/api/runs/${encodeURIComponent(runId)}/decisions`, wave);
      setProblem(undefined);
      done();
    } catch (error) {
      setProblem((error as Error).message);
    }
  };
  return (
    <div class="wave actions" data-wave={runId}>
      <span>
        <RunIdLink runId={runId} /> waits for {approvals.length} approvals:
      </span>
      <button class="approve" onClick={() => void decideAll("approve")}>
        Approve all ({approvals.length})
      </button>
      <button class="deny" onClick={() => void decideAll("deny")}>
        Deny all ({approvals.length})
      </button>
      {problem && (
        <p class="problem" role="alert">
          {problem}
        </p>
      )}
    </div>
  );
}

type Sent = { kind: "sent" } | { kind: "command"; command: string } | { kind: "refused"; message: string; problems: string[] };

/** One thing a run waits for, with the buttons that decide it. */
export function PendingCard({
  item,
  canDecide,
  done,
  showRun,
}: {
  item: PendingItem;
  canDecide: boolean;
  done(): void;
  showRun?: boolean;
}) {
  const [reason, setReason] = useState("");
  const [answer, setAnswer] = useState("");
  const [editing, setEditing] = useState<string | undefined>(undefined);
  const [sent, setSent] = useState<Sent | undefined>(undefined);
  // A distributive Omit: each kind of decision keeps its own fields.
  const decide = async (decision: Decision extends infer Each ? (Each extends Decision ? Omit<Each, "pendingId"> : never) : never) => {
    try {
      const body: Decision = { pendingId: item.id, ...decision } as Decision;
      const reply = await api<{ continued: boolean; command?: string }>(`/api/runs/${encodeURIComponent(item.runId)}/decisions`, body);
      setSent(reply.continued ? { kind: "sent" } : { kind: "command", command: reply.command ?? "" });
      if (reply.continued) done();
    } catch (error) {
      const problems =
        error instanceof ApiError
          ? (error.details.problems ?? []).map((each) => (typeof each === "string" ? each : (each.message ?? shown(each))))
          : [];
      setSent({ kind: "refused", message: (error as Error).message, problems });
    }
  };
  const isPlan = item.kind === "plan";
  return (
    <article class="pending" data-pending={item.id}>
      <header>
        <span class="badge waiting">{isPlan ? "plan review" : item.kind === "input" ? "question" : item.kind}</span> <code>{item.id}</code>
        {showRun && (
          <>
            {" "}
            in <RunIdLink runId={item.runId} />{" "}
            <span class="quiet">
              ({item.entry}) {item.task}
            </span>
          </>
        )}
      </header>
      {isPlan ? <PlanShown item={item} /> : <CallShown item={item} />}
      {sent?.kind === "sent" && <p class="note">Decision taken; the run goes on (this page follows it).</p>}
      {sent?.kind === "command" && (
        <p class="note">
          This ui was started without <code>--tools</code>, so it does not continue runs and nothing was recorded. Continue the run with:
          <pre>{sent.command}</pre>
        </p>
      )}
      {sent?.kind === "refused" && (
        <div class="problem" role="alert">
          {sent.message}
          {sent.problems.length > 0 && (
            <ul>
              {sent.problems.map((problem) => (
                <li>{problem}</li>
              ))}
            </ul>
          )}
        </div>
      )}
      {!canDecide && sent === undefined && (
        <p class="quiet">
          Deciding here continues the run only when planloop ui was started with --tools; otherwise the page shows the command.
        </p>
      )}
      {item.kind === "input" ? (
        <div class="actions">
          <input
            name="answer"
            value={answer}
            placeholder="your answer"
            onInput={(event) => setAnswer((event.target as HTMLInputElement).value)}
          />
          <button onClick={() => void decide({ action: "answer", text: answer })} disabled={answer === ""}>
            Answer
          </button>
        </div>
      ) : (
        <div class="actions">
          <button class="approve" onClick={() => void decide({ action: "approve" })}>
            Approve
          </button>
          <input
            name="reason"
            value={reason}
            placeholder="reason (the run sees it)"
            onInput={(event) => setReason((event.target as HTMLInputElement).value)}
          />
          <button class="deny" onClick={() => void decide({ action: "deny", ...(reason ? { reason } : {}) })}>
            {isPlan ? "Reject" : "Deny"}
          </button>
          {isPlan && editing === undefined && <button onClick={() => setEditing(JSON.stringify(item.plan, null, 2))}>Edit</button>}
        </div>
      )}
      {editing !== undefined && (
        <div class="edit">
          <textarea name="plan" rows={14} value={editing} onInput={(event) => setEditing((event.target as HTMLTextAreaElement).value)} />
          <button
            onClick={() => {
              let plan: unknown;
              try {
                plan = JSON.parse(editing);
              } catch (error) {
                setSent({ kind: "refused", message: `the plan is not JSON: ${(error as Error).message}`, problems: [] });
                return;
              }
              void decide({ action: "edit", plan });
            }}
          >
            Approve the edited plan
          </button>
        </div>
      )}
    </article>
  );
}

function CallShown({ item }: { item: PendingItem }) {
  return (
    <div>
      {item.question && <p>{item.question}</p>}
      {item.name && (
        <p>
          tool <code>{item.name}</code>
          {item.planVersion !== undefined && <span class="quiet"> · plan v{item.planVersion}</span>}
          {item.digest && <span class="quiet"> · digest {item.digest.slice(0, 12)}</span>}
          {item.expiresAt !== undefined && <span class="quiet"> · lapses {when(item.expiresAt)}</span>}
        </p>
      )}
      {item.arguments !== undefined && <ArgumentsShown args={item.arguments} />}
    </div>
  );
}

/** A call's arguments field by field, text with its line breaks (an e-mail's body reads as it will be sent). */
function ArgumentsShown({ args }: { args: unknown }) {
  const fields = argumentFields(args);
  if (fields === undefined) return <pre>{shown(args)}</pre>;
  return (
    <dl class="arguments">
      {fields.map(({ name, text }) => (
        <>
          <dt>{name}</dt>
          <dd>
            <pre>{text}</pre>
          </dd>
        </>
      ))}
    </dl>
  );
}

function PlanShown({ item }: { item: PendingItem }) {
  const changes = item.changes;
  const change = (id: string) =>
    changes === undefined
      ? ""
      : changes.added.includes(id)
        ? "new"
        : changes.changed.includes(id)
          ? "changed"
          : changes.kept.includes(id)
            ? "kept"
            : "";
  return (
    <div>
      <p>
        plan v{item.version}
        {item.reason && <span class="quiet"> · {item.reason}</span>}
        {changes && changes.dropped.length > 0 && <span class="quiet"> · dropped: {changes.dropped.join(", ")}</span>}
      </p>
      <PlanTable steps={item.plan?.steps ?? []} changeOf={change} />
    </div>
  );
}
