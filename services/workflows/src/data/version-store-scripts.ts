/**
 * Lua scripts of the ephemeral version store (version-store.ts). Redis runs each one atomically, so
 * a status change, the index moves it implies and the TTL refresh are never seen half done, and two
 * publishes can never both leave their version `published`.
 *
 * KEYS (all under one workflow's hash tag, so they share a cluster slot):
 *   1 meta (hash id → record JSON without bodies)   2 body (hash `id|nodes`, `id|edges`, `id|config`)
 *   3 all (zset id → sequence)                      4 draft, 5 published, 6 archived (zsets, same scores)
 *   7 seq (counter giving each version its place in the history)
 */
const COMMON = `
local function status_key(status)
  if status == 'draft' then return KEYS[4] end
  if status == 'published' then return KEYS[5] end
  if status == 'archived' then return KEYS[6] end
  error('unknown status ' .. tostring(status))
end

local function move(id, to, now)
  local meta = cjson.decode(redis.call('HGET', KEYS[1], id))
  if meta.status == to then return meta end
  local score = redis.call('ZSCORE', KEYS[3], id)
  redis.call('ZREM', status_key(meta.status), id)
  redis.call('ZADD', status_key(to), score, id)
  meta.status = to
  meta.updated_at = now
  redis.call('HSET', KEYS[1], id, cjson.encode(meta))
  return meta
end

-- Every other published version moves to 'demote_to': at most one version is ever published, so
-- the scan is clamped (a set that somehow grew is still drained a bounded step at a time).
local function demote_published(except, demote_to, now)
  local demoted = {}
  for _, other in ipairs(redis.call('ZRANGE', KEYS[5], 0, 15)) do
    if other ~= except then
      move(other, demote_to, now)
      table.insert(demoted, other)
    end
  end
  return demoted
end

-- Keeps at most 'cap' versions: the oldest ones that are not published go (drafts and archived
-- alike; there is no other way to remove a version). At most one version is published, so the
-- 'excess + 1' oldest always hold enough candidates. At most 100 per write: a cap lowered by
-- configuration is reached over the next writes instead of in one long script.
local function evict_over(cap)
  local evicted = {}
  local excess = math.min(redis.call('ZCARD', KEYS[3]) - cap, 100)
  if excess <= 0 then return evicted end
  for _, id in ipairs(redis.call('ZRANGE', KEYS[3], 0, excess)) do
    if #evicted >= excess then break end
    if not redis.call('ZSCORE', KEYS[5], id) then
      table.insert(evicted, redis.call('HGET', KEYS[1], id) or '{}')
      redis.call('HDEL', KEYS[1], id)
      redis.call('HDEL', KEYS[2], id .. '|nodes', id .. '|edges', id .. '|config')
      redis.call('ZREM', KEYS[3], id)
      redis.call('ZREM', KEYS[4], id)
      redis.call('ZREM', KEYS[6], id)
    end
  end
  return evicted
end

-- 30 days after the last write: every write refreshes the whole key space of the workflow.
local function touch(ttl)
  for i = 1, 7 do redis.call('EXPIRE', KEYS[i], ttl) end
end
`;

/**
 * ARGV: id, meta JSON (its `status` is the initial one), demote_to ('' = none), now, ttl seconds,
 * nodes JSON, edges JSON, config JSON, the most versions the workflow keeps.
 * Returns {sequence, {demoted ids…}, {meta JSON of each evicted version…}}.
 */
export const CREATE_VERSION = `${COMMON}
local id, meta_json, demote_to, now, ttl = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5]
local status = cjson.decode(meta_json).status
local seq = redis.call('INCR', KEYS[7])
local demoted = {}
if status == 'published' and demote_to ~= '' then demoted = demote_published(id, demote_to, now) end
redis.call('HSET', KEYS[1], id, meta_json)
redis.call('HSET', KEYS[2], id .. '|nodes', ARGV[6], id .. '|edges', ARGV[7], id .. '|config', ARGV[8])
redis.call('ZADD', KEYS[3], seq, id)
redis.call('ZADD', status_key(status), seq, id)
local evicted = evict_over(tonumber(ARGV[9]))
touch(ttl)
return {seq, demoted, evicted}
`;

/**
 * ARGV: id, target status, demote_to (for `published`: what the previously published version
 * becomes), now, ttl seconds. Returns {meta JSON, demoted ids…}, or nil when the version is unknown.
 */
export const SET_STATUS = `${COMMON}
local id, to, demote_to, now, ttl = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5]
if redis.call('HEXISTS', KEYS[1], id) == 0 then return nil end
local demoted = {}
if to == 'published' then demoted = demote_published(id, demote_to, now) end
local meta = move(id, to, now)
touch(ttl)
local result = {cjson.encode(meta)}
for _, other in ipairs(demoted) do table.insert(result, other) end
return result
`;
