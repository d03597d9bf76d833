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
