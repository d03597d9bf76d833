// planloop/postgres: the checkpoint store for teams and many processes (needs the optional peer pg).
export { postgresStore } from "./postgres-store.js";
export type { PostgresStoreOptions } from "./postgres-store.js";
export { schemaVersion } from "./migrations.js";
