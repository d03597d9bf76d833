import { InvalidOptionsError } from "./errors.js";
import type { EventListener, PlanloopEvent } from "./events.js";

/** A run whose events arrive as an async iterable while it runs, and its result at the end. */
export interface RunStream<Result> extends AsyncIterable<PlanloopEvent> {
  /** The entry point's result (or its error), whether or not the events are read. */
  readonly result: Promise<Result>;
}

/**
 * Runs `entry(options)` and hands its events over as an async iterable, in order, ending when
 * the run ends (or throwing its error once the events before it are read). `options.onEvent`
 * still sees every event. A run does not wait for its reader: events wait in a buffer of
 * `maxBuffered` (default 10,000); a reader that falls further behind loses the oldest, told
 * by an `events-dropped` event with their count. Read it once.
 *
 * @example
 * const run = stream(planAndExecute, { task, planner, tools });
 * for await (const event of run) if (event.type === "model-delta" && "text" in event) process.stdout.write(event.text);
 * const result = await run.result;
 */
export function stream<Options extends { onEvent?: EventListener | undefined }, Result>(
  entry: (options: Options) => Promise<Result>,
  options: Options,
  settings: { maxBuffered?: number } = {},
): RunStream<Result> {
  const maxBuffered = settings.maxBuffered ?? 10_000;
  if (!Number.isInteger(maxBuffered) || maxBuffered < 1) throw new InvalidOptionsError("maxBuffered must be an integer >= 1");
  const buffer: PlanloopEvent[] = [];
  let dropped = 0;
  let done = false;
  let wake: (() => void) | undefined;
  const own = options.onEvent;
  const onEvent: EventListener = (event) => {
    own?.(event);
    buffer.push(event);
    if (buffer.length > maxBuffered) {
      buffer.shift();
      dropped += 1;
    }
    wake?.();
  };
  const result = Promise.resolve().then(() => entry({ ...options, onEvent }));
  const settled = result.then(
    () => undefined,
    () => undefined,
  );
  void settled.then(() => {
    done = true;
    wake?.();
  });
  let read = false;
  return {
    result,
    async *[Symbol.asyncIterator]() {
      if (read) throw new InvalidOptionsError("a run's events can be read once");
      read = true;
      for (;;) {
        if (dropped > 0) {
          const count = dropped;
          dropped = 0;
          yield { type: "events-dropped", count, seq: 0, time: buffer[0]?.time ?? Date.now() };
        }
        const next = buffer.shift();
        if (next !== undefined) {
          yield next;
          continue;
        }
        if (done) {
          await result;
          return;
        }
        await new Promise<void>((resolve) => (wake = resolve));
        wake = undefined;
      }
    },
  };
}
