// The house rules a reviewer should not have to remember (see ../shared/STYLE.md): small
// files, few positional parameters, and the arrows between folders that must never exist.
import tseslint from "typescript-eslint";

/** Every folder of src/, lowest first. */
const layers = [
  "core",
  "limits",
  "sandbox",
  "trust",
  "journal",
  "plan",
  "planner",
  "react",
  "executor",
  "replan",
  "grounding",
  "strategies",
  "waits",
  "runs",
  "models",
  "offline",
  "stores",
  "workers",
  "mcp",
  "telemetry",
  "trace",
  "testing",
];
const harness = ["cli", "demo", "evals", "ui", "server"];

/** A rule forbidding relative imports that climb into any of `folders`. */
function forbid(folders, why) {
  const pattern = `^(\\.\\./)+(${folders.join("|")})/`;
  return ["error", { patterns: [{ regex: pattern, message: why }] }];
}

/** What a folder must not import, and why. */
const arrows = {
  core: [layers.filter((folder) => folder !== "core"), "core imports nothing above it"],
  limits: [layers.filter((folder) => !["core", "limits"].includes(folder)), "limits (rate, cooldown, slots) stand on core alone"],
  sandbox: [
    [...layers.filter((folder) => !["core", "sandbox"].includes(folder)), ...harness],
    "sandbox/ runs an untrusted program with only the functions it is given: it stands on core alone",
  ],
  trust: [
    [...layers.filter((folder) => !["core", "trust"].includes(folder)), ...harness],
    "trust/ signs and seals: it stands on core alone",
  ],
  journal: [
    [...layers.filter((folder) => !["core", "trust", "journal"].includes(folder)), ...harness],
    "journal/ keeps durable runs: it stands on core and trust, and knows no plan, loop or strategy",
  ],
  plan: [
    [...layers.filter((folder) => !["core", "plan"].includes(folder)), ...harness],
    "plan/ is the plan language: it imports only core",
  ],
  planner: [
    [
      "react",
      "executor",
      "replan",
      "grounding",
      "strategies",
      "waits",
      "models",
      "offline",
      "stores",
      "workers",
      "trace",
      "testing",
      ...harness,
    ],
    "planner/ writes plans; it does not run them",
  ],
  react: [
    [
      "planner",
      "executor",
      "replan",
      "grounding",
      "strategies",
      "waits",
      "models",
      "offline",
      "stores",
      "workers",
      "trace",
      "testing",
      ...harness,
    ],
    "the ReAct loop stands on core, trust and journal alone",
  ],
  executor: [
    ["replan", "grounding", "strategies", "waits", "models", "offline", "stores", "workers", "trace", "testing", ...harness],
    "the executor runs plans; strategies and replanning sit above it",
  ],
  replan: [
    ["executor", "grounding", "strategies", "waits", "models", "offline", "stores", "workers", "trace", "testing", ...harness],
    "replan/ is pure policy over plans and step records",
  ],
  models: [
    [
      "plan",
      "planner",
      "react",
      "executor",
      "replan",
      "grounding",
      "strategies",
      "waits",
      "offline",
      "stores",
      "workers",
      "trace",
      "testing",
      ...harness,
    ],
    "models/ are adapters: they import no plan code",
  ],
  grounding: [
    [...layers.filter((folder) => !["core", "plan", "grounding"].includes(folder)), ...harness],
    "grounding/ checks an answer's claims against step outputs, with no model: it stands on core and plan alone",
  ],
  strategies: [
    ["waits", "models", "offline", "stores", "workers", "trace", "testing", ...harness],
    "strategies take models as options; they do not pick one",
  ],
  waits: [
    ["models", "offline", "stores", "workers", "trace", "testing", ...harness],
    "waits wake stored runs through the entry points; they pick no model adapter or store",
  ],
  runs: [[...harness, "client"], "run control is the library's: the faces (CLI, HTTP, MCP, ui) call it; it knows none of them"],
  offline: [[...harness], "nothing in the library imports the CLI, the demo or the comparison harness"],
  stores: [
    layers.filter((folder) => !["core", "trust", "journal"].includes(folder)),
    "a checkpoint store knows only the journal's CheckpointStore",
  ],
  workers: [
    ["planner", "replan", "grounding", "strategies", "waits", "models", "offline", "stores", "trace", "testing", ...harness],
    "workers run steps as the executor would; they know no strategy, store or model adapter",
  ],
  mcp: [layers.filter((folder) => folder !== "core"), "MCP tools are tools: they stand on core alone"],
  telemetry: [layers.filter((folder) => folder !== "core"), "spans are made from events: telemetry stands on core alone"],
  trace: [[...harness], "nothing in the library imports the CLI, the demo or the comparison harness"],
  testing: [[...harness], "nothing in the library imports the CLI, the demo or the comparison harness"],
  ui: [["cli", "demo", "evals"], "the web app's server is told what to do by the CLI; it does not import it"],
  server: [["cli", "demo", "evals", "ui"], "the run server is told what to do by the CLI; it does not import it"],
  client: [[...layers, ...harness], "planloop/client stands alone: it runs wherever fetch does"],
};

/** A rule's pattern and message for the arrows out of `folder` (see `forbid`). */
function forbidden(folder) {
  const [folders, why] = arrows[folder];
  return { regex: `^(\\.\\./)+(${folders.join("|")})/`, message: why };
}

/**
 * The step's room (src/executor/step/): a step's life knows the run's record it belongs to
 * and the calls it makes, not the scheduler that started it or the run around it (it is told
 * `done`), so the room can be read, and changed, on its own.
 */
const stepRoom = {
  files: ["src/executor/step/**/*.ts"],
  ignores: ["**/*.test.ts"],
  rules: {
    "no-restricted-imports": [
      "error",
      {
        patterns: [
          forbidden("executor"),
          {
            regex: "^\\.\\./(scheduler|readiness|ready-queue|learned-order|execute-plan|execute-plan-stream|finish-run|durable-run)\\.js$",
            message: "a step's life does not know the scheduler or the run around it: it gets the run's record and `done`",
          },
        ],
      },
    ],
  },
};

/**
 * The faces (the CLI, the HTTP API and MCP in server/, the ui) control runs through the room
 * of the library that does (src/runs/): what a person decides is checked and taken there, and
 * a run's lease is held there, so a guarantee proven once holds on every face.
 */
const decideInRoom = {
  regex: "/runs/decide-run\\.js$",
  importNames: ["decideRun"],
  message:
    "a face decides through src/runs: checkDecisions for a first answer, takeDecisions or RunHost.decide to take the decision under the run's lease",
};
const leaseInRoom = {
  regex: "/journal/run-lease\\.js$",
  importNames: ["RunLease"],
  message: "a face holds no run's lease: src/runs takes it (takeDecisions, RunHost, orphanedRuns)",
};
const continueInRoom = {
  regex: "/(executor/execute-plan|strategies/run-strategy|react/run-agent)\\.js$",
  importNames: ["executePlan", "runStrategy", "runAgent"],
  message:
    "the HTTP API, MCP and the ui continue runs through src/runs (RunHost) or the run's own command line, never by calling an entry point",
};
const faces = [
  { folders: ["src/cli"], patterns: [decideInRoom, leaseInRoom] },
  { folders: ["src/server", "src/ui"], patterns: [decideInRoom, leaseInRoom, continueInRoom] },
].map(({ folders, patterns }) => ({
  files: folders.map((folder) => `${folder}/**/*.ts`),
  ignores: ["**/*.test.ts"],
  rules: {
    "@typescript-eslint/no-restricted-imports": ["error", { patterns: patterns.map((each) => ({ ...each, allowTypeImports: true })) }],
  },
}));

export default tseslint.config(
  {
    ignores: [
      "dist/**",
      "scratch/**",
      "test/.snippets/**",
      "node_modules/**",
      "bench/suites/**",
      ".planloop/**",
      "coverage/**",
      ".ci-cache/**",
    ],
  },
  {
    files: ["**/*.ts", "**/*.mts", "**/*.tsx"],
    languageOptions: { parser: tseslint.parser, ecmaVersion: 2023, sourceType: "module" },
    plugins: { "@typescript-eslint": tseslint.plugin },
    rules: {
      "max-lines": ["error", { max: 400 }],
      "max-params": ["error", { max: 4 }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-var": "error",
      "prefer-const": "error",
      eqeqeq: ["error", "always", { null: "ignore" }],
    },
  },
  ...Object.entries(arrows).map(([folder, [forbidden, why]]) => ({
    files: [`src/${folder}/**/*.ts`],
    ignores: ["**/*.test.ts"],
    rules: { "no-restricted-imports": forbid(forbidden, why) },
  })),
  stepRoom,
  ...faces,
);
