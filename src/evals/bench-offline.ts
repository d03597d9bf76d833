import type { OfflineTask } from "../offline/offline-task.js";
import type { BenchTask } from "./bench-suite.js";

/** The offline model's solution of a benchmark task: its plan, its replan, and where the answer is. */
export function offlineTaskFor(task: BenchTask): OfflineTask {
  return {
    name: task.id,
    match: task.question,
    plan: task.plan,
    ...(task.replanned ? { replan: () => task.replanned } : {}),
    answer: (outputs) => {
      const output = outputs[String(task.answerFrom.step)] as Record<string, unknown> | undefined;
      const value = output?.[task.answerFrom.field];
      if (value === undefined) throw new Error(`step ${task.answerFrom.step} has no ${task.answerFrom.field}`);
      return typeof value === "number" ? `The answer is ${value}.` : `The answer is ${String(value)}.`;
    },
  };
}
