// Where a limit is shared, read from the environment (issue 58): `--limits-shared postgres://user:pw@…`
// puts the password in the process list (`ps`) and in the run's launch line in the store, so
// `--limits-shared-env NAME` reads the place from a variable, the launch line keeps the name, and
// a password given on the command line is warned of once.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { launchLineWithWord } from "../../src/cli/launch-line.js";
import { limitArguments, limitFromFlags } from "../../src/cli/limit-option.js";

afterEach(() => {
  vi.restoreAllMocks();
});

const secret = "s3cret-pw";

describe("--limits-shared-env", () => {
  it("shares the limit in the place the variable holds: two limits made from it take turns a second apart", async () => {
    const env = { PLACE_OF_LIMITS: `sqlite:${join(mkdtempSync(join(tmpdir(), "planloop-env-")), "limits.sqlite")}` };
    const flags = { requestsPerMinute: "60", limitsSharedEnv: "PLACE_OF_LIMITS" };
    const [first, second] = [limitFromFlags(flags, "p", env)!, limitFromFlags(flags, "p", env)!];
    (await first.turn())();
    const stop = new AbortController();
    let until = 0;
    const waiting = second.turn(stop.signal, (at) => (until = at));
    await vi.waitFor(() => expect(until).toBeGreaterThan(Date.now() + 500));
    stop.abort();
    await expect(waiting).rejects.toThrow();
  });

  it("refuses a variable that is not set, a value that is no place (without showing it), a key's variable, and both flags", () => {
    expect(() => limitFromFlags({ limitsSharedEnv: "NOT_SET_HERE" }, "p", {})).toThrow(/the variable NOT_SET_HERE is not set/);
    const bad = () => limitFromFlags({ limitsSharedEnv: "LIMITS_URL" }, "p", { LIMITS_URL: `mysql://u:${secret}@h/db` });
    expect(bad).toThrow(/LIMITS_URL must hold sqlite:<path>, postgres:\/\/… or redis:\/\/…/);
    expect(bad).not.toThrow(new RegExp(secret));
    expect(() => limitFromFlags({ limitsSharedEnv: "OPENAI_API_KEY" }, "p", { OPENAI_API_KEY: "sk-1" })).toThrow(/a variable's name/);
    expect(() => limitFromFlags({ limitsSharedEnv: "x; rm" }, "p", {})).toThrow(/a variable's name/);
    expect(() => limitFromFlags({ limitsShared: "redis://h", limitsSharedEnv: "LIMITS_URL" }, "p", { LIMITS_URL: "redis://h" })).toThrow(
      /not both/,
    );
  });

  it("keeps the variable's name in the launch line, never its value; a stored line naming it is continued without a word", () => {
    const argv = limitArguments({ requestsPerMinute: "60", limitsSharedEnv: "LIMITS_URL" });
    expect(argv).toEqual(["--requests-per-minute", "60", "--limits-shared-env", "LIMITS_URL"]);
    const launch = { kind: "launch" as const, argv: ["run", "plan.json", ...argv], cwd: "/" };
    expect(launchLineWithWord("r1", launch, {})).toEqual({ argv: launch.argv, unconfirmed: [] });
    // A planted line may not read a provider's key as a place, nor name something that is not a variable.
    for (const name of ["OPENAI_API_KEY", "lower", "A B"])
      expect(() => launchLineWithWord("r1", { ...launch, argv: ["run", "plan.json", "--limits-shared-env", name] }, {})).toThrow(
        /planloop did not write/,
      );
  });

  it("warns once on stderr when --limits-shared holds a password, and not for one without", () => {
    const written: string[] = [];
    vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    const dir = mkdtempSync(join(tmpdir(), "planloop-env-"));
    limitFromFlags({ limitsShared: `sqlite:${join(dir, "a.sqlite")}` }, "p");
    expect(written).toEqual([]);
    const flags = { limitsShared: `redis://:${secret}@127.0.0.1:9` };
    limitFromFlags(flags, "p");
    limitFromFlags(flags, "q");
    expect(written).toHaveLength(1);
    expect(written[0]).toMatch(/--limits-shared holds a password.*--limits-shared-env <NAME>/);
    expect(written[0]).not.toContain(secret);
  });
});
