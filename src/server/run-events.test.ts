import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cursorId, readCursor, streamCursorIds, type StreamCursor } from "./run-events.js";

const name = fc.oneof(fc.constantFrom("", "plan:1", "plan:1/3", "__proto__", "0", "12", 'a"b\\c', "é✓"), fc.string());

describe("a stream's cursor ids (streamCursorIds)", () => {
  it("say what cursorId says, and read back as the cursor they were made of, over any runs and positions", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }),
        fc.array(fc.array(fc.tuple(name, fc.nat()), { maxLength: 5 }), { minLength: 1, maxLength: 6 }),
        (runId, looks) => {
          const idOf = streamCursorIds(runId);
          const cursor: StreamCursor = new Map();
          for (const look of looks) {
            for (const [run, sent] of look) cursor.set(run, sent);
            const id = idOf(cursor);
            const decoded = (id: string) => JSON.parse(Buffer.from(id, "base64url").toString("utf8")) as unknown;
            expect(decoded(id)).toEqual(decoded(cursorId(cursor, runId)));
            const sorted = (read: StreamCursor) => [...read].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
            expect(sorted(readCursor(id, runId))).toEqual(sorted(cursor));
            // Another run's stream refuses it, naming it.
            expect(() => readCursor(id, `${runId}x`)).toThrow(/another run/);
          }
        },
      ),
      { numRuns: 300, seed: 54 },
    );
  });
});
