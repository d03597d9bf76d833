import { describe, expect, it } from "vitest";
import { forTerminal, terminalWriter } from "../../src/cli/terminal-text.js";

/** A stream that keeps what it is given, a terminal or not. */
function stream(isTTY: boolean): NodeJS.WriteStream & { written: string } {
  const kept = { written: "", isTTY, write: (text: string) => ((kept.written += text), true) };
  return kept as unknown as NodeJS.WriteStream & { written: string };
}

describe("text from runs on a terminal", () => {
  // A reason a store keeps, a task or a tool's error can carry escape sequences: a hostile one
  // clears the screen, rewrites the lines above or sets the window title.
  const hostile = "step failed\u001b[2J\u001b[1A\u001b]0;owned\u0007 done\u009b31m\r\u202eevil";

  it("shows every control character as a visible escape, keeping tab and newline", () => {
    const shown = forTerminal(hostile + "\tcolumn\nnext line");
    expect(shown).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e]/);
    expect(shown).toBe("step failed\\u{1b}[2J\\u{1b}[1A\\u{1b}]0;owned\\u{7} done\\u{9b}31m\\u{d}\\u{202e}evil\tcolumn\nnext line");
  });

  it("leaves ordinary text, accents and emoji as they are", () => {
    const text = "Umsatz: 1.234,50 € — ✓ step s1 done in 12 ms 🚀";
    expect(forTerminal(text)).toBe(text);
  });

  it("writes escapes made visible to a terminal, and the line as it was to a pipe or file", () => {
    const terminal = stream(true);
    const pipe = stream(false);
    terminalWriter(terminal)(hostile);
    terminalWriter(pipe)(hostile);
    expect(terminal.written).toBe(`${forTerminal(hostile)}\n`);
    expect(terminal.written).not.toContain("\u001b");
    expect(pipe.written).toBe(`${hostile}\n`);
  });
});
