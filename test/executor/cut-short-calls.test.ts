// A side-effecting call cut short where nobody saw its end (a step runner says so: its job was
// lost, its worker stalled) is not run again unasked: the step waits, `interrupted`, under a
// new id; approved, it runs once more; denied, the step fails. An idempotent call cut short is
// retried as any failure is.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, executePlan, memoryStore, type StepRunner } from "planloop";

/** A runner whose first job of each call is cut short; later ones answer. */
function cuttingRunner() {
  const jobs: string[] = [];
  const runner: StepRunner = {
    runTool: async (job) => {
      jobs.push(job.call.name);
      if (jobs.filter((name) => name === job.call.name).length > 1) return { content: `${job.call.name} done` };
      return { content: "its job was lost", error: { kind: "execution_failed", message: "its job was lost", cutShort: true } };
    },
    runAgent: () => Promise.reject(new Error("no agent steps here")),
  };
  return { jobs, runner };
}

const tool = (name: string, effect: "side-effecting" | "idempotent") =>
  defineTool({ name, description: name, input: z.object({}), effect, execute: () => `${name} ran here` });
const tools = [tool("wire", "side-effecting"), tool("lookup", "idempotent")];

describe("a call cut short", () => {
  it("side-effecting: the step asks what became of it; approved it runs once more, denied the step fails", async () => {
    const store = memoryStore();
    const { jobs, runner } = cuttingRunner();
    const plan = { steps: [{ id: "w", task: "wire", tool: "wire", args: {} }] };
    const first = await executePlan({ plan, tools, runner, store, runId: "cut-1" });
    expect(first.status).toBe("waiting");
    expect(first.pending).toMatchObject([{ id: "step:w#2", kind: "interrupted", name: "wire" }]);
    expect(jobs).toEqual(["wire"]);
    const approved = await executePlan({ plan, tools, runner, store, runId: "cut-1", approvals: { "step:w#2": { approved: true } } });
    expect(approved.status).toBe("completed");
    expect(approved.steps.w!.output).toBe("wire done");
    expect(jobs).toEqual(["wire", "wire"]);

    const other = cuttingRunner();
    await executePlan({ plan, tools, runner: other.runner, store, runId: "cut-2" });
    const denied = await executePlan({
      plan,
      tools,
      runner: other.runner,
      store,
      runId: "cut-2",
      approvals: { "step:w#2": { approved: false, reason: "it went through" } },
    });
    expect(denied.steps.w!.status).toBe("failed");
    expect(other.jobs).toEqual(["wire"]);
  });

  it("idempotent: retried as any failure", async () => {
    const { jobs, runner } = cuttingRunner();
    const plan = { steps: [{ id: "l", task: "look up", tool: "lookup", args: {} }] };
    const result = await executePlan({ plan, tools, runner, retry: { maxAttempts: 2, initialDelayMs: 0 } });
    expect(result.status).toBe("completed");
    expect(jobs).toEqual(["lookup", "lookup"]);
  });
});
