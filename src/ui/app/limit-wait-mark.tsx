import { useEffect, useState } from "preact/hooks";
import type { RunRow } from "./api.js";
import { when } from "./format.js";

/**
 * "waiting for the provider's limit" with the time the wait ends, while a run's model call waits
 * for its provider's limit (a rate, or the cooldown after a 429). Gone once that time passes,
 * even if nothing else about the run changes.
 */
export function LimitWaitMark({ row }: { row: RunRow }) {
  const wait = row.limitWait;
  const [, setNow] = useState(0);
  useEffect(() => {
    if (wait === undefined) return;
    const timer = setTimeout(() => setNow(Date.now()), Math.max(0, wait.until - Date.now()) + 50);
    return () => clearTimeout(timer);
  }, [wait?.until]);
  if (wait === undefined || wait.until <= Date.now()) return null;
  return (
    <span class="badge limit-wait" data-testid="limit-wait" title={`the provider's limit "${wait.limit}"`}>
      waiting for the provider's limit until {when(wait.until)}
    </span>
  );
}
