import type { SlotRecord, SuiteCase } from "./suite-writer.js";

/**
 * Cases written by hand, their figures labelled in the answer: `{+1,234}` is a figure the
 * steps support, `{-1,243}` one they do not. `labelled` takes the marks out and records each
 * figure's place, as the seeded suite's slots do, so `scoreSuite` scores both alike.
 */
export interface LabelledCase {
  id: string;
  task?: string;
  steps: Array<{ id: number | string; output: unknown }>;
  answer: string;
}

const mark = /\{([+-])([^{}]+)\}/g;

export function labelled(cases: readonly LabelledCase[]): SuiteCase[] {
  return cases.map((item) => {
    const slots: SlotRecord[] = [];
    let answer = "";
    let from = 0;
    for (const match of item.answer.matchAll(mark)) {
      answer += item.answer.slice(from, match.index);
      const text = match[2]!;
      slots.push({ start: answer.length, end: answer.length + text.length, text, kind: "figure", wrong: match[1] === "-" });
      answer += text;
      from = match.index + match[0].length;
    }
    answer += item.answer.slice(from);
    return {
      id: item.id,
      task: item.task ?? "Write the report.",
      steps: item.steps.map((step) => ({ id: String(step.id), tool: "data", output: step.output })),
      answer,
      slots,
    };
  });
}
