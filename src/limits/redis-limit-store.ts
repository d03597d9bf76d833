import type { LimitStore } from "../core/limit-store.js";

/** The part of an ioredis client the store uses. */
interface RedisClient {
  eval(script: string, keyCount: number, ...args: Array<string | number>): Promise<unknown>;
}

// A key's turns and cooldown are a hash (`next`, `closed`); a hold is a string naming its holder.
// Each script is one atomic step; a key outlives its last use by a minute, then Redis drops it.
const bookScript = `
local now = tonumber(ARGV[1])
local interval = tonumber(ARGV[2])
local state = redis.call('HMGET', KEYS[1], 'next', 'closed')
local start = math.max(now, tonumber(state[1] or '0'), tonumber(state[2] or '0'))
redis.call('HSET', KEYS[1], 'next', string.format('%.3f', start + interval))
redis.call('PEXPIRE', KEYS[1], math.ceil(start + interval - now) + 60000)
return string.format('%.3f', start)`;

const closeScript = `
local until_ = tonumber(ARGV[1])
local closed = math.max(until_, tonumber(redis.call('HGET', KEYS[1], 'closed') or '0'))
redis.call('HSET', KEYS[1], 'closed', string.format('%.3f', closed))
local ttl = redis.call('PTTL', KEYS[1])
local wanted = math.ceil(closed - tonumber(ARGV[2])) + 60000
if ttl < wanted then redis.call('PEXPIRE', KEYS[1], wanted) end
return 1`;

const closedScript = `return redis.call('HGET', KEYS[1], 'closed') or '0'`;

const holdScript = `
local holder = redis.call('GET', KEYS[1])
if holder == false or holder == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0`;

const letGoScript = `
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1`;

/** Limits' state in Redis (an ioredis client: what BullMQ workers already use), under `prefix`. */
export function redisLimitStore(redis: unknown, prefix = "planloop:limit:"): LimitStore {
  const client = redis as RedisClient;
  if (typeof client?.eval !== "function") throw new TypeError("shared.redis must be an ioredis client (it has no eval)");
  const turns = (key: string) => `${prefix}turns:${key}`;
  const holds = (key: string) => `${prefix}hold:${key}`;
  return {
    book: async (key, intervalMs, now) => Number(await client.eval(bookScript, 1, turns(key), now, intervalMs)),
    closeUntil: async (key, until) => {
      await client.eval(closeScript, 1, turns(key), until, Date.now());
    },
    closedUntil: async (key) => Number(await client.eval(closedScript, 1, turns(key))),
    hold: async (key, holder, until, now) =>
      (await client.eval(holdScript, 1, holds(key), holder, Math.max(1, Math.ceil(until - now)))) === 1,
    letGo: async (key, holder) => {
      await client.eval(letGoScript, 1, holds(key), holder);
    },
  };
}
