import { seededRandom } from "../core/seeded-random.js";

/*
 * Where `crashTest` kills a run: chosen from what its uninterrupted run did, per process (a run
 * that waited for a decision took several). Pure: the same run and seed give the same kills.
 */

/**
 * A call whose process lived this long after it returned counts as finished: its end should be
 * kept by then. Kills just after a return fall on either side of it (0 to twice this).
 */
export const SETTLED_MS = 10;

/**
 * Where a child kills itself, counted within its own process: right after its nth commit, in its
 * nth call right after the tool returned, at a time after its scenario started, or a delay after
 * its nth call returned (0: on the event loop's next turn).
 */
export type KillAt = { commit: number } | { call: number } | { ms: number } | { afterCall: number; ms: number };

/** How a run's report says where it was killed: commits and calls counted over all the run's processes. */
export interface KillShown {
  killedInProcess: number;
  killedAfterCommit?: number;
  killedInCall?: number;
  killedAtMs?: number;
  killedAfterReturn?: { call: number; ms: number };
}

export interface KillPoint {
  runId: string;
  process: number;
  at: KillAt;
  shown: KillShown;
}

/** What one process of the uninterrupted run did. */
export interface ProcessShape {
  commits: number;
  calls: number;
  /** From its scenario's start to its result. */
  ms: number;
}

export interface KillChoice {
  /** Every point, or this many chosen at random. */
  points: number | "every";
  /** Kills at random moments besides: a delay after a call returned, or a time, in turn. */
  randomKills: number;
  seed: number;
}

/** The kill points (after each commit but the last, in each call) and the random kills, in that order. */
export function killPointsOf(shapes: readonly ProcessShape[], choice: KillChoice): KillPoint[] {
  const commitPoints = shapes.reduce((sum, shape) => sum + shape.commits, 0);
  const callPoints = shapes.reduce((sum, shape) => sum + shape.calls, 0);
  const all: KillPoint[] = [
    ...numbers(commitPoints - 1).map((commit): KillPoint => {
      const { process, within } = locate(shapes, "commits", commit);
      return {
        runId: `crash-after-${commit}`,
        process,
        at: { commit: within },
        shown: { killedInProcess: process, killedAfterCommit: commit },
      };
    }),
    ...numbers(callPoints).map((call): KillPoint => {
      const { process, within } = locate(shapes, "calls", call);
      return { runId: `crash-in-call-${call}`, process, at: { call: within }, shown: { killedInProcess: process, killedInCall: call } };
    }),
  ];
  return [...chosen(all, choice), ...randomKills(shapes, choice)];
}

function chosen(all: KillPoint[], choice: KillChoice): KillPoint[] {
  if (choice.points === "every") return all;
  const wanted = Math.min(choice.points, all.length);
  const random = seededRandom(choice.seed);
  const indexes = new Set<number>();
  while (indexes.size < wanted) indexes.add(Math.floor(random() * all.length));
  return [...indexes].sort((a, b) => a - b).map((index) => all[index]!);
}

/** Random moments: a delay after a random call returned, then a time within the uninterrupted run's processes, in turn. */
function randomKills(shapes: readonly ProcessShape[], choice: KillChoice): KillPoint[] {
  const random = seededRandom(choice.seed * 7919 + 1);
  const totalMs = shapes.reduce((sum, shape) => sum + shape.ms, 0);
  const callPoints = shapes.reduce((sum, shape) => sum + shape.calls, 0);
  const kills: KillPoint[] = [];
  for (let index = 1; index <= choice.randomKills; index += 1) {
    if (index % 2 === 1 && callPoints > 0) {
      const call = 1 + Math.floor(random() * callPoints);
      const ms = Math.floor(random() * (2 * SETTLED_MS + 1));
      const { process, within } = locate(shapes, "calls", call);
      const shown = { killedInProcess: process, killedAfterReturn: { call, ms } };
      kills.push({ runId: `random-${index}-${ms}ms-after-call-${call}`, process, at: { afterCall: within, ms }, shown });
    } else {
      const { process, within: ms } = locate(shapes, "ms", Math.floor(random() * totalMs));
      kills.push({ runId: `random-${index}-at-${ms}ms`, process, at: { ms }, shown: { killedInProcess: process, killedAtMs: ms } });
    }
  }
  return kills;
}

/**
 * The process the nth commit or call of the whole run (or its nth millisecond, from 0) fell in,
 * and its number within that process.
 */
function locate(shapes: readonly ProcessShape[], of: keyof ProcessShape, number: number): { process: number; within: number } {
  let process = 1;
  let within = number;
  // Commits and calls count from 1, milliseconds from 0.
  const past = (shape: ProcessShape) => (of === "ms" ? within >= shape.ms : within > shape[of]);
  while (process < shapes.length && past(shapes[process - 1]!)) {
    within -= shapes[process - 1]![of];
    process += 1;
  }
  return { process, within };
}

function numbers(count: number): number[] {
  return Array.from({ length: Math.max(0, count) }, (_, index) => index + 1);
}
