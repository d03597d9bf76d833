// `planloop ui` in a process of its own (from the source, through tsx), as a person starts it:
// the URL it prints, what it wrote to stderr (what the runs it continued printed), and a stop.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";

const root = join(import.meta.dirname, "..", "..");

export interface UiProcess {
  url: string;
  /** The URL without its token, ending in "/". */
  base: string;
  token: string;
  stdout: string[];
  stderr: string[];
  stop(): void;
}

export async function startUiProcess(args: string[], env: Record<string, string> = {}): Promise<UiProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", join(root, "src", "cli", "main.ts"), "ui", "--port", "0", ...args], {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...env },
  });
  const stdout: string[] = [];
  const stderr: string[] = [];
  child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk.toString()));
  const lines = createInterface({ input: child.stdout });
  const url = await new Promise<string>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`planloop ui exited with ${code}: ${stderr.join("")}`)));
    lines.on("line", (line) => {
      stdout.push(line);
      if (line.startsWith("planloop ui: ")) resolve(line.slice("planloop ui: ".length));
    });
  });
  return {
    url,
    base: url.slice(0, url.indexOf("?")),
    token: url.slice(url.indexOf("token=") + 6),
    stdout,
    stderr,
    stop: () => child.kill("SIGINT"),
  };
}
