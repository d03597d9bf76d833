import { canonicalJson } from "../core/canonical-json.js";
import type { CheckpointStore } from "../journal/checkpoint-store.js";
import { InvalidOptionsError } from "../core/errors.js";
import { defaultSecretKeys, maskSecrets, type SecretKeys } from "../trust/secrets.js";
import type { PlanStep } from "../plan/plan-schema.js";

/** A latency book as JSON: per step identity and per tool, a running mean and how many were seen. */
export interface LatencyBookJson {
  kind: "planloop/latencies";
  calls: Record<string, [meanMs: number, count: number]>;
  tools: Record<string, [meanMs: number, count: number]>;
}

/**
 * Step latencies learned from the runs that used this book, for the scheduler's longest
 * remaining path first when steps carry no `estimateMs`: a step whose tool and arguments ran
 * before is estimated by how long it took then (a pipeline's plan run again each night is
 * ordered right from the first step); a step of a known tool with new arguments, by the
 * tool's mean. Pass the same book to the next run, or keep `toJSON()` and pass it to
 * `latencyBook(saved)` in the next process. Calls are known by their arguments with the
 * values of secret keys masked (`secretKeys`, as in events): a book holds no secret.
 *
 * @example
 * const latencies = latencyBook();
 * await executePlan({ plan, tools, latencies });
 * writeFileSync("latencies.json", JSON.stringify(latencies));
 */
export class LatencyBook {
  private readonly calls = new Map<string, [number, number]>();
  private readonly tools = new Map<string, [number, number]>();

  private readonly secretKeys: SecretKeys;

  constructor(saved?: LatencyBookJson, options: { secretKeys?: SecretKeys | undefined } = {}) {
    this.secretKeys = options.secretKeys ?? defaultSecretKeys;
    if (saved === undefined) return;
    if (saved?.kind !== "planloop/latencies")
      throw new InvalidOptionsError("latencyBook(saved): not a latency book (kind planloop/latencies)");
    for (const [key, entry] of Object.entries(saved.calls ?? {})) if (validEntry(entry)) this.calls.set(key, [entry[0], entry[1]]);
    for (const [key, entry] of Object.entries(saved.tools ?? {})) if (validEntry(entry)) this.tools.set(key, [entry[0], entry[1]]);
  }

  /** The estimate for a tool step, or undefined when neither the call nor its tool was seen. */
  estimate(step: Pick<PlanStep, "tool" | "args">): number | undefined {
    if (step.tool === undefined) return undefined;
    return (this.calls.get(this.callKey(step)) ?? this.tools.get(step.tool))?.[0];
  }

  /** Learns how long a tool step took. */
  record(step: Pick<PlanStep, "tool" | "args">, ms: number): void {
    if (step.tool === undefined || !Number.isFinite(ms) || ms < 0) return;
    learn(this.calls, this.callKey(step), ms);
    learn(this.tools, step.tool, ms);
  }

  private callKey(step: Pick<PlanStep, "tool" | "args">): string {
    return `${step.tool} ${canonicalJson(maskSecrets(step.args ?? {}, this.secretKeys))}`;
  }

  toJSON(): LatencyBookJson {
    return { kind: "planloop/latencies", calls: Object.fromEntries(this.calls), tools: Object.fromEntries(this.tools) };
  }
}

/** A latency book, new or from a saved one (`book.toJSON()`). */
export function latencyBook(saved?: LatencyBookJson, options?: { secretKeys?: SecretKeys | undefined }): LatencyBook {
  return new LatencyBook(saved, options);
}

/** Where a store keeps the book its durable runs share. */
export const storedLatenciesKey = "planloop/latencies";

/** Calls a book remembers; past this the oldest are forgotten, so a book stays small. */
const maxCalls = 10_000;

/**
 * The book a store keeps for its durable runs: each plan run given a store and no book of
 * its own starts from it and adds to it, so the next run of a pipeline is ordered by what the
 * last ones took. A book that does not read back (damaged, from elsewhere) starts empty.
 */
export async function storedLatencyBook(store: CheckpointStore, secretKeys?: SecretKeys): Promise<LatencyBook> {
  const saved = await store.getValue(storedLatenciesKey);
  try {
    return new LatencyBook(saved as LatencyBookJson | undefined, { secretKeys });
  } catch {
    return new LatencyBook(undefined, { secretKeys });
  }
}

/** A running mean, so a book stays small however many runs it sees. */
function learn(book: Map<string, [number, number]>, key: string, ms: number): void {
  const seen = book.get(key);
  if (seen === undefined) {
    book.set(key, [ms, 1]);
    if (book.size > maxCalls) book.delete(book.keys().next().value!);
  } else {
    seen[1] += 1;
    seen[0] += (ms - seen[0]) / seen[1];
  }
}

function validEntry(entry: unknown): entry is [number, number] {
  return Array.isArray(entry) && Number.isFinite(entry[0]) && entry[0] >= 0 && Number.isInteger(entry[1]) && entry[1] > 0;
}
