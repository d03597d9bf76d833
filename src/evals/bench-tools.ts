import { z } from "zod";
import { canonicalJson } from "../core/canonical-json.js";
import { sleep } from "../core/clock.js";
import { defineTool } from "../core/tools/define-tool.js";
import type { BenchSuite } from "./bench-suite.js";

/** Milliseconds a service takes, by tool: a range the seeded draw falls in. */
export const serviceLatency: Record<string, [number, number]> = {
  city_facts: [60, 180],
  census_lookup: [120, 260],
  country_facts: [40, 120],
  person_facts: [50, 150],
  sum_numbers: [2, 8],
  largest: [2, 8],
};

/** FNV-1a of the call: the same call always takes the same time, whatever the strategy. */
export function callLatency(tool: string, args: unknown, seed: number): number {
  let hash = 0x811c9dc5 ^ seed;
  for (const char of `${tool} ${canonicalJson(args)}`) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193) >>> 0;
  const [low, high] = serviceLatency[tool] ?? [10, 30];
  return low + (hash / 0xffffffff) * (high - low);
}

function final(message: string): Error {
  return Object.assign(new Error(message), { retryable: false });
}

/**
 * Deterministic simulated services over the suite's fact table, each call taking a seeded
 * latency (times `latencyScale`; 0 for none).
 */
export function benchTools(suite: BenchSuite, options: { latencyScale?: number } = {}) {
  const scale = options.latencyScale ?? 1;
  const facts = suite.facts;
  const wait = async (tool: string, args: unknown, signal: AbortSignal) => {
    const ms = callLatency(tool, args, suite.seed) * scale;
    if (ms > 0) await sleep(ms, { signal });
  };
  /** A lookup service over one table of the facts, answering `{ name, ...row }`. */
  const factService = <Row extends object>(spec: {
    name: string;
    description: string;
    key: "city" | "country" | "person";
    table: Record<string, Row>;
    estimateMs: number;
    refuse?: (key: string) => string | undefined;
    pick?: (row: Row) => object;
  }) =>
    defineTool({
      name: spec.name,
      description: spec.description,
      input: z.object({ [spec.key]: z.string() }) as z.ZodType<Record<string, string>>,
      estimateMs: spec.estimateMs,
      execute: async (args, { signal }) => {
        const key = args[spec.key]!;
        await wait(spec.name, { [spec.key]: key }, signal);
        const refusal = spec.refuse?.(key);
        if (refusal) throw final(refusal);
        const row = spec.table[key];
        if (!row) throw final(`no ${spec.key} called ${key}`);
        return { name: key, ...(spec.pick ? spec.pick(row) : row) };
      },
    });
  const cityFacts = factService({
    name: "city_facts",
    description: "Facts about a city: population in millions, area in square kilometres, country",
    key: "city",
    table: facts.cities,
    estimateMs: 120,
    refuse: (city) =>
      suite.unavailable.includes(city) ? `the facts service has no data for ${city}; census_lookup has every city's population` : undefined,
  });
  const census = factService({
    name: "census_lookup",
    description: "The census population of a city, in millions (slower, but covers every city)",
    key: "city",
    table: facts.cities,
    estimateMs: 190,
    pick: (row) => ({ population_m: row.population_m }),
  });
  const countryFacts = factService({
    name: "country_facts",
    description: "Facts about a country: its capital and currency",
    key: "country",
    table: facts.countries,
    estimateMs: 80,
  });
  const personFacts = factService({
    name: "person_facts",
    description: "Facts about a person: the city where they were born",
    key: "person",
    table: facts.people,
    estimateMs: 100,
  });
  const sumNumbers = defineTool({
    name: "sum_numbers",
    description: "Add numbers",
    input: z.object({ values: z.array(z.number()) }),
    estimateMs: 5,
    execute: async ({ values }, { signal }) => {
      await wait("sum_numbers", { values }, signal);
      return { total: Math.round(values.reduce((sum, value) => sum + value, 0) * 10) / 10 };
    },
  });
  const largest = defineTool({
    name: "largest",
    description: "The item with the largest value",
    input: z.object({ items: z.array(z.object({ name: z.string(), value: z.number() })).min(1) }),
    estimateMs: 5,
    execute: async ({ items }, { signal }) => {
      await wait("largest", { items }, signal);
      return [...items].sort((a, b) => b.value - a.value)[0]!;
    },
  });
  return [cityFacts, census, countryFacts, personFacts, sumNumbers, largest];
}
