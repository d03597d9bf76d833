import { seededRandom } from "../core/seeded-random.js";
import { generateFacts, type BenchFacts } from "./bench-facts.js";
import type { BenchSuite, BenchTask } from "./bench-suite.js";

const factsSeed = 7;

function list(names: readonly string[]): string {
  return names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

function sample<T>(random: () => number, items: readonly T[], count: number): T[] {
  const pool = [...items];
  const picked: T[] = [];
  while (picked.length < count && pool.length > 0) picked.push(pool.splice(Math.floor(random() * pool.length), 1)[0]!);
  return picked;
}

const lookup = (id: number, city: string, tool = "city_facts") => ({ id, task: `look up ${city}`, tool, args: { city } });

/** Fan-out: 2-8 independent lookups, then one combination (total population or largest area). */
export function fanoutSuite(seed = 101): BenchSuite {
  const facts = generateFacts(factsSeed);
  const random = seededRandom(seed);
  const widths = [2, 3, 4, 5, 6, 8, 3, 4, 5, 6, 8, 2];
  const tasks = widths.map((width, index): BenchTask => {
    const cities = sample(random, Object.keys(facts.cities), width);
    const steps = cities.map((city, position) => lookup(position + 1, city));
    const combine = width + 1;
    if (index % 2 === 0) {
      const total = Math.round(cities.reduce((sum, city) => sum + facts.cities[city]!.population_m, 0) * 10) / 10;
      return {
        id: `fanout-${index + 1}`,
        suite: "fanout",
        question: `What is the total population, in millions, of ${list(cities)}?`,
        expected: total,
        width,
        plan: [
          ...steps,
          {
            id: combine,
            task: "add the populations",
            tool: "sum_numbers",
            args: { values: steps.map((step) => `$${step.id}.population_m`) },
            depends_on: steps.map((step) => step.id),
          },
        ],
        answerFrom: { step: combine, field: "total" },
      };
    }
    const largest = [...cities].sort((a, b) => facts.cities[b]!.area_km2 - facts.cities[a]!.area_km2)[0]!;
    return {
      id: `fanout-${index + 1}`,
      suite: "fanout",
      question: `Which of these cities has the largest area: ${list(cities)}?`,
      expected: largest,
      width,
      plan: [
        ...steps,
        {
          id: combine,
          task: "pick the largest",
          tool: "largest",
          args: { items: steps.map((step) => ({ name: step.args.city, value: `$${step.id}.area_km2` })) },
          depends_on: steps.map((step) => step.id),
        },
      ],
      answerFrom: { step: combine, field: "name" },
    };
  });
  return {
    name: "fanout",
    seed,
    description: "Questions that need 2-8 independent lookups and one combination",
    facts,
    unavailable: [],
    tasks,
  };
}

/** Chains: each lookup needs the answer of the one before (nested references). */
export function chainSuite(seed = 202): BenchSuite {
  const facts = generateFacts(factsSeed);
  const random = seededRandom(seed);
  const people = Object.keys(facts.people);
  const countries = Object.keys(facts.countries);
  const tasks: BenchTask[] = [];
  for (let index = 0; index < 12; index += 1) {
    const kind = index % 4;
    const id = `chain-${index + 1}`;
    const person = people[Math.floor(random() * people.length)]!;
    const born = facts.people[person]!.born_in;
    const country = facts.cities[born]!.country;
    if (kind === 0) {
      const target = countries[Math.floor(random() * countries.length)]!;
      const capital = facts.countries[target]!.capital;
      tasks.push({
        id,
        suite: "chain",
        width: 2,
        question: `What is the population, in millions, of the capital of ${target}?`,
        expected: facts.cities[capital]!.population_m,
        plan: [
          { id: 1, task: `look up ${target}`, tool: "country_facts", args: { country: target } },
          { id: 2, task: "look up its capital", tool: "city_facts", args: { city: "$1.capital" }, depends_on: [1] },
        ],
        answerFrom: { step: 2, field: "population_m" },
      });
    } else if (kind === 1) {
      tasks.push({
        id,
        suite: "chain",
        width: 2,
        question: `What is the area, in square kilometres, of the city where ${person} was born?`,
        expected: facts.cities[born]!.area_km2,
        plan: [
          { id: 1, task: `look up ${person}`, tool: "person_facts", args: { person } },
          { id: 2, task: "look up the birthplace", tool: "city_facts", args: { city: "$1.born_in" }, depends_on: [1] },
        ],
        answerFrom: { step: 2, field: "area_km2" },
      });
    } else if (kind === 2) {
      tasks.push({
        id,
        suite: "chain",
        width: 3,
        question: `Which currency is used in the country where ${person} was born?`,
        expected: facts.countries[country]!.currency,
        plan: [
          { id: 1, task: `look up ${person}`, tool: "person_facts", args: { person } },
          { id: 2, task: "look up the birthplace", tool: "city_facts", args: { city: "$1.born_in" }, depends_on: [1] },
          { id: 3, task: "look up its country", tool: "country_facts", args: { country: "$2.country" }, depends_on: [2] },
        ],
        answerFrom: { step: 3, field: "currency" },
      });
    } else {
      const capital = facts.countries[country]!.capital;
      tasks.push({
        id,
        suite: "chain",
        width: 4,
        question: `What is the population, in millions, of the capital of the country where ${person} was born?`,
        expected: facts.cities[capital]!.population_m,
        plan: [
          { id: 1, task: `look up ${person}`, tool: "person_facts", args: { person } },
          { id: 2, task: "look up the birthplace", tool: "city_facts", args: { city: "$1.born_in" }, depends_on: [1] },
          { id: 3, task: "look up its country", tool: "country_facts", args: { country: "$2.country" }, depends_on: [2] },
          { id: 4, task: "look up the capital", tool: "city_facts", args: { city: "$3.capital" }, depends_on: [3] },
        ],
        answerFrom: { step: 4, field: "population_m" },
      });
    }
  }
  return {
    name: "chain",
    seed,
    description: "Questions whose lookups depend on earlier answers (nested references, as in NESTFUL)",
    facts,
    unavailable: [],
    tasks,
  };
}

/** Surprises: the facts service has no data for one city; only a plan that adapts succeeds. */
export function replanSuite(seed = 303): BenchSuite {
  const facts = generateFacts(factsSeed);
  const random = seededRandom(seed);
  const unavailable = sample(random, Object.keys(facts.cities), 8);
  const available = Object.keys(facts.cities).filter((city) => !unavailable.includes(city));
  const tasks = unavailable.map((missing, index): BenchTask => {
    const cities = [...sample(random, available, 2 + (index % 3)), missing];
    const steps = cities.map((city, position) => lookup(position + 1, city));
    const combine = cities.length + 1;
    const sum = (lookups: typeof steps) => ({
      id: combine,
      task: "add the populations",
      tool: "sum_numbers",
      args: { values: lookups.map((step) => `$${step.id}.population_m`) },
      depends_on: lookups.map((step) => step.id),
    });
    const replanned = steps.map((step) => (step.args.city === missing ? lookup(step.id, missing, "census_lookup") : step));
    return {
      id: `replan-${index + 1}`,
      suite: "replan",
      question: `What is the total population, in millions, of ${list(cities)}?`,
      expected: Math.round(cities.reduce((total, city) => total + facts.cities[city]!.population_m, 0) * 10) / 10,
      width: cities.length,
      plan: [...steps, sum(steps)],
      replanned: [...replanned, sum(replanned)],
      answerFrom: { step: combine, field: "total" },
    };
  });
  return {
    name: "replan",
    seed,
    description: "Tasks where a tool fails for one input, so a fixed plan cannot succeed without replanning",
    facts,
    unavailable,
    tasks,
  };
}

export function generateSuites(): BenchSuite[] {
  return [fanoutSuite(), chainSuite(), replanSuite()];
}

export type { BenchFacts };
