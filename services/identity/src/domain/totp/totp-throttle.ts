import type { Redis } from '@platform/redis';

/** Spec (Limits): 5 failures within 300 s lock verification for 900 s. */
export const TOTP_THROTTLE = { maxFailures: 5, windowSeconds: 300, lockSeconds: 900 } as const;

const failuresKey = (userId: string) => `totp:failures:${userId}`;
const lockKey = (userId: string) => `totp:locked:${userId}`;
const lastStepKey = (userId: string) => `totp:last-step:${userId}`;

// Count a failure in a fixed window opened by the first one; the failure that reaches the limit
// sets the lock and clears the count. Atomic, so concurrent guesses cannot slip past the limit.
const RECORD_FAILURE = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
if count >= tonumber(ARGV[2]) then
  redis.call('SET', KEYS[2], '1', 'EX', ARGV[3])
  redis.call('DEL', KEYS[1])
  return 1
end
return 0`;

// Accept a time step only if it is newer than the last one accepted for this user.
const CLAIM_STEP = `
local last = tonumber(redis.call('GET', KEYS[1]) or '-1')
if tonumber(ARGV[1]) <= last then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
return 1`;

/**
 * Per-user TOTP verification throttle and replay guard, in Redis. Per user (not per temp token):
 * a new password login must not buy a fresh set of guesses.
 */
export class TotpThrottle {
  constructor(private readonly redis: Redis) {}

  /** Seconds the user's verification stays locked; 0 when not locked. */
  async lockedSeconds(userId: string): Promise<number> {
    const ttl = await this.redis.ttl(lockKey(userId));
    return ttl > 0 ? ttl : 0;
  }

  /** Records a failed code; true when this failure locked verification. */
  async recordFailure(userId: string): Promise<boolean> {
    const locked = await this.redis.eval(
      RECORD_FAILURE,
      2,
      failuresKey(userId),
      lockKey(userId),
      TOTP_THROTTLE.windowSeconds,
      TOTP_THROTTLE.maxFailures,
      TOTP_THROTTLE.lockSeconds,
    );
    return locked === 1;
  }

  async clearFailures(userId: string): Promise<void> {
    await this.redis.del(failuresKey(userId));
  }

  /** The last accepted step (codes of it and earlier steps are refused), if any. */
  async lastStep(userId: string): Promise<number | undefined> {
    const value = await this.redis.get(lastStepKey(userId));
    return value === null ? undefined : Number(value);
  }

  /** Marks `step` used; false when it (or a later one) was already used, e.g. a concurrent replay. */
  async claimStep(userId: string, step: number): Promise<boolean> {
    // Kept past the ±1 step tolerance window; older steps are refused by time anyway.
    const claimed = await this.redis.eval(CLAIM_STEP, 1, lastStepKey(userId), step, 120);
    return claimed === 1;
  }
}
