import type { Redis } from '@platform/redis';

/** Spec (Limits): 5 failures within 300 s lock verification for 900 s. */
export const TOTP_THROTTLE = { maxFailures: 5, windowSeconds: 300, lockSeconds: 900 } as const;

const failuresKey = (userId: string) => `totp:failures:${userId}`;
const lockKey = (userId: string) => `totp:locked:${userId}`;
const lastStepKey = (userId: string) => `totp:last-step:${userId}`;

// Every check takes a place in the budget BEFORE the code is evaluated: a lock in force refuses
// ({0, lock seconds}); so does a budget whose places are all taken by failures and checks in
// flight ({0, seconds until the window closes}); otherwise the next place ({place, 0}). The count
// lives in a fixed window opened by the first place.
const RESERVE = `
local ttl = redis.call('TTL', KEYS[2])
if ttl > 0 then return {0, ttl} end
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
if used >= tonumber(ARGV[2]) then
  return {0, math.max(1, redis.call('TTL', KEYS[1]))}
end
used = redis.call('INCR', KEYS[1])
if used == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return {used, 0}`;

// A wrong code at place ARGV[1]: its place stays counted; the last place sets the lock.
const SETTLE_FAILURE = `
if tonumber(ARGV[1]) >= tonumber(ARGV[2]) then
  redis.call('SET', KEYS[2], '1', 'EX', ARGV[3], 'NX')
  redis.call('DEL', KEYS[1])
  return 1
end
return 0`;

// A right code at place ARGV[1]: it and the places taken before it are forgiven; places taken
// after it (checks still in flight) stay counted.
const SETTLE_SUCCESS = `
local left = redis.call('DECRBY', KEYS[1], ARGV[1])
if left <= 0 then redis.call('DEL', KEYS[1]) end
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

  /** Takes a place in the user's budget before a code is evaluated, or says for how long not. */
  async reserve(userId: string): Promise<{ place: number } | { lockedSeconds: number }> {
    const [place, seconds] = (await this.redis.eval(
      RESERVE,
      2,
      failuresKey(userId),
      lockKey(userId),
      TOTP_THROTTLE.windowSeconds,
      TOTP_THROTTLE.maxFailures,
    )) as [number, number];
    return place > 0 ? { place } : { lockedSeconds: Math.max(1, seconds) };
  }

  /** The code at `place` was wrong; true when this failure locked verification. */
  async settleFailure(userId: string, place: number): Promise<boolean> {
    const locked = await this.redis.eval(
      SETTLE_FAILURE,
      2,
      failuresKey(userId),
      lockKey(userId),
      place,
      TOTP_THROTTLE.maxFailures,
      TOTP_THROTTLE.lockSeconds,
    );
    return locked === 1;
  }

  /** The code at `place` was right. */
  async settleSuccess(userId: string, place: number): Promise<void> {
    await this.redis.eval(SETTLE_SUCCESS, 1, failuresKey(userId), place);
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
