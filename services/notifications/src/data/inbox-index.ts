import { randomUUID } from 'node:crypto';
import type { Redis } from '@platform/redis';

/**
 * The inbox read model in Redis: what the first page and the unread count need, so they cost a few
 * Redis calls instead of reading every visible notification (docs/notifications.md, "Inbox read
 * model"). MongoDB stays the source of truth; this is a cache of it, built per unit on demand:
 *
 * - an audience unit (`a:<audience>`): a sorted set of notification ids by `created_at` (ms), and a
 *   second one of the expiring ids by `expires_at` (ms);
 * - a reader unit (`r:<user id>`): a hash of the notifications that user has read,
 *   id → `<audience>|<expires ms or empty>|<read_at ms>`.
 *
 * A unit is usable while its marker holds the current epoch (see inbox-read-model.ts). A build
 * drops the marker, logs every write made meanwhile, stages the units' rows from MongoDB, then
 * replays the log onto them and publishes them in one script: a write that MongoDB got after the
 * build's scan began is never lost. Keys of one unit share a hash tag (one cluster slot).
 */
export type UnitKind = 'a' | 'r';

export interface Unit {
  kind: UnitKind;
  /** The audience (`g`, `t:<team>`, `u:<user>`) or the reader's user id. */
  name: string;
}

/** One change to a unit: `+|<id>|<created ms>|<expires ms>` or `+|<id>|<value>`, or `-|<id>`. */
export type UnitOp = string;

export interface AudienceTop {
  /** Visible (not expired at `now`) notifications in the audience. */
  count: number;
  /** The newest visible ones, newest first: [id, created ms]. */
  top: [string, number][];
}

const APPLY = `
local function apply(kind, data, expiring, op)
  local action, rest = string.sub(op, 1, 1), string.sub(op, 3)
  if kind == 'a' then
    if action == '+' then
      local id, created, expires = string.match(rest, '^([^|]*)|([^|]*)|([^|]*)$')
      redis.call('ZADD', data, created, id)
      if expires ~= '' then redis.call('ZADD', expiring, expires, id) end
    else
      redis.call('ZREM', data, rest)
      redis.call('ZREM', expiring, rest)
    end
  elseif action == '+' then
    local id, value = string.match(rest, '^([^|]*)|(.*)$')
    -- the first read record of a pair stands, as in MongoDB (unique _id)
    redis.call('HSETNX', data, id, value)
  else
    redis.call('HDEL', data, rest)
  end
end
`;

// KEYS: marker, building, log, data, expiring. ARGV: kind, log cap, ops…
// A ready unit takes the ops; a unit being built logs them for the build to replay; else nothing
// (the next reader builds it from MongoDB, which already has the change). A log that would pass
// its cap abandons the build instead (lease and log dropped: that build publishes nothing), so a
// burst of writes during a slow build cannot grow one list, or the replay, without bound.
const WRITE = `${APPLY}
if redis.call('EXISTS', KEYS[1]) == 1 then
  for i = 3, #ARGV do apply(ARGV[1], KEYS[4], KEYS[5], ARGV[i]) end
  local ttl = redis.call('PTTL', KEYS[1])
  for _, key in ipairs({KEYS[4], KEYS[5]}) do
    if ttl > 0 and redis.call('PTTL', key) == -1 then redis.call('PEXPIRE', key, ttl + 60000) end
  end
  return 1
end
local lease = redis.call('PTTL', KEYS[2])
if lease > 0 then
  if redis.call('LLEN', KEYS[3]) + #ARGV - 2 > tonumber(ARGV[2]) then
    redis.call('DEL', KEYS[2], KEYS[3])
    return 3
  end
  for i = 3, #ARGV do redis.call('RPUSH', KEYS[3], ARGV[i]) end
  redis.call('PEXPIRE', KEYS[3], lease)
  return 2
end
return 0
`;

// KEYS: marker, building, log. ARGV: token, lease ms. One build at a time per unit.
const BEGIN_BUILD = `
if redis.call('SET', KEYS[2], ARGV[1], 'NX', 'PX', ARGV[2]) == false then return 0 end
redis.call('DEL', KEYS[1], KEYS[3])
return 1
`;

// KEYS: marker, building, log, data, expiring, staged data, staged expiring.
// ARGV: token, epoch, ttl ms, kind.
const FINISH_BUILD = `${APPLY}
if redis.call('GET', KEYS[2]) ~= ARGV[1] then
  redis.call('DEL', KEYS[6], KEYS[7])
  return 0
end
for _, op in ipairs(redis.call('LRANGE', KEYS[3], 0, -1)) do apply(ARGV[4], KEYS[6], KEYS[7], op) end
redis.call('DEL', KEYS[4], KEYS[5])
local ttl = tonumber(ARGV[3])
for i = 6, 7 do
  if redis.call('EXISTS', KEYS[i]) == 1 then
    redis.call('RENAME', KEYS[i], KEYS[i - 2])
    redis.call('PEXPIRE', KEYS[i - 2], ttl + 60000)
  end
end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ttl)
redis.call('DEL', KEYS[2], KEYS[3])
return 1
`;

// KEYS: marker, data, expiring. ARGV: epoch, now ms, wanted, scan cap.
// -1 when the unit is not ready for this epoch; -2 when more than `scan cap` entries would have to
// be read (wanted that deep, or that many expired ones to step over): the caller asks MongoDB;
// else {count, id, created, id, created, …}.
const AUDIENCE_TOP = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return -1 end
local now, wanted, cap = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
if wanted > cap then return -2 end
local size = redis.call('ZCARD', KEYS[2])
local count = size - redis.call('ZCOUNT', KEYS[3], '-inf', now)
local out, start = {count}, 0
while #out - 1 < wanted * 2 and start < size do
  if start >= cap then return -2 end
  local stop = math.min(start + wanted, cap) - 1
  local chunk = redis.call('ZREVRANGE', KEYS[2], start, stop, 'WITHSCORES')
  if #chunk == 0 then break end
  for i = 1, #chunk, 2 do
    local expires = redis.call('ZSCORE', KEYS[3], chunk[i])
    if not expires or tonumber(expires) > now then
      out[#out + 1] = chunk[i]
      out[#out + 1] = chunk[i + 1]
      if #out - 1 >= wanted * 2 then break end
    end
  end
  start = stop + 1
end
return out
`;

// KEYS: marker, data. ARGV: epoch. -1 when not ready; else the hash's fields and values.
const READER_ROWS = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return -1 end
return redis.call('HGETALL', KEYS[2])
`;

const STAGE_CHUNK = 500;
const BUILD_LEASE_MS = 60_000;

/** Bounds on what one script may read or hold (docs/notifications.md, "Inbox read model"). */
export interface InboxIndexLimits {
  /** Entries of one audience a page read may scan (the page's depth plus expired ones skipped). */
  maxScan: number;
  /** Writes logged during one build before the build is abandoned. */
  maxLog: number;
}

export const INBOX_INDEX_LIMITS: InboxIndexLimits = { maxScan: 20_000, maxLog: 50_000 };

export class InboxIndex {
  private readonly base: string;

  /**
   * @param namespace separates stores sharing one Redis (the MongoDB database name).
   * @param ttlMs how long a built unit is trusted: the bound on how stale a unit can be after a
   *   process died between its MongoDB write and its Redis write.
   */
  constructor(
    private readonly redis: Redis,
    keyPrefix: string,
    namespace: string,
    private readonly ttlMs: number,
    private readonly limits: InboxIndexLimits = INBOX_INDEX_LIMITS,
  ) {
    this.base = `${keyPrefix}inbox:${namespace}:`;
  }

  private keys(unit: Unit) {
    const tag = `${this.base}{${unit.kind}:${unit.name}}`;
    return {
      marker: `${tag}:ok`,
      building: `${tag}:building`,
      log: `${tag}:log`,
      data: `${tag}:data`,
      expiring: `${tag}:expiring`,
      staged: (token: string) => [`${tag}:stage:${token}`, `${tag}:stage:${token}:x`] as const,
    };
  }

  /** Which units are ready for this epoch. */
  async ready(units: readonly Unit[], epoch: string): Promise<boolean[]> {
    if (units.length === 0) return [];
    const markers = await this.redis.mget(...units.map((unit) => this.keys(unit).marker));
    return markers.map((marker) => marker === epoch);
  }

  /** Applies ops to a unit (see WRITE for what happens when it is not ready). */
  async write(unit: Unit, ops: readonly UnitOp[]): Promise<void> {
    const k = this.keys(unit);
    // in order, a bounded number of arguments per script call (mark-all can read thousands)
    for (let start = 0; start < ops.length; start += STAGE_CHUNK) {
      const chunk = ops.slice(start, start + STAGE_CHUNK);
      await this.redis.eval(
        WRITE,
        5,
        k.marker,
        k.building,
        k.log,
        k.data,
        k.expiring,
        unit.kind,
        this.limits.maxLog,
        ...chunk,
      );
    }
  }

  /** Starts a build: its token, or null when another build of the unit is running. */
  async beginBuild(unit: Unit): Promise<string | null> {
    const k = this.keys(unit);
    const token = randomUUID();
    const began = await this.redis.eval(BEGIN_BUILD, 3, k.marker, k.building, k.log, token, BUILD_LEASE_MS);
    return began === 1 ? token : null;
  }

  /** Stages a build's rows, then publishes the unit for `epoch` (false: the build lost its lease). */
  async finishBuild(unit: Unit, token: string, epoch: string, rows: readonly StagedRow[]): Promise<boolean> {
    const k = this.keys(unit);
    const [stagedData, stagedExpiring] = k.staged(token);
    for (let start = 0; start < rows.length; start += STAGE_CHUNK) {
      const pipeline = this.redis.pipeline();
      for (const row of rows.slice(start, start + STAGE_CHUNK)) {
        if (row.kind === 'reader') {
          pipeline.hsetnx(stagedData, row.id, row.value);
        } else {
          pipeline.zadd(stagedData, row.created, row.id);
          if (row.expires !== null) pipeline.zadd(stagedExpiring, row.expires, row.id);
        }
      }
      pipeline.pexpire(stagedData, BUILD_LEASE_MS);
      pipeline.pexpire(stagedExpiring, BUILD_LEASE_MS);
      // A pipeline resolves with per-command errors instead of throwing: a partly staged unit must
      // never be published.
      const failed = (await pipeline.exec())?.find(([error]) => error);
      if (failed) throw failed[0];
    }
    const finished = await this.redis.eval(
      FINISH_BUILD,
      7,
      k.marker,
      k.building,
      k.log,
      k.data,
      k.expiring,
      stagedData,
      stagedExpiring,
      token,
      epoch,
      this.ttlMs,
      unit.kind,
    );
    return finished === 1;
  }

  /** Count and newest `wanted` visible ids of one audience, or null when it is not ready or too deep. */
  async audienceTop(
    audience: string,
    epoch: string,
    now: number,
    wanted: number,
  ): Promise<AudienceTop | null> {
    const k = this.keys({ kind: 'a', name: audience });
    const reply = (await this.redis.eval(
      AUDIENCE_TOP,
      3,
      k.marker,
      k.data,
      k.expiring,
      epoch,
      now,
      wanted,
      this.limits.maxScan,
    )) as number | (string | number)[];
    if (!Array.isArray(reply)) return null;
    const top: [string, number][] = [];
    for (let i = 1; i < reply.length; i += 2) top.push([String(reply[i]), Number(reply[i + 1])]);
    return { count: Number(reply[0]), top };
  }

  /** A reader's rows (id → value), or null when the unit is not ready. */
  async readerRows(userId: string, epoch: string): Promise<Map<string, string> | null> {
    const k = this.keys({ kind: 'r', name: userId });
    const reply = (await this.redis.eval(READER_ROWS, 2, k.marker, k.data, epoch)) as number | string[];
    if (!Array.isArray(reply)) return null;
    const rows = new Map<string, string>();
    for (let i = 0; i < reply.length; i += 2) rows.set(reply[i]!, reply[i + 1]!);
    return rows;
  }
}

/** A row of a build: an audience's notification, or a reader's read record. */
export type StagedRow =
  | { kind: 'audience'; id: string; created: number; expires: number | null }
  | { kind: 'reader'; id: string; value: string };

/** The op that adds a notification to its audience unit. */
export function audienceAdd(id: string, createdMs: number, expiresMs: number | null): UnitOp {
  return `+|${id}|${createdMs}|${expiresMs ?? ''}`;
}

/** A reader row's value: `<audience>|<expires ms or empty>|<read_at ms>`. */
export function readerValue(audience: string, expiresMs: number | null, readAtMs: number): string {
  return `${audience}|${expiresMs ?? ''}|${readAtMs}`;
}

/** The op that records a read in its reader unit. */
export function readerAdd(id: string, value: string): UnitOp {
  return `+|${id}|${value}`;
}

export function removal(id: string): UnitOp {
  return `-|${id}`;
}

/** A reader row's parts. */
export function parseReaderValue(value: string): {
  audience: string;
  expires: number | null;
  readAt: number;
} {
  const [readAt, expires, ...audience] = value.split('|').reverse();
  return {
    audience: audience.reverse().join('|'),
    expires: expires ? Number(expires) : null,
    readAt: Number(readAt),
  };
}
