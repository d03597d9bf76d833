// Values several processes add to at once (issue 44's review: tokens, grants, schedules),
// against a real PostgreSQL with a store per "process": every add is kept.
import { describe, expect, it } from "vitest";
import { postgresStore } from "planloop/postgres";
import { addToken, listTokens } from "../../src/server/api-tokens.js";
import { listSchedules, saveSchedule } from "../../src/waits/schedules.js";
import { freshDatabase, skipPostgres } from "../helpers/postgres.js";

describe.skipIf(skipPostgres)("values added to at once from several stores", () => {
  it("keeps every token and every schedule", async () => {
    const connectionString = await freshDatabase();
    const stores = [postgresStore({ connectionString }), postgresStore({ connectionString })];
    await Promise.all(Array.from({ length: 12 }, (_, index) => addToken(stores[index % 2]!, { name: `token-${index}`, scopes: ["read"] })));
    expect((await listTokens(stores[0]!)).map((token) => token.name).sort()).toEqual(
      Array.from({ length: 12 }, (_, index) => `token-${index}`).sort(),
    );
    // The same name twice at once: one is refused.
    const twice = await Promise.allSettled(stores.map((store) => addToken(store, { name: "same", scopes: ["read"] })));
    expect(twice.map((each) => each.status).sort()).toEqual(["fulfilled", "rejected"]);
    await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        saveSchedule(stores[index % 2]!, { name: `nightly-${index}`, cron: "0 2 * * *", tz: "UTC", run: null }),
      ),
    );
    expect(await listSchedules(stores[1]!)).toHaveLength(8);
    await Promise.all(stores.map((store) => store.close()));
  });
});
