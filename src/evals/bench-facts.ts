import { seededRandom } from "../core/seeded-random.js";

/** The fact table the simulated services answer from: invented places and people. */
export interface BenchFacts {
  cities: Record<string, { population_m: number; area_km2: number; country: string }>;
  countries: Record<string, { capital: string; currency: string }>;
  people: Record<string, { born_in: string }>;
}

const syllables = [
  "ka",
  "lo",
  "mi",
  "ran",
  "tu",
  "vel",
  "sor",
  "an",
  "bri",
  "do",
  "fen",
  "gal",
  "hu",
  "ir",
  "jo",
  "ken",
  "lu",
  "mar",
  "nor",
  "os",
];

/** A fact table from a fixed seed: 40 cities in 8 countries, 30 people. */
export function generateFacts(seed: number): BenchFacts {
  const random = seededRandom(seed);
  const used = new Set<string>();
  const name = (parts: number) => {
    for (;;) {
      const word = Array.from({ length: parts }, () => syllables[Math.floor(random() * syllables.length)]).join("");
      const capitalised = word[0]!.toUpperCase() + word.slice(1);
      if (!used.has(capitalised)) {
        used.add(capitalised);
        return capitalised;
      }
    }
  };
  const countryNames = Array.from({ length: 8 }, () => `${name(2)}ia`);
  const cities: BenchFacts["cities"] = {};
  for (let index = 0; index < 40; index += 1) {
    cities[name(3)] = {
      population_m: Math.round((0.2 + random() * 11.8) * 10) / 10,
      area_km2: Math.round(80 + random() * 2400),
      country: countryNames[index % countryNames.length]!,
    };
  }
  const cityNames = Object.keys(cities);
  const countries: BenchFacts["countries"] = {};
  countryNames.forEach((country, index) => {
    const own = cityNames.filter((city) => cities[city]!.country === country);
    countries[country] = { capital: own[Math.floor(random() * own.length)]!, currency: ["ULX", "KRM", "DAV", "SOL"][index % 4]! };
  });
  const people: BenchFacts["people"] = {};
  for (let index = 0; index < 30; index += 1)
    people[`${name(2)} ${name(2)}`] = { born_in: cityNames[Math.floor(random() * cityNames.length)]! };
  return { cities, countries, people };
}
