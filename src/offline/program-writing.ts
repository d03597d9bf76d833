import type { OfflineTask } from "./offline-task.js";

type Steps = OfflineTask["plan"];
type Step = Steps[number];

/** How the code-mode prompt begins (src/strategies/code-mode/code-prompts.ts): the request for a program. */
export const programRequest = "writing one short JavaScript program";

/** The step ids a step waits for: its `depends_on`, and the steps its arguments refer to (`$2`, `${2}`, `"$2.rows"`). */
function needs(step: Step, ids: ReadonlySet<string>): string[] {
  const referred = [...JSON.stringify(step.args ?? {}).matchAll(/\$\{?(\w+)\}?/g)].map((match) => match[1]!).filter((id) => ids.has(id));
  return [...new Set([...(step.depends_on ?? []).map(String), ...referred])];
}

/** The plan's tool steps in waves: each wave's steps need only earlier waves, and the program calls them together. */
function programWaves(steps: Steps): Step[][] {
  const tools = steps.filter((step) => step.tool !== undefined);
  const ids = new Set(tools.map((step) => String(step.id)));
  const done = new Set<string>();
  const waves: Step[][] = [];
  let left = tools;
  while (left.length > 0) {
    const ready = left.filter((step) => needs(step, ids).every((id) => done.has(id)));
    // A cycle (or a need of an agent step) cannot be ordered: the rest go one by one.
    const wave = ready.length > 0 ? ready : [left[0]!];
    waves.push(wave);
    for (const step of wave) done.add(String(step.id));
    left = left.filter((step) => !wave.includes(step));
  }
  return waves;
}

/** Fills `$2`, `${2}` and `"$2.rows[0].total"` from the results so far, at run time inside the program. */
const fillHelper = [
  "const results = {};",
  "const pathOf = (path) => path.split(/[.[\\]]/).filter(Boolean);",
  "const read = (id, path) => pathOf(path).reduce((value, key) => (value == null ? value : value[key]), results[id]);",
  "const fill = (value) => {",
  "  if (typeof value === 'string') {",
  "    const whole = /^\\$\\{?(\\w+)\\}?((?:\\.[\\w$]+|\\[\\d+\\])*)$/.exec(value);",
  "    if (whole && whole[1] in results) return read(whole[1], whole[2]);",
  "    return value.replace(/\\$\\{?(\\w+)\\}?((?:\\.[\\w$]+|\\[\\d+\\])*)/g, (text, id, path) => (id in results ? String(read(id, path)) : text));",
  "  }",
  "  if (Array.isArray(value)) return value.map(fill);",
  "  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, part]) => [key, fill(part)]));",
  "  return value;",
  "};",
];

/** The plan as a code-mode program: its tool steps wave by wave, each wave's calls together. */
export function writeProgram(steps: Steps): string {
  const lines = [...fillHelper];
  for (const wave of programWaves(steps)) {
    const calls = wave.map(
      (step) =>
        `(async () => { results[${JSON.stringify(String(step.id))}] = await tools[${JSON.stringify(step.tool)}](fill(${JSON.stringify(step.args ?? {})})); })()`,
    );
    lines.push(calls.length === 1 ? `await ${calls[0]};` : `await Promise.all([\n  ${calls.join(",\n  ")},\n]);`);
  }
  lines.push("return results;");
  return "```js\n" + lines.join("\n") + "\n```";
}

/**
 * The step outputs a code-mode solve prompt holds, by the plan's step ids: the program this
 * model writes returns them (`results`), and the solver is shown what it returned. Undefined
 * for any other prompt, or a result that is not the object the program returns.
 */
export function programOutputs(prompt: string, byStep: Record<string, unknown>): Record<string, unknown> | undefined {
  const id = /\nStep (\d+) \[s\d+\] \(the program's result\)/.exec(prompt)?.[1];
  const result = id === undefined ? undefined : byStep[id];
  return typeof result === "object" && result !== null && !Array.isArray(result) ? (result as Record<string, unknown>) : undefined;
}
