import { useState } from "preact/hooks";
import { LeftAloneMark } from "./left-alone-mark.js";
import { LimitWaitMark } from "./limit-wait-mark.js";
import { useApi, type RunPage, type RunRow } from "./api.js";
import { cost, count, duration, when } from "./format.js";
import { RunIdLink } from "./run-id-link.js";

const statuses = [
  "",
  "running",
  "waiting",
  "completed",
  "failed",
  "cancelled",
  "budget_exceeded",
  "max_steps_exceeded",
  "deadline_exceeded",
];

/** The runs, newest first, the waiting ones on top; it updates itself as runs start, move and end. */
export function RunsView() {
  const [status, setStatus] = useState("");
  const [taskType, setTaskType] = useState("");
  const [picked, setPicked] = useState<string[]>([]);
  const query = new URLSearchParams({ ...(status ? { status } : {}), ...(taskType ? { taskType } : {}), limit: "100" });
  const { data, error } = useApi<RunPage>(`/api/runs?${query}`, () => true);
  const toggle = (runId: string) => setPicked((now) => (now.includes(runId) ? now.filter((id) => id !== runId) : [...now, runId]));
  return (
    <section>
      <div class="toolbar">
        <h1>Runs</h1>
        <label>
          status{" "}
          <select value={status} onChange={(event) => setStatus((event.target as HTMLSelectElement).value)} name="status">
            {statuses.map((each) => (
              <option value={each}>{each || "any"}</option>
            ))}
          </select>
        </label>
        <label>
          task type{" "}
          <input
            name="taskType"
            value={taskType}
            placeholder="any"
            onChange={(event) => setTaskType((event.target as HTMLInputElement).value.trim())}
          />
        </label>
        <a
          class={`button ${picked.length < 2 ? "disabled" : ""}`}
          href={picked.length < 2 ? undefined : `#/compare/${picked.map(encodeURIComponent).join(",")}`}
        >
          Compare {picked.length > 0 ? picked.length : ""}
        </a>
      </div>
      {error && <p class="problem">{error}</p>}
      {data === undefined ? (
        <p class="quiet">loading…</p>
      ) : (
        <table class="runs">
          <thead>
            <tr>
              <th />
              <th>run</th>
              <th>entry</th>
              <th>task</th>
              <th>status</th>
              <th class="num">steps</th>
              <th class="num">model calls</th>
              <th class="num">tokens</th>
              <th class="num">cost</th>
              <th>started</th>
              <th class="num">duration</th>
            </tr>
          </thead>
          <tbody>
            {[...data.waiting, ...data.runs].map((row) => (
              <Row row={row} picked={picked.includes(row.runId)} toggle={toggle} />
            ))}
          </tbody>
        </table>
      )}
      {data !== undefined && data.waiting.length + data.runs.length === 0 && (
        <p class="quiet">
          No runs in this store{status || taskType ? " with these filters" : ""} yet. Runs started with a store (the planloop command keeps
          them by default) appear here as they start.
        </p>
      )}
    </section>
  );
}

function Row({ row, picked, toggle }: { row: RunRow; picked: boolean; toggle: (runId: string) => void }) {
  return (
    <tr class={`status-${row.status}`} data-run={row.runId}>
      <td>
        <input type="checkbox" checked={picked} onChange={() => toggle(row.runId)} aria-label={`pick ${row.runId} to compare`} />
      </td>
      <td>
        <RunIdLink runId={row.runId} />
      </td>
      <td>{row.entry}</td>
      <td class="task">{row.task}</td>
      <td>
        <span class={`badge ${row.status}`}>{row.status}</span> <LimitWaitMark row={row} /> <LeftAloneMark row={row} />
        {row.unsupportedClaims === undefined ? null : (
          <span class="badge unsupported" title="claims the run's steps do not support (docs/grounded-reports.md)">
            {row.unsupportedClaims} unsupported
          </span>
        )}
      </td>
      <td class="num">{row.steps}</td>
      <td class="num">{count(row.modelCalls)}</td>
      <td class="num">{count(row.tokens)}</td>
      <td class="num">{cost(row.costUsd)}</td>
      <td>{when(row.createdAt)}</td>
      <td class="num">{row.status === "running" ? "…" : duration(row.durationMs)}</td>
    </tr>
  );
}
