import { describe, expect, it } from "vitest";
import { z } from "zod";
import { askUser, defineTool } from "./define-tool.js";

const input = z.object({ order_id: z.string(), limit: z.number().default(10) });

describe("defineTool", () => {
  it("exposes the input's JSON Schema for the model", () => {
    const tool = defineTool({ name: "get_order", description: "Look up an order", input, execute: () => "ok" });
    expect(tool.inputSchema).toMatchObject({ type: "object", required: ["order_id"] });
    expect(Object.isFrozen(tool)).toBe(true);
  });

  it.each([
    [{ name: "has space" }, /name must be/],
    [{ description: "  " }, /description/],
    [{ input: { parse: () => 1 } }, /input must be a zod 4 or zod 3 schema, a Standard Schema .* or a JSON Schema object/],
    [{ execute: undefined }, /execute must be a function/],
    [{ timeoutMs: 0 }, /timeoutMs must be a positive number/],
    [{ maxCalls: 1.5 }, /maxCalls must be a positive integer/],
    [{ needsApproval: "yes" }, /needsApproval/],
  ])("throws a TypeError for %o", (override, message) => {
    const options = { name: "t", description: "d", input, execute: () => 1, ...override };
    expect(() => defineTool(options as never)).toThrow(TypeError);
    expect(() => defineTool(options as never)).toThrow(message);
  });

  it("askUser is a tool that pauses for input and needs no execute", () => {
    const tool = askUser();
    expect(tool.name).toBe("ask_user");
    expect(tool.needsInput).toBe(true);
    expect(tool.inputSchema).toMatchObject({ required: ["question"] });
  });
});
