// A fresh database on the PostgreSQL server scripts/services.sh started (PLANLOOP_POSTGRES_URL),
// so that test files running at once do not see each other's runs.
import { randomUUID } from "node:crypto";
import pg from "pg";

export const postgresUrl = process.env.PLANLOOP_POSTGRES_URL;

/** In CI the server must be there; elsewhere the tests that need it are skipped without it. */
export const skipPostgres = postgresUrl === undefined && process.env.CI !== "true";

if (postgresUrl === undefined && process.env.CI === "true") {
  throw new Error("PLANLOOP_POSTGRES_URL is not set: .ci/run starts PostgreSQL with scripts/services.sh start");
}

/** Creates a database of its own and returns its connection string. */
export async function freshDatabase(): Promise<string> {
  const name = `planloop_${randomUUID().replaceAll("-", "")}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(postgresUrl!);
  url.pathname = `/${name}`;
  return url.toString();
}
