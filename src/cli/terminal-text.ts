/**
 * Text from runs (a task, a tool's output, a model's answer, a reason kept in the store) is not
 * the CLI's own: written raw to a terminal, an escape sequence in it could move the cursor, rewrite
 * what was printed above, set the window's title or hide text. On a terminal, every control
 * character but tab and newline is shown as a visible `\u{..}` instead; piped or redirected
 * output is left as it was written, so a file gets the answer byte for byte.
 */
export function forTerminal(line: string): string {
  return line.replace(controlCharacters, (character) => `\\u{${character.codePointAt(0)!.toString(16)}}`);
}

/** C0 controls but tab and newline, DEL, C1 controls (0x9b opens a sequence as ESC [ does), and the bidirectional overrides that reorder what is shown. */
const controlCharacters = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** `write`, made safe for a terminal when the stream is one. */
export function terminalWriter(stream: NodeJS.WriteStream): (line: string) => void {
  return (line) => stream.write(`${stream.isTTY ? forTerminal(line) : line}\n`);
}
