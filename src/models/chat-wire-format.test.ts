import { describe, expect, it } from "vitest";
import { ChatStreamAssembler } from "./chat-stream.js";
import { decisionFromChoice } from "./chat-wire-format.js";

describe("reading a server's answer", () => {
  it("turns malformed tool calls into calls without a name instead of throwing", () => {
    const decision = decisionFromChoice({
      content: null,
      tool_calls: [null, { id: 7, function: { name: "search", arguments: '{"q": "x"}' } }, "junk"],
    });
    expect(decision).toEqual({
      type: "tool_calls",
      calls: [
        { id: "call_0", name: "", arguments: {} },
        { id: 7, name: "search", arguments: { q: "x" } },
        { id: "call_2", name: "", arguments: {} },
      ],
    });
  });

  it("reads content given as a list of text parts, and tool_calls that is not a list as none", () => {
    expect(
      decisionFromChoice({
        content: [
          { type: "text", text: "Paris " },
          { type: "text", text: "it is" },
        ],
        tool_calls: "none",
      }),
    ).toEqual({ type: "final", content: "Paris it is" });
    expect(decisionFromChoice(undefined)).toEqual({ type: "final", content: "" });
  });

  it("assembles a stream while passing over chunks of the wrong kind", () => {
    const assembler = new ChatStreamAssembler();
    const chunks: unknown[] = [
      null,
      { choices: "x" },
      { choices: [{ delta: { content: "Let me look. " } }] },
      { choices: [{ delta: { tool_calls: [null, { index: 0, id: "c1", function: { name: "sea" } }] } }] },
      { choices: [{ delta: { tool_calls: [{ index: 0, function: { name: "rch", arguments: '{"q":' } }] } }] },
      { choices: [{ delta: { content: { not: "text" }, tool_calls: [{ index: 0, function: { arguments: ' "x"}' } }] } }] },
    ];
    for (const chunk of chunks) assembler.add(chunk as never);
    expect(assembler.decision()).toEqual({
      type: "tool_calls",
      calls: [{ id: "c1", name: "search", arguments: { q: "x" } }],
      content: "Let me look. ",
    });
  });
});
