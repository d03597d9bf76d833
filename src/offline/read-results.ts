import { textKeyed } from "../core/records.js";
/**
 * The step outputs shown in a solve, join or replan prompt (the default prompts' "Step <id>
 * (...) — <status>" blocks), by step id. Outputs that are JSON come back as values.
 */
export function readResults(prompt: string): { outputs: Record<string, unknown>; failed: string[] } {
  const outputs = textKeyed<unknown>();
  const failed: string[] = [];
  const blocks = prompt.split(/\n(?=Step \S+ (?:\[[^\]\n]+\] )?\()/);
  for (const block of blocks) {
    const head = /^(?:[\s\S]*?\n)?Step (\S+) (?:\[[^\]\n]+\] )?\([^\n]*\) — (\w+)(?::[^\n]*)?(?:\n([\s\S]*))?$/.exec(block);
    if (!head) continue;
    const [, id, status, body] = head;
    if (status !== "succeeded") {
      failed.push(id!);
      continue;
    }
    const text = (body ?? "").split("\n\n")[0]!.trim();
    try {
      outputs[id!] = JSON.parse(text);
    } catch {
      outputs[id!] = text;
    }
  }
  return { outputs, failed };
}
