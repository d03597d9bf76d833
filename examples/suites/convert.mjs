// Writes the two example suites from the public benchmark data in ../shared/data (run from
// the repository's root: node examples/suites/convert.mjs). Each suite gets tasks.jsonl (the
// task, its gold plan, the tools it may use) and tools.json (the function schemas, as plain
// JSON Schema). Nothing of the benchmarks' code is kept.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const shared = process.env.PLANLOOP_SHARED_DIR ?? join(here, "..", "..", "..", "shared");
const lines = (path) =>
  readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line));

/** BFCL's types as JSON Schema's: dict → object, float → number, tuple → array, any → no type. */
function jsonSchema(schema) {
  if (Array.isArray(schema)) return schema.map(jsonSchema);
  if (typeof schema !== "object" || schema === null) return schema;
  const dialect = { dict: "object", float: "number", tuple: "array", any: undefined };
  const copy = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "type" && typeof value === "string") {
      const type = value in dialect ? dialect[value] : value;
      if (type !== undefined) copy.type = type;
    } else if (key === "properties")
      copy.properties = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, jsonSchema(sub)]));
    else if (key === "items" || key === "additionalProperties") copy[key] = jsonSchema(value);
    else copy[key] = value;
  }
  return copy;
}

/** Tool names as planloop takes them; the same name with another schema gets a suffix. */
function registry() {
  const tools = new Map();
  return {
    add(name, description, parameters) {
      const base = name.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 60);
      for (let n = 1; ; n += 1) {
        const candidate = n === 1 ? base : `${base}_${n}`;
        const known = tools.get(candidate);
        if (known === undefined) {
          tools.set(candidate, { name: candidate, description: description || name, parameters: { ...parameters, type: "object" } });
          return candidate;
        }
        if (JSON.stringify(known.parameters) === JSON.stringify({ ...parameters, type: "object" })) return candidate;
      }
    },
    list: () => [...tools.values()],
  };
}

/** A gold answer's parameters as a model would send them: the first acceptable value; "may be omitted" left out unless required. */
function chosen(params, required = []) {
  const args = {};
  for (const [name, acceptable] of Object.entries(params)) {
    if (!Array.isArray(acceptable)) continue;
    if (acceptable.includes("") && !required.includes(name)) continue;
    const first = acceptable.find((value) => value !== "");
    if (first !== undefined) args[name] = concrete(first);
  }
  return args;
}
const concrete = (value) =>
  Array.isArray(value) ? value.map(concrete) : typeof value === "object" && value !== null ? chosen(value) : value;

function bfcl() {
  const dir = join(shared, "data", "bfcl");
  const tools = registry();
  const tasks = [];
  for (const file of ["BFCL_v4_parallel.json", "BFCL_v4_parallel_multiple.json"]) {
    const answers = new Map(lines(join(dir, "possible_answer", file)).map((answer) => [answer.id, answer]));
    for (const question of lines(join(dir, file))) {
      const answer = answers.get(question.id);
      if (answer === undefined) continue;
      const names = new Map();
      for (const fn of question.function)
        names.set(fn.name, { name: tools.add(fn.name, fn.description, jsonSchema(fn.parameters)), required: fn.parameters.required ?? [] });
      const steps = answer.ground_truth.map((entry, index) => {
        const [name, params] = Object.entries(entry)[0];
        const tool = names.get(name);
        return { id: index + 1, task: name, tool: tool.name, args: chosen(params, tool.required), depends_on: [] };
      });
      const text = question.question
        .flat()
        .filter((message) => message.role === "user")
        .map((message) => message.content)
        .join("\n");
      tasks.push({
        id: question.id,
        task: text,
        plan: { steps },
        tools: [...new Set([...names.values()].map((tool) => tool.name))],
        expected: { scorer: "callsMatch" },
        tags: [file.replace(/^BFCL_v4_|\.json$/g, "")],
      });
    }
  }
  return { tasks, tools: tools.list() };
}

function tauRetail() {
  const dir = join(shared, "data", "tau-bench");
  const tools = registry();
  for (const spec of JSON.parse(readFileSync(join(dir, "retail-tools.json"), "utf8")))
    tools.add(spec.function.name, spec.function.description, spec.function.parameters);
  const tasks = JSON.parse(readFileSync(join(dir, "retail-tasks_test.json"), "utf8")).map((task, index) => ({
    id: `retail-${index}`,
    task: task.instruction,
    // The gold actions in order: each after the one before, as the environment ran them.
    plan: {
      steps: task.actions.map((action, step) => ({
        id: step + 1,
        task: action.name,
        tool: action.name,
        args: action.kwargs,
        depends_on: step === 0 ? [] : [step],
      })),
    },
    ...(task.outputs?.length ? { expected: { contains: task.outputs } } : { expected: { scorer: "callsMatch" } }),
    tags: ["retail", "test"],
  }));
  return { tasks, tools: tools.list() };
}

for (const [name, make] of [
  ["bfcl", bfcl],
  ["tau-retail", tauRetail],
]) {
  const { tasks, tools } = make();
  const out = join(here, name);
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, "tasks.jsonl"), `${tasks.map((task) => JSON.stringify(task)).join("\n")}\n`);
  writeFileSync(join(out, "tools.json"), `${JSON.stringify(tools, null, 1)}\n`);
  console.log(`${name}: ${tasks.length} tasks, ${tools.length} tools`);
}
