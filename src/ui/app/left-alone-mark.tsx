import type { RunRow } from "./api.js";

/**
 * "left alone by serve", while `planloop serve` has given up continuing the run (its command kept
 * failing to start, it names a module serve was not given), with why on hover; gone once the run
 * moves again (continued by hand: planloop runs resume).
 */
export function LeftAloneMark({ row }: { row: RunRow }) {
  if (row.leftAlone === undefined) return null;
  return (
    <span class="badge left-alone" data-testid="left-alone" title={row.leftAlone}>
      left alone by serve
    </span>
  );
}
