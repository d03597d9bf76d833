import { checkClosingTime, type LimitStore } from "../core/limit-store.js";
import { clockSlackMs, longestCooldownMs } from "../core/next-turn.js";

/** The part of an ioredis client the store uses. */
interface RedisClient {
  eval(script: string, keyCount: number, ...args: Array<string | number>): Promise<unknown>;
}

// A key's turns and cooldown are a hash (`next`, `closed`); a hold is a string naming its holder.
// Each script is one atomic step; a key outlives its last use by a minute, then Redis drops it.
// `decideBooking` (src/core/booked-line.ts): a line booked on a clock set back since (its `at` ahead
// of now) moves back by as much; a cooldown further ahead than any can be is over.
const bookScript = `
local now, interval, notBefore = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local slack, longest = tonumber(ARGV[4]), tonumber(ARGV[5])
local state = redis.call('HMGET', KEYS[1], 'next', 'closed', 'at')
local nextAt, closed, at = tonumber(state[1] or '0'), tonumber(state[2] or '0'), tonumber(state[3] or '0')
local back = 0
if at > now + slack then back = at - now end
if closed > now + longest + slack then closed = 0 end
local start = math.max(notBefore, nextAt - back, closed)
local bookedAt = now
if back == 0 then bookedAt = math.max(at, now) end
redis.call('HSET', KEYS[1], 'next', string.format('%.17g', start + interval), 'closed', string.format('%.17g', closed),
  'at', string.format('%.17g', bookedAt))
redis.call('PEXPIRE', KEYS[1], math.max(0, math.ceil(math.max(start + interval, closed) - now)) + 60000)
return string.format('%.17g', start)`;

// `decideNextTurn` (src/core/next-turn.ts) in one script: a line booked on a clock set back since
// starts again from now; a turn is booked only once the one booked before has come.
const bookNextScript = `
local interval, now, slack, longest = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local state = redis.call('HMGET', KEYS[1], 'next', 'closed')
local nextAt, closed = tonumber(state[1] or '0'), tonumber(state[2] or '0')
if closed > now + longest + slack then closed = 0 end
if nextAt - interval > math.max(now + interval, closed) + slack then nextAt = now end
if nextAt - interval > now then return { 'retry', string.format('%.17g', nextAt - interval) } end
local start = math.max(now, nextAt, closed)
redis.call('HSET', KEYS[1], 'next', string.format('%.17g', start + interval), 'closed', string.format('%.17g', closed))
if redis.call('PTTL', KEYS[1]) < math.ceil(start + interval - now) + 60000 then
  redis.call('PEXPIRE', KEYS[1], math.ceil(start + interval - now) + 60000)
end
return { 'start', string.format('%.17g', start) }`;

// `decideFairTurn` (src/core/fair-turn.ts) in one script: the line's hash (`next`, `closed`,
// `mark`: the last turn's) and a hash of its tenants' claims ("mark since until" each).
// `test/limits/fair-turn-stores.test.ts` checks it against the TypeScript rule.
const bookFairScript = `
local tenant, interval, now, step, claimMs = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local slack, longest = tonumber(ARGV[6]), tonumber(ARGV[7])
local state = redis.call('HMGET', KEYS[1], 'next', 'closed', 'mark')
local nextAt, closed, lastMark = tonumber(state[1] or '0'), tonumber(state[2] or '0'), tonumber(state[3] or '0')
if closed > now + longest + slack then closed = 0 end
if nextAt - interval > math.max(now + interval, closed) + slack then nextAt = now end
local latest = math.max(now + interval, closed) + claimMs + slack
local all = redis.call('HGETALL', KEYS[2])
local claims = {}
for i = 1, #all, 2 do
  local m, s, u = string.match(all[i + 1], '^(%S+) (%S+) (%S+)$')
  claims[all[i]] = { tonumber(m), tonumber(s), tonumber(u) }
  if claims[all[i]][3] > latest then claims[all[i]][3] = 0 end
end
local own = claims[tenant] or { 0, 0, 0 }
local mark, since = math.max(own[1], lastMark), now
if own[3] > now then mark, since = own[1], own[2] end
local ahead = false
for other, c in pairs(claims) do
  if other ~= tenant and c[3] > now and (c[1] < mark or (c[1] == mark and c[2] < since)) then ahead = true end
end
local open = nextAt - interval <= now
local keep = 60000
if open and not ahead then
  local start = math.max(now, nextAt, closed)
  redis.call('HSET', KEYS[1], 'next', string.format('%.17g', start + interval), 'mark', string.format('%.17g', mark),
    'closed', string.format('%.17g', closed))
  redis.call('HSET', KEYS[2], tenant, string.format('%.17g %.17g %.17g', mark + step, now, start + interval))
  for other, c in pairs(claims) do
    if other ~= tenant and c[3] <= now and c[1] <= mark then redis.call('HDEL', KEYS[2], other) end
  end
  redis.call('PEXPIRE', KEYS[1], math.ceil(start + interval - now) + keep)
  redis.call('PEXPIRE', KEYS[2], math.ceil(start + interval - now) + keep)
  return { 'start', string.format('%.17g', start) }
end
local retryAt = nextAt - interval
if open then retryAt = math.max(nextAt, closed, now + interval) end
local untilAt = math.max(own[3], retryAt + claimMs)
redis.call('HSET', KEYS[2], tenant, string.format('%.17g %.17g %.17g', mark, since, untilAt))
if redis.call('PTTL', KEYS[2]) < math.ceil(untilAt - now) + keep then redis.call('PEXPIRE', KEYS[2], math.ceil(untilAt - now) + keep) end
return { 'retry', string.format('%.17g', retryAt) }`;

const closeScript = `
local until_, bound = tonumber(ARGV[1]), tonumber(ARGV[3])
local stored = tonumber(redis.call('HGET', KEYS[1], 'closed') or '0')
if stored > tonumber(ARGV[2]) + bound then stored = 0 end
local closed = math.max(until_, stored)
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

const renewScript = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1`;

const letGoScript = `
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1`;

// A ledger is a hash (spent and held tokens and dollars), kept two days after its last use.
const drawScript = `
local v = redis.call('HMGET', KEYS[1], 'st', 'sc', 'ht', 'hc')
local st, sc, ht, hc = tonumber(v[1] or '0'), tonumber(v[2] or '0'), tonumber(v[3] or '0'), tonumber(v[4] or '0')
local at, ac, ct, cc = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local held = 0
if st < ct and st + ht + at <= ct and sc < cc and sc + hc + ac <= cc then
  redis.call('HSET', KEYS[1], 'ht', string.format('%.17g', ht + at), 'hc', string.format('%.17g', hc + ac))
  held = 1
end
redis.call('PEXPIRE', KEYS[1], 172800000)
return { held, string.format('%.17g', st), string.format('%.17g', sc) }`;

const settleScript = `
redis.call('HINCRBYFLOAT', KEYS[1], 'ht', -tonumber(ARGV[1]))
redis.call('HINCRBYFLOAT', KEYS[1], 'hc', -tonumber(ARGV[2]))
redis.call('HINCRBYFLOAT', KEYS[1], 'st', ARGV[3])
redis.call('HINCRBYFLOAT', KEYS[1], 'sc', ARGV[4])
redis.call('PEXPIRE', KEYS[1], 172800000)
return 1`;

/** Limits' state in Redis (an ioredis client: what BullMQ workers already use), under `prefix`. */
export function redisLimitStore(redis: unknown, prefix = "planloop:limit:"): LimitStore {
  const client = redis as RedisClient;
  if (typeof client?.eval !== "function") throw new TypeError("shared.redis must be an ioredis client (it has no eval)");
  const turns = (key: string) => `${prefix}turns:${key}`;
  const holds = (key: string) => `${prefix}hold:${key}`;
  return {
    bookFair: async (key, { tenant, intervalMs, now, step, claimMs }) => {
      const [kind, at] = (await client.eval(
        bookFairScript,
        2,
        turns(key),
        `${prefix}claims:${key}`,
        tenant,
        intervalMs,
        now,
        step,
        claimMs,
        clockSlackMs,
        longestCooldownMs,
      )) as [string, string];
      return kind === "start" ? { start: Number(at) } : { retryAt: Number(at) };
    },
    bookNext: async (key, { intervalMs, now }) => {
      const [kind, at] = (await client.eval(bookNextScript, 1, turns(key), intervalMs, now, clockSlackMs, longestCooldownMs)) as [
        string,
        string,
      ];
      return kind === "start" ? { start: Number(at) } : { retryAt: Number(at) };
    },
    book: async (key, { intervalMs, now, notBefore }) =>
      Number(
        await client.eval(bookScript, 1, turns(key), now, intervalMs, Math.max(now, notBefore ?? now), clockSlackMs, longestCooldownMs),
      ),
    closeUntil: async (key, { until, now }) => {
      checkClosingTime(until);
      await client.eval(closeScript, 1, turns(key), until, now, longestCooldownMs + clockSlackMs);
    },
    closedUntil: async (key) => Number(await client.eval(closedScript, 1, turns(key))),
    // A hold is a key that Redis expires (PX) by its own clock: callers' clocks play no part.
    hold: async (key, { holder, holdMs }) => (await client.eval(holdScript, 1, holds(key), holder, Math.ceil(holdMs))) === 1,
    renew: async (key, { holder, holdMs }) => (await client.eval(renewScript, 1, holds(key), holder, Math.ceil(holdMs))) === 1,
    letGo: async (key, holder) => {
      await client.eval(letGoScript, 1, holds(key), holder);
    },
    draw: async (key, amount, ceiling) => {
      const [held, tokens, costUsd] = (await client.eval(
        drawScript,
        1,
        `${prefix}ledger:${key}`,
        amount.tokens,
        amount.costUsd,
        ceiling.tokens,
        ceiling.costUsd,
      )) as [number, string, string];
      return { held: held === 1, spent: { tokens: Number(tokens), costUsd: Number(costUsd) } };
    },
    settle: async (key, held, spent) => {
      await client.eval(settleScript, 1, `${prefix}ledger:${key}`, held.tokens, held.costUsd, spent.tokens, spent.costUsd);
    },
  };
}
