// planloop/sqlite: the embedded checkpoint store (needs the optional peer better-sqlite3).
export { sqliteStore } from "./sqlite-store.js";
export type { SqliteStoreOptions } from "./sqlite-store.js";
export { schemaVersion } from "./migrations.js";
export { sqliteLimitStore } from "./sqlite-limit-store.js";
export type { SqliteLimitStoreOptions } from "./sqlite-limit-store.js";
