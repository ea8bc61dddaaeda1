import { randomUUID } from 'node:crypto';
import type { Redis } from '@platform/redis';

/**
 * Per-user counted places in Redis, shared by every replica: open run streams and `wait: true`
 * calls. One sorted set per user and kind (member = a place's id, score = when it lapses, in
 * Redis's own clock so replicas' clocks never matter). Taking a place is one Lua script (drop the
 * lapsed, count, add), so a burst on several replicas gets exactly `limit`. A holder renews its
 * place while it lasts; a process that dies without releasing loses its places after `ttlMs`.
 */
const TAKE = `
local now = redis.call('TIME')
local nowMs = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', nowMs)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], nowMs + tonumber(ARGV[3]), ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1`;

const RENEW = `
if redis.call('ZSCORE', KEYS[1], ARGV[1]) == false then return 0 end
local now = redis.call('TIME')
local nowMs = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
redis.call('ZADD', KEYS[1], nowMs + tonumber(ARGV[2]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`;

export type FollowerKind = 'streams' | 'waits';

/** A place held until `release()`; renewed in the background meanwhile. */
export interface HeldPlace {
  release(): Promise<void>;
}

export class FollowerSlots {
  constructor(
    private readonly redis: Redis,
    private readonly ttlMs = 30_000,
  ) {}

  /** A place for `userId` of `kind`, or null when the user already holds `limit` of them. */
  async take(kind: FollowerKind, userId: string, limit: number): Promise<HeldPlace | null> {
    const key = `workflows:followers:{${userId}}:${kind}`;
    const id = randomUUID();
    const taken = await this.redis.eval(TAKE, 1, key, limit, id, this.ttlMs);
    if (taken !== 1) return null;
    const renew = setInterval(
      () => void this.redis.eval(RENEW, 1, key, id, this.ttlMs).catch(() => undefined),
      Math.floor(this.ttlMs / 3),
    );
    renew.unref();
    let released = false;
    return {
      release: async () => {
        if (released) return;
        released = true;
        clearInterval(renew);
        await this.redis.zrem(key, id).catch(() => undefined);
      },
    };
  }
}
