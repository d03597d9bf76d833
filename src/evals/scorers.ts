import { toModelFunction, type Model } from "../core/model.js";
import type { StrategyResult } from "../strategies/strategy-result.js";
import type { Expected, SuiteTask } from "./task-suite.js";

/**
 * A scorer of your own (exported by the `--scorers` module, named by `{ "scorer": "<name>" }`):
 * true, false, or a score from 0 to 1 (1 passes). An LLM judge is one such function.
 */
export type Scorer = (input: ScorerInput) => boolean | number | Promise<boolean | number>;

export interface ScorerInput {
  task: SuiteTask;
  output: string | undefined;
  result: StrategyResult;
  /** The model of the run's column, for a judge that uses the run's own model. */
  model?: Model;
}

export interface Score {
  passed: boolean;
  /** 0 to 1. */
  score: number;
}

/**
 * Scores one run's answer against the task's `expected`: a run that did not complete fails;
 * with no `expected`, completing passes.
 */
export async function scoreRun(
  task: SuiteTask,
  result: StrategyResult,
  scorers: Readonly<Record<string, Scorer>> = {},
  model?: Model,
): Promise<Score> {
  const output = result.output;
  const expected = task.expected;
  if (result.status !== "completed") return { passed: false, score: 0 };
  if (expected === undefined) return { passed: true, score: 1 };
  if (typeof expected === "object" && "scorer" in expected) {
    const scorer = [scorers, builtInScorers].find((named) => Object.hasOwn(named, expected.scorer))?.[expected.scorer];
    if (scorer === undefined) throw new Error(`task ${task.id}: no scorer "${expected.scorer}" (export it from the --scorers module)`);
    const given = await scorer({ task, output, result, ...(model === undefined ? {} : { model }) });
    const score = typeof given === "boolean" ? Number(given) : Math.max(0, Math.min(1, given));
    return { passed: score >= 1, score };
  }
  const passed = matches(expected, (output ?? "").trim());
  return { passed, score: Number(passed) };
}

function matches(expected: Exclude<Expected, { scorer: string }>, answer: string): boolean {
  if (typeof expected !== "object") return answer === String(expected).trim();
  if ("contains" in expected) return [expected.contains].flat().every((text) => answer.toLowerCase().includes(text.toLowerCase()));
  if ("number" in expected) return numbersIn(answer).some((found) => Math.abs(found - expected.number) <= (expected.tolerance ?? 0));
  if ("oneOf" in expected) return expected.oneOf.some((value) => answer === String(value).trim());
  return new RegExp(expected.regex).test(answer);
}

/** The numbers an answer writes: "1,234.5", "-3", "42%" (as 42). */
function numbersIn(answer: string): number[] {
  return [...answer.matchAll(/-?\d[\d,]*(?:\.\d+)?|-?\.\d+/g)].map((match) => Number(match[0].replaceAll(",", ""))).filter(Number.isFinite);
}

/**
 * A scorer that asks a model whether the answer does what the task asks (an LLM judge): the
 * `model` given, else the run's own. It sees the task, the reference (`expected.reference`,
 * when the task's `expected` names one) and the answer, and must reply PASS or FAIL. Never the
 * default: export it from your `--scorers` module (`export const judge = llmJudge()`) and name
 * it (`"expected": { "scorer": "judge", "reference": "…" }`). Its calls are not counted in the
 * run's usage.
 */
export function llmJudge(options: { model?: Model; instructions?: string } = {}): Scorer {
  return async ({ task, output, model }) => {
    const judge = toModelFunction(options.model ?? model);
    if (judge === undefined) throw new Error(`task ${task.id}: llmJudge has no model (give it one, or run it from planloop bench)`);
    const reference =
      typeof task.expected === "object" && task.expected !== null ? (task.expected as { reference?: unknown }).reference : undefined;
    const decision = await judge({
      messages: [
        {
          role: "system",
          content:
            options.instructions ??
            "You judge whether an answer does what a task asks. Reply with PASS or FAIL on the first line, then one sentence why.",
        },
        {
          role: "user",
          content: `Task:\n${task.task}\n\n${reference === undefined ? "" : `A right answer:\n${String(reference)}\n\n`}The answer to judge:\n${output ?? "(none)"}`,
        },
      ],
      step: 0,
      signal: new AbortController().signal,
      tools: [],
      purpose: "critic",
    });
    return decision.type === "final" && /^\s*PASS\b/i.test(decision.content);
  };
}

/**
 * Passes an answer whose every claim the steps it cites support (see `checkClaims`); scores
 * the share of claims that are not unsupported. An answer with no claims passes; a run
 * without grounding (`grounding: false`) scores 0. Built in: name it in a task
 * (`"expected": { "scorer": "grounded" }`) with no `--scorers` module.
 */
export const grounded: Scorer = ({ result }) => {
  const counts = result.provenance?.counts;
  if (counts === undefined) return 0;
  if (counts.claims === 0) return 1;
  return 1 - counts.unsupported / counts.claims;
};

/** Scorers every suite may name without a `--scorers` module; a module's own of the same name wins. */
export const builtInScorers: Readonly<Record<string, Scorer>> = { grounded };
