import type { IncomingMessage, ServerResponse } from "node:http";
import type { CheckpointStore } from "../journal/checkpoint-store.js";

/** How many of the newest runs each look compares: a run that moves is among them (new, or just written). */
const watched = 200;

/**
 * Tells the pages that runs moved, as server-sent events (`event: runs`, data `{ "changed":
 * [ids] }`, after an `event: ready`): the store is looked at every `pollMs` while a page listens, and runs whose last
 * write or entry count changed are named. Any process may write the store (a worker, another
 * terminal): looking at it is the one way to see them all.
 */
export class RunWatch {
  private readonly clients = new Set<ServerResponse>();
  /** What each run looked like at the last look; undefined before the first (which only takes note). */
  private seen: Map<string, string> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private looking: Promise<void> | undefined;

  constructor(
    private readonly store: CheckpointStore,
    private readonly pollMs: number,
  ) {}

  stream(request: IncomingMessage, response: ServerResponse): void {
    response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-store", connection: "keep-alive" });
    this.clients.add(response);
    request.on("close", () => {
      this.clients.delete(response);
      if (this.clients.size === 0) this.pause();
    });
    if (this.timer === undefined) {
      this.timer = setInterval(() => void this.poke(), this.pollMs);
      this.timer.unref();
    }
    // `ready` comes once the store was looked at: every run that moves after it is told, so a
    // page that reads what it shows once it is ready misses nothing.
    void this.poke().then(() => response.write(`retry: 1000\nevent: ready\ndata: {}\n\n`));
  }

  /** Looks at the store now (a decision was just taken here); a look under way is the one waited for. */
  poke(): Promise<void> {
    if (this.clients.size === 0) return Promise.resolve();
    this.looking ??= this.look().finally(() => (this.looking = undefined));
    return this.looking;
  }

  private async look(): Promise<void> {
    try {
      const rows = await this.store.listRuns({ limit: watched });
      const next = new Map(rows.map((row) => [row.runId, `${row.updatedAt}:${row.entries}:${row.status}:${row.outcome?.status ?? ""}`]));
      const before = this.seen;
      this.seen = next;
      const changed =
        before === undefined ? [] : rows.filter((row) => before.get(row.runId) !== next.get(row.runId)).map((row) => row.runId);
      if (changed.length > 0) this.send("runs", { changed });
    } catch (error) {
      this.send("problem", { error: String(error) });
    }
  }

  stop(): void {
    this.pause();
    for (const client of this.clients) client.end();
    this.clients.clear();
  }

  private pause(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.seen = undefined;
  }

  private send(event: string, data: unknown): void {
    const text = `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
    for (const client of this.clients) client.write(text);
  }
}
