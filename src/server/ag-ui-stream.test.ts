import { describe, expect, it } from "vitest";
import { verifyEvents } from "@ag-ui/client";
import { from, lastValueFrom, toArray } from "rxjs";
import type { StreamEvent } from "../client/api-types.js";
import { agUiFormat } from "./ag-ui-stream.js";

const plan = { type: "plan-created", run: "r/plan:1", version: 1, steps: [{ id: 1, task: "refund", tool: "refund", args: {} }] };

/** The AG-UI events a run's planloop events make, checked by AG-UI's own client. */
async function agUi(events: Array<Record<string, unknown>>): Promise<Array<Record<string, unknown> & { type: string }>> {
  const format = agUiFormat("r");
  const frames = [...format.opening(), ...events.flatMap((event) => format.frames({ id: "", run: "r", ...event } as StreamEvent))];
  const parsed = frames.map((frame) => JSON.parse(frame.data) as Record<string, unknown> & { type: string });
  await lastValueFrom(from(parsed as never[]).pipe(verifyEvents(), toArray()));
  return parsed;
}

describe("agUiFormat", () => {
  it("a strategy's wait that names nothing is still an interrupt (its waiting step), and a cancel after it ends the next span cancelled", async () => {
    const events = await agUi([
      plan,
      { type: "step-start", run: "r/plan:1", stepId: 1, attempt: 1 },
      { type: "step-end", run: "r/plan:1", stepId: 1, status: "waiting", attempts: 1 },
      { type: "run-paused", status: "waiting", pending: [] },
      { type: "run-end", status: "cancelled" },
    ]);
    const terminals = events.filter((event) => event.type === "RUN_FINISHED");
    expect(terminals.map((event) => (event.outcome as { type: string }).type)).toEqual(["interrupt", "cancelled"]);
    expect(terminals[0]!.outcome).toMatchObject({ interrupts: [{ id: "plan:1/1", reason: "waiting", toolCallId: "plan:1/1@1" }] });
  });

  it("a process that stopped does not end the span: the run goes on in it and ends once", async () => {
    const events = await agUi([
      plan,
      { type: "step-start", run: "r/plan:1", stepId: 1, attempt: 1 },
      { type: "run-paused", status: "process stopped" },
      { type: "run-resumed" },
      { type: "step-start", run: "r/plan:1", stepId: 1, attempt: 2 },
      { type: "step-end", run: "r/plan:1", stepId: 1, status: "succeeded", attempts: 2, preview: "ok" },
      { type: "run-end", status: "completed", output: "done" },
    ]);
    expect(events.filter((event) => event.type === "RUN_STARTED")).toHaveLength(1);
    expect(events.filter((event) => event.type === "RUN_FINISHED")).toHaveLength(1);
    expect(events.findIndex((event) => event.type === "STATE_SNAPSHOT")).toBeLessThan(
      events.findIndex((event) => event.type === "STATE_DELTA"),
    );
  });
});
