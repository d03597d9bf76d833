import { readFileSync } from "node:fs";

/** Bad input on the command line: printed as one line, exit code 2, never a stack trace. */
export class CliError extends Error {
  /** Lines printed under the one-line message as they are (a code frame). */
  readonly detail: string | undefined;

  constructor(message: string, detail?: string) {
    super(message);
    this.name = "CliError";
    this.detail = detail;
  }
}

export function readJsonFile(path: string, what: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    throw new CliError(`cannot read ${what} ${path}: no such file (check the path)`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new CliError(`${what} ${path} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}
