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
  const cityFacts = defineTool({
    name: "city_facts",
    description: "Facts about a city: population in millions, area in square kilometres, country",
    input: z.object({ city: z.string() }),
    estimateMs: 120,
    execute: async ({ city }, { signal }) => {
      await wait("city_facts", { city }, signal);
      if (suite.unavailable.includes(city)) throw final(`the facts service has no data for ${city}; census_lookup has every city's population`);
      const found = facts.cities[city];
      if (!found) throw final(`no city called ${city}`);
      return { name: city, ...found };
    },
  });
  const census = defineTool({
    name: "census_lookup",
    description: "The census population of a city, in millions (slower, but covers every city)",
    input: z.object({ city: z.string() }),
    estimateMs: 190,
    execute: async ({ city }, { signal }) => {
      await wait("census_lookup", { city }, signal);
      const found = facts.cities[city];
      if (!found) throw final(`no city called ${city}`);
      return { name: city, population_m: found.population_m };
    },
  });
  const countryFacts = defineTool({
    name: "country_facts",
    description: "Facts about a country: its capital and currency",
    input: z.object({ country: z.string() }),
    estimateMs: 80,
    execute: async ({ country }, { signal }) => {
      await wait("country_facts", { country }, signal);
      const found = facts.countries[country];
      if (!found) throw final(`no country called ${country}`);
      return { name: country, ...found };
    },
  });
  const personFacts = defineTool({
    name: "person_facts",
    description: "Facts about a person: the city where they were born",
    input: z.object({ person: z.string() }),
    estimateMs: 100,
    execute: async ({ person }, { signal }) => {
      await wait("person_facts", { person }, signal);
      const found = facts.people[person];
      if (!found) throw final(`no person called ${person}`);
      return { name: person, ...found };
    },
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
