import { describe, expect, it } from "vitest";
import { hostileEvents, payload } from "../../test/helpers/hostile-events.js";
import { renderTraceHtml } from "./trace-html.js";

describe("the trace page", () => {
  it("escapes every value of a crafted events file: no markup from it reaches the page", async () => {
    const html = renderTraceHtml(await hostileEvents(), { title: payload });
    expect(html).not.toContain("<img");
    expect(html).not.toContain("<script");
  });
});
