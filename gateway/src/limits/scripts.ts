import { holdWritesPerTurn, type RedisClient } from '@evidence-record/platform';

/**
 * The gateway's two Redis round trips per request, each one Lua script run
 * with EVALSHA (ioredis `defineCommand` falls back to EVAL on NOSCRIPT).
 */

/**
 * Before the upstream: check and count the key's minute, hour and day
 * windows in one atomic step, for each of the key's requests gathered while
 * the connection's writes were held, in the order they asked (`rate-windows.ts`).
 * A window opens with the first request counted in it and lasts its length.
 * A request is admitted only if every window has room and the key is not in
 * an extraction cool-down; a refused request counts nothing. Each request
 * sees the counts of the ones before it, exactly as if each had run a script
 * of its own (Redis's clock stands still while a script runs), so one script
 * for several requests changes nothing a request is told (decision 0301).
 *
 * KEYS: minute, hour, day window counters, cool-down flag (all `{k:<keyId>}`)
 * ARGV: minute, hour, day limits; then one flag per request: '1' to count, '0' to only read
 * Returns: the cool-down flag and its ms-to-expiry, ms-to-reset of each window,
 *          then for each request: admitted, and its count in each window.
 */
export const RATE_WINDOWS_LUA = `
local lengths = {60000, 3600000, 86400000}
local limits = {tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])}
local cool = redis.call('GET', KEYS[4])
local coolMs = 0
if cool then
  coolMs = redis.call('PTTL', KEYS[4])
else
  cool = ''
end
local counts, resets, fresh, added = {}, {}, {}, {0, 0, 0}
for i = 1, 3 do
  local ttl = redis.call('PTTL', KEYS[i])
  counts[i], fresh[i] = 0, true
  if ttl == -1 then
    redis.call('DEL', KEYS[i])
    ttl = lengths[i]
  elseif ttl == -2 then
    ttl = lengths[i]
  else
    counts[i], fresh[i] = tonumber(redis.call('GET', KEYS[i]) or '0'), false
  end
  resets[i] = ttl
end
local out = {cool, coolMs, resets[1], resets[2], resets[3]}
for r = 4, #ARGV do
  local admitted = 1
  if cool ~= '' then admitted = 0 end
  for i = 1, 3 do
    if counts[i] >= limits[i] then admitted = 0 end
  end
  if admitted == 1 and ARGV[r] == '1' then
    for i = 1, 3 do
      counts[i] = counts[i] + 1
      added[i] = added[i] + 1
    end
  end
  out[#out + 1] = admitted
  out[#out + 1] = counts[1]
  out[#out + 1] = counts[2]
  out[#out + 1] = counts[3]
end
for i = 1, 3 do
  if added[i] > 0 then
    redis.call('INCRBY', KEYS[i], added[i])
    if fresh[i] then redis.call('PEXPIRE', KEYS[i], lengths[i]) end
  end
end
return out
`;

/**
 * After the upstream answered: charge the organisation's daily budget for
 * the distinct entities the answer names, and update the key's extraction
 * score, in one atomic step. Entities already named today cost nothing. If
 * the new ones would cross the budget, or the score crosses a threshold, the
 * answer is withheld and nothing is charged.
 *
 * KEYS: budget set of the day and kind, score state hash, today's not-found
 *       ids, today's resolve/search identifiers, today's date windows, days
 *       the budget was met (all `{o:<orgId>}`)
 * ARGV: now ms, day number, budget limit (-1: nothing to charge), seconds a
 *       daily set lives, observation kind, observation value, observation
 *       filter, scoring policy (JSON), entity ids...
 * Returns: outcome, spent, used today, score, points added, reasons, evidence
 *          (JSON), how many of the entities (in the order given) fit the
 *          budget as a prefix, how many of them are new today
 */
export const SETTLE_LUA = `
local now = tonumber(ARGV[1])
local today = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
local dayTtl = tonumber(ARGV[4])
local obsKind, obsValue, obsFilter = ARGV[5], ARGV[6], ARGV[7]
local p = cjson.decode(ARGV[8])
local entities = {}
for i = 9, #ARGV do entities[#entities + 1] = ARGV[i] end

local fresh = {}
local used = 0
local overBudget = false
-- The longest prefix of the entities (a page's Signals, in page order) whose new ones fit what is
-- left: the gateway asks the service for a page that long (docs/decisions/0312-partial-pages-within-the-budget.md).
local fits = #entities
if limit >= 0 and #entities > 0 then
  used = redis.call('SCARD', KEYS[1])
  local known = redis.call('SMISMEMBER', KEYS[1], unpack(entities))
  for i, e in ipairs(entities) do
    if known[i] == 0 then fresh[#fresh + 1] = e end
  end
  overBudget = used + #fresh > limit
  if overBudget then
    local room, taken = limit - used, 0
    fits = 0
    for i = 1, #entities do
      if known[i] == 0 then
        if taken >= room then break end
        taken = taken + 1
      end
      fits = i
    end
  end
end

local function patterned(a, b)
  if not a or #a ~= #b or a == b then return false end
  local diff = 0
  for i = 1, #a do
    if a:byte(i) ~= b:byte(i) then
      diff = diff + 1
      if diff > p.pattern_max_differences then return false end
    end
  end
  return true
end

local state = redis.call('HMGET', KEYS[2], 'score', 'at', 'last_not_found', 'exhaustion_scored_on')
local score = tonumber(state[1] or '0')
local at = tonumber(state[2] or ARGV[1])
if now > at then score = score * math.pow(0.5, (now - at) / p.half_life_ms) end
local points = 0
local reasons = {}
local evidence = {}
local function add(n, reason)
  points = points + n
  reasons[#reasons + 1] = reason
end
local function distinct(key, value, allowance, per, reason, label)
  if redis.call('SADD', key, value) == 1 then
    redis.call('EXPIRE', key, dayTtl)
    local n = redis.call('SCARD', key)
    evidence[label] = n
    if n > allowance then add(per, reason) end
  end
end

if obsKind == 'since' then
  -- Following the feed moves since forward; a since older than one this key
  -- already followed with the same filters is a window sliding backwards.
  local field = 'since:' .. obsFilter
  local newest = redis.call('HGET', KEYS[2], field)
  if newest and obsValue < newest then
    obsKind, obsValue = 'window', 'since:' .. obsFilter .. ':' .. obsValue
  elseif not newest or obsValue > newest then
    redis.call('HSET', KEYS[2], field, obsValue)
    redis.call('PEXPIRE', KEYS[2], p.state_ttl_ms)
  end
end
if obsKind == 'not_found' then
  distinct(KEYS[3], obsValue, p.not_found_allowance, p.not_found_points, 'distinct_not_found_ids', 'distinct_not_found_today')
  if patterned(state[3], obsValue) then add(p.pattern_points, 'patterned_ids') end
  redis.call('HSET', KEYS[2], 'last_not_found', obsValue)
  redis.call('PEXPIRE', KEYS[2], p.state_ttl_ms)
elseif obsKind == 'identifier' then
  distinct(KEYS[4], obsValue, p.identifier_allowance, p.identifier_points, 'identifier_sweep', 'distinct_identifiers_today')
elseif obsKind == 'window' then
  distinct(KEYS[5], obsValue, p.window_allowance, p.window_points, 'date_windows', 'distinct_windows_today')
end

if overBudget then
  redis.call('SADD', KEYS[6], today)
  redis.call('PEXPIRE', KEYS[6], p.state_ttl_ms)
  local recent = 0
  for _, d in ipairs(redis.call('SMEMBERS', KEYS[6])) do
    if tonumber(d) > today - p.exhaustion_span_days then recent = recent + 1 else redis.call('SREM', KEYS[6], d) end
  end
  evidence['budget_met_days'] = recent
  if recent >= p.exhaustion_days and tonumber(state[4] or '-1') ~= today then
    add(p.exhaustion_points, 'budget_exhaustion_day_after_day')
    redis.call('HSET', KEYS[2], 'exhaustion_scored_on', today)
  end
end

if points > 0 then
  score = score + points
  redis.call('HSET', KEYS[2], 'score', tostring(score), 'at', ARGV[1])
  redis.call('PEXPIRE', KEYS[2], p.state_ttl_ms)
end

local outcome = 'deliver'
if points > 0 and score >= p.suspend_at then
  outcome = 'suspend'
elseif points > 0 and score >= p.refuse_at then
  outcome = 'cool_down'
elseif overBudget then
  outcome = 'over_budget'
end

local spent = 0
if outcome == 'deliver' and #fresh > 0 then
  redis.call('SADD', KEYS[1], unpack(fresh))
  redis.call('EXPIRE', KEYS[1], dayTtl)
  spent = #fresh
end
local evidenceJson = '{}'
if next(evidence) ~= nil then evidenceJson = cjson.encode(evidence) end
return {outcome, spent, used + spent, tostring(score), tostring(points), table.concat(reasons, ','), evidenceJson, fits, #fresh}
`;

/**
 * The key's MCP protocol window (docs/decisions/0605): one minute, opened
 * by the first message counted in it, like the rate windows. `admit` counts
 * the messages only if they all fit; `add` counts them whatever the count
 * (messages already answered, reported by the MCP service).
 *
 * KEYS: the protocol window counter (`{k:<keyId>}`)
 * ARGV: limit, number of messages, 'admit' or 'add'
 * Returns: admitted, count, ms to reset
 */
export const PROTOCOL_WINDOW_LUA = `
local length = 60000
local limit, n = tonumber(ARGV[1]), tonumber(ARGV[2])
local ttl = redis.call('PTTL', KEYS[1])
local count = 0
local fresh = false
if ttl < 0 then
  if ttl == -1 then redis.call('DEL', KEYS[1]) end
  ttl = length
  fresh = true
else
  count = tonumber(redis.call('GET', KEYS[1]) or '0')
end
local admitted = 1
if ARGV[3] == 'admit' and count + n > limit then admitted = 0 end
if admitted == 1 and n > 0 then
  count = redis.call('INCRBY', KEYS[1], n)
  if fresh then redis.call('PEXPIRE', KEYS[1], length) end
end
return {admitted, count, ttl}
`;

export interface GatewayScripts {
  /** Sends a key's requests gathered over the held turns (rate-windows.ts, from the hold's release, while the writes are still held). */
  erRateWindows(...args: (string | number)[]): Promise<(string | number)[]>;
  erProtocolWindow(key: string, limit: number, messages: number, mode: 'admit' | 'add'): Promise<[number, number, number]>;
  erSettle(...args: (string | number)[]): Promise<[string, number, number, string, string, string, string, number, number]>;
  /** Holds the connection's writes for this turn of the event loop and the next, running `issue` just before they leave (platform `holdWritesPerTurn`). */
  holdWrites(issue?: () => void): void;
}

/** Every script the gateway runs, by command name (gateway/test/redis-cluster.test.ts runs each on a Redis Cluster). */
export const gatewayScripts: { readonly [K in Exclude<keyof GatewayScripts, 'holdWrites'>]: { numberOfKeys: number; lua: string } } = {
  erRateWindows: { numberOfKeys: 4, lua: RATE_WINDOWS_LUA },
  erSettle: { numberOfKeys: 6, lua: SETTLE_LUA },
  erProtocolWindow: { numberOfKeys: 1, lua: PROTOCOL_WINDOW_LUA },
};

/**
 * Defines the scripts on the connection. Each is sent after the I/O of its turn of the event loop and
 * the next, together with the other commands of those turns, in one write (platform
 * `holdWritesPerTurn`, decision 1800). The rate windows' script is issued by the hold itself, as the
 * writes are let go, for each key's requests gathered while they were held (rate-windows.ts).
 */
export function installScripts(redis: RedisClient): RedisClient & GatewayScripts {
  const hold = holdWritesPerTurn(redis);
  const scripted = redis as RedisClient & GatewayScripts & Record<string, unknown>;
  for (const [name, definition] of Object.entries(gatewayScripts)) {
    redis.defineCommand(name, definition);
    const send = scripted[name] as (this: unknown, ...args: unknown[]) => Promise<unknown>;
    // A plain function: in a pipeline (which copies the connection's script commands) `this` is the pipeline.
    scripted[name] = function (this: unknown, ...args: unknown[]) {
      hold();
      return send.apply(this, args);
    };
  }
  scripted.holdWrites = hold;
  return scripted;
}
