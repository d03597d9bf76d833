// The Redis server scripts/services.sh started (PLANLOOP_REDIS_URL): each test takes a queue of its own.
import { randomUUID } from "node:crypto";

export const redisUrl = process.env.PLANLOOP_REDIS_URL;

/** In CI the server must be there; elsewhere the tests that need it are skipped without it. */
export const skipRedis = redisUrl === undefined && process.env.CI !== "true";

if (redisUrl === undefined && process.env.CI === "true") {
  throw new Error("PLANLOOP_REDIS_URL is not set: .ci/run starts Redis with scripts/services.sh start");
}

export const freshQueue = (): string => `test-${randomUUID().slice(0, 8)}`;
