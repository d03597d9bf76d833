// Options are declared once, in the room that owns them (core's RunSettings, the journal's
// DurableOptions, the executor's ExecutionSettings, the tools' HumanDecisions), and composed by
// the entry points. Checked two ways: by the types (tsc runs this file in npm test), and by
// reading the declarations: no entry point's options declare again a field a part they are
// made of declares (a copy drifts: runAgent's had eight).
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, expectTypeOf, it } from "vitest";
import type {
  AgentOptions,
  ExecutePlanOptions,
  ExecutionSettings,
  HumanDecisions,
  LlmCompilerOptions,
  PlanAndExecuteOptions,
  ReactOptions,
  RewooOptions,
  RunSettings,
  executePlan,
  planAndExecute,
  runAgent,
} from "planloop";
import type { AgentLoopOptions } from "../../src/react/agent-options.js";
import type { DurableOptions } from "../../src/journal/checkpoints.js";

describe("the options of the entry points", () => {
  it("are the parts composed: what each entry point accepts is its own options and the rooms' parts", () => {
    expectTypeOf<Parameters<typeof runAgent>[0]>().toEqualTypeOf<AgentOptions>();
    expectTypeOf<AgentOptions>().toExtend<AgentLoopOptions & RunSettings & HumanDecisions & DurableOptions>();
    expectTypeOf<AgentLoopOptions & RunSettings & HumanDecisions & DurableOptions>().toExtend<AgentOptions>();
    expectTypeOf<Parameters<typeof executePlan>[0]>().toEqualTypeOf<ExecutePlanOptions>();
    expectTypeOf<ExecutePlanOptions>().toExtend<ExecutionSettings & RunSettings & HumanDecisions & DurableOptions>();
    expectTypeOf<Parameters<typeof planAndExecute>[0]>().toEqualTypeOf<PlanAndExecuteOptions>();
    // The planning strategies' approvals may decide plans too (PlanDecision): wider than HumanDecisions' own.
    type Shared = ExecutionSettings & RunSettings & Omit<HumanDecisions, "approvals"> & DurableOptions;
    expectTypeOf<PlanAndExecuteOptions>().toExtend<Shared>();
    expectTypeOf<RewooOptions>().toExtend<Shared>();
    expectTypeOf<LlmCompilerOptions>().toExtend<Shared>();
    expectTypeOf<ReactOptions>().toExtend<RunSettings & HumanDecisions & DurableOptions>();
    // The parts share no field.
    expectTypeOf<keyof RunSettings & keyof DurableOptions>().toEqualTypeOf<never>();
    expectTypeOf<keyof RunSettings & keyof HumanDecisions>().toEqualTypeOf<never>();
    expectTypeOf<keyof RunSettings & keyof ExecutionSettings>().toEqualTypeOf<never>();
    expectTypeOf<keyof DurableOptions & keyof ExecutionSettings>().toEqualTypeOf<never>();
    expectTypeOf<keyof AgentLoopOptions & keyof (RunSettings & HumanDecisions & DurableOptions)>().toEqualTypeOf<never>();
  });

  it("declare no field again that a part they extend declares", () => {
    const root = join(import.meta.dirname, "..", "..");
    const program = ts.createProgram([join(root, "src", "index.ts")], {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2023,
      strict: true,
      exactOptionalPropertyTypes: true,
      skipLibCheck: true,
      noEmit: true,
      types: ["node"],
    });
    const checker = program.getTypeChecker();
    const index = checker.getSymbolAtLocation(program.getSourceFile(join(root, "src", "index.ts"))!)!;
    const exported = new Map(checker.getExportsOfModule(index).map((symbol) => [symbol.name, symbol]));
    const redeclared: string[] = [];
    const seen = new Set<ts.Type>();
    const visit = (type: ts.Type) => {
      if (seen.has(type)) return;
      seen.add(type);
      const bases = type.isClassOrInterface() ? (checker.getBaseTypes(type) ?? []) : [];
      for (const member of type.symbol?.members?.values() ?? []) {
        for (const base of bases)
          if (base.getProperty(member.name)) redeclared.push(`${type.symbol.name}.${member.name} (also in ${base.symbol?.name})`);
      }
      for (const base of bases) visit(base);
    };
    const names = [
      "AgentOptions",
      "ExecutePlanOptions",
      "ExecutePlanStreamOptions",
      "PlanAndExecuteOptions",
      "RewooOptions",
      "LlmCompilerOptions",
      "ReactOptions",
      "SharedStrategyOptions",
    ];
    for (const name of names) {
      const symbol = exported.get(name);
      expect(symbol, name).toBeDefined();
      visit(checker.getDeclaredTypeOfSymbol(checker.getAliasedSymbol(symbol!)));
    }
    expect(redeclared).toEqual([]);
    expect(seen.size).toBeGreaterThan(names.length);
  });
});
