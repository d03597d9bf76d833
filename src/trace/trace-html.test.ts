import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, executePlan, type PlanloopEvent } from "../index.js";
import { hostileEvents, payload } from "../../test/helpers/hostile-events.js";
import { renderTraceHtml } from "./trace-html.js";

describe("the trace page", () => {
  it("escapes every value of a crafted events file: no markup from it reaches the page", async () => {
    const html = renderTraceHtml(await hostileEvents(), { title: payload });
    expect(html).not.toContain("<img");
    // The page's own two scripts (its data, as JSON, and the viewer); none from the file.
    expect(html.match(/<script/g)).toHaveLength(2);
    expect(html).toContain('<script type="application/json" id="trace-data">');
    expect(html).toContain('<script id="planloop-viewer">');
    expect(html).not.toContain("</script><script>");
  });

  it("shows a code-mode program and its calls as text: a crafted program, tool name, step id and arguments make no markup", () => {
    const events = [
      { type: "plan-created", version: 1, steps: [], program: payload, seq: 1, time: 0 },
      { type: "step-start", stepId: payload, kind: "tool", attempt: 1, tool: payload, args: { [payload]: payload }, seq: 2, time: 1 },
      { type: "step-end", stepId: payload, status: "succeeded", attempts: 1, durationMs: 1, preview: payload, seq: 3, time: 2 },
    ] as PlanloopEvent[];
    const html = renderTraceHtml(events);
    expect(html).not.toContain("<img");
    expect(html.match(/<script/g)).toHaveLength(2);
    expect(html).toContain(`<h2>Program 1</h2><pre class="program" data-version="1">&lt;img src=x onerror=window.__pwned=1&gt;`);
    // The call is listed under its program with its tool and arguments, as text.
    expect(html.match(/<table class="program-calls">.*?<\/table>/)![0]).toContain("succeeded");
  });

  it("says why a run that did not complete ended", async () => {
    const broken = defineTool({
      name: "broken",
      description: "fails",
      input: z.object({}),
      execute: () => Promise.reject(new Error("connection refused")),
    });
    const events: PlanloopEvent[] = [];
    const result = await executePlan({
      plan: { steps: [{ id: 1, task: "a", tool: "broken", args: {} }] },
      tools: [broken],
      retry: { maxAttempts: 1 },
      onEvent: (event) => events.push(event),
    });
    expect(result.status).toBe("failed");
    expect(renderTraceHtml(events)).toMatch(/<th>reason<\/th><td>[^<]*connection refused/);
  });
});
