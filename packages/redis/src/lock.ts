import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';

const RELEASE_SCRIPT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0`;

const EXTEND_SCRIPT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0`;

export interface RedisLockOptions {
  /** Prepended to every lock key (after the client's own keyPrefix). Default `lock:`. */
  prefix?: string;
}

export interface RunExclusiveOptions {
  /**
   * Keep the lock until its TTL runs out instead of releasing it when `fn` finishes. Use this for
   * once-per-cluster scheduled jobs, so a replica whose timer fires a little later (clock skew, a
   * slow start) does not run the same slot again. Applies only when `fn` succeeded. Default false.
   */
  holdUntilExpiry?: boolean;
  /**
   * Extend the lock every `ttlMs / 3` while `fn` runs, so a job that outlives the TTL keeps it.
   * Default true (ignored while holding until expiry after `fn` returned).
   */
  autoExtend?: boolean;
}

/**
 * A single-instance Redis lock: `SET key token NX PX ttl` to take it, compare-and-delete (Lua) to
 * release, compare-and-PEXPIRE to extend. The token is random per acquisition, so only the holder
 * can release or extend. Not Redlock: with one Redis (or a failover that loses the key) two holders
 * are possible in rare cases, so the guarded work should still be idempotent.
 */
export class RedisLock {
  private readonly prefix: string;

  constructor(
    private readonly redis: Redis,
    options: RedisLockOptions = {},
  ) {
    this.prefix = options.prefix ?? 'lock:';
  }

  /** The token on success, `null` when someone else holds the lock. */
  async acquire(key: string, ttlMs: number): Promise<string | null> {
    assertTtl(ttlMs);
    const token = randomBytes(16).toString('hex');
    const result = await this.redis.set(this.prefix + key, token, 'PX', ttlMs, 'NX');
    return result === 'OK' ? token : null;
  }

  /** True when the lock was held with this token and is now released; a non-owner changes nothing. */
  async release(key: string, token: string): Promise<boolean> {
    const deleted = await this.redis.eval(RELEASE_SCRIPT, 1, this.prefix + key, token);
    return deleted === 1;
  }

  /** Resets the TTL to `ttlMs` if the lock is still held with this token. */
  async extend(key: string, token: string, ttlMs: number): Promise<boolean> {
    assertTtl(ttlMs);
    const extended = await this.redis.eval(EXTEND_SCRIPT, 1, this.prefix + key, token, String(ttlMs));
    return extended === 1;
  }

  /**
   * Runs `fn` only if the lock could be taken; resolves to whether it ran. Errors from `fn` propagate
   * (after the lock is released).
   */
  async runExclusive(
    key: string,
    ttlMs: number,
    fn: () => Promise<unknown> | unknown,
    options: RunExclusiveOptions = {},
  ): Promise<boolean> {
    const token = await this.acquire(key, ttlMs);
    if (token === null) return false;
    const timer =
      options.autoExtend === false
        ? undefined
        : setInterval(
            () => {
              this.extend(key, token, ttlMs).catch(() => undefined);
            },
            Math.max(10, Math.floor(ttlMs / 3)),
          );
    timer?.unref();
    let succeeded = false;
    try {
      await fn();
      succeeded = true;
      return true;
    } finally {
      if (timer) clearInterval(timer);
      // A failed run always releases so another replica (or the next tick) can retry it.
      if (!(succeeded && options.holdUntilExpiry)) await this.release(key, token).catch(() => undefined);
    }
  }
}

function assertTtl(ttlMs: number): void {
  if (!Number.isInteger(ttlMs) || ttlMs <= 0)
    throw new RangeError(`lock ttl must be a positive integer, got ${ttlMs}`);
}
