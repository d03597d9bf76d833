/** One bar of a Gantt chart: when a step ran, and on which lane. */
export interface TimelineEntry {
  stepId: string;
  /** Lanes are reused: a step takes the lowest lane free when it starts. */
  lane: number;
  startedAt: number;
  endedAt: number;
  status: string;
  attempts: number;
}

/** Assigns lanes so that steps running at the same time never share one. Pure. */
export function buildTimeline(
  steps: ReadonlyArray<{ stepId: string; startedAt?: number; endedAt?: number; status: string; attempts: number }>,
): TimelineEntry[] {
  const ran = steps
    .filter((step): step is typeof step & { startedAt: number; endedAt: number } => step.startedAt !== undefined && step.endedAt !== undefined)
    .sort((a, b) => a.startedAt - b.startedAt);
  const laneFreeAt: number[] = [];
  return ran.map((step) => {
    let lane = laneFreeAt.findIndex((freeAt) => freeAt <= step.startedAt);
    if (lane === -1) lane = laneFreeAt.length;
    laneFreeAt[lane] = step.endedAt;
    return { stepId: step.stepId, lane, startedAt: step.startedAt, endedAt: step.endedAt, status: step.status, attempts: step.attempts };
  });
}
