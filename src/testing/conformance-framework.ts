/** The matchers the checks use, as vitest and Jest both have them. */
export interface ConformanceMatchers {
  toBe(expected: unknown): unknown;
  toEqual(expected: unknown): unknown;
  toMatchObject(expected: object): unknown;
  toBeUndefined(): unknown;
  rejects: { toThrow(expected?: string | RegExp): Promise<unknown> };
}

/** The test functions of the framework the checks run in (vitest's or Jest's `describe`, `it`, `expect`). */
export interface ConformanceFramework {
  describe(name: string, body: () => void): unknown;
  it(name: string, body: () => Promise<void>): unknown;
  expect(value: unknown): ConformanceMatchers;
}
