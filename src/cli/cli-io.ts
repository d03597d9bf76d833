/** Where the CLI writes, so tests can run it in-process. */
export interface CliIo {
  stdout: NodeJS.WriteStream;
  /** Progress goes here whenever stdout carries data (`--json`). */
  stderr: NodeJS.WriteStream;
  out(line: string): void;
  err(line: string): void;
  exitCode(code: number): void;
}
