import type { Message } from "../../core/messages.js";
import type { ToolSpec } from "../../core/model.js";
import { toolSignature } from "./tool-signatures.js";

/** What the model is told a program is, and what it may not do. */
const rules = [
  "You do the task by writing one short JavaScript program that calls the tools below.",
  "The program is the body of an async function:",
  "- call a tool with `await tools.name({ ...args })`; run calls that do not depend on each other together with `await Promise.all([...])`;",
  "- use loops, branches and variables as you need; decide what to call next from what earlier calls returned;",
  "- a failed call throws an Error whose message says why: catch it where the task can go on without that result;",
  "- `return` the data the answer needs (any JSON value, short: the answer is written from it, not from each call's output);",
  "- `console.log` is kept for you if the program fails.",
  "There is no network, file system, timer, `require` or `import`; `Date` and `Math.random` are fixed. Compute only a little between calls.",
  "Reply with the program only, in one ```js code block.",
].join("\n");

/** The first request: the rules, the task, and every tool as a typed async function. */
export function programPrompt(input: { task: string; tools: readonly ToolSpec[] }): Message[] {
  const signatures = input.tools.map(toolSignature).join("\n\n");
  return [
    { role: "system", content: rules },
    { role: "user", content: `Task: ${input.task}\n\nTools:\n\`\`\`ts\n${signatures}\n\`\`\`` },
  ];
}

/**
 * A repair round: the program that failed, and what went wrong, for the model to read. Calls
 * that succeeded are kept: the same call made again (same tool, same arguments, the same n-th
 * time) returns its kept result without running.
 */
export function repairMessages(input: { source: string; failure: string }): Message[] {
  return [
    { role: "assistant", content: `\`\`\`js\n${input.source}\n\`\`\`` },
    {
      role: "user",
      content:
        `The program failed: ${input.failure}\n\n` +
        "Write the whole program again, fixed. Calls that succeeded are kept: making the same call again returns its result without running it twice.",
    },
  ];
}

/** The program in a model's reply: the first fenced code block, or the whole reply if it has none. */
export function readProgram(text: string): string {
  const fenced = /```[ \t]*(?:js|javascript|ts|typescript)?[ \t]*\r?\n([\s\S]*?)```/i.exec(text);
  return (fenced ? fenced[1]! : text).trim();
}
