import { sha256Hex } from '@platform/crypto';
import type { Redis } from '@platform/redis';

/**
 * Failed-login bookkeeping for identifiers that name no account, kept in Redis so an unknown
 * username answers exactly like a real one: `remaining_attempts` counts down, and reaching
 * `max_login_attempts` answers 5300 for `lockout_duration_minutes`. Without it, a constant
 * `remaining_attempts` would reveal that the account does not exist. Identifiers are stored
 * hashed (case-folded, as usernames and emails are case-insensitive). Like a real account's
 * budget (data/login-budget-repository.ts), an attempt takes a place (one Lua script) before the
 * dummy hash is verified, every place held means busy (the caller waits), and the failure that
 * settles as the `max`-th locks.
 */
const COUNT_TTL_MS = 86_400_000;
/** Places older than this were lost with their process (as IN_FLIGHT_STALE_SECONDS). */
const IN_FLIGHT_STALE_MS = 60_000;

function keys(identifier: string) {
  const prefix = `auth:unknown-login:${sha256Hex(identifier.toLowerCase())}`;
  return [`${prefix}:count`, `${prefix}:locked`, `${prefix}:failed`, `${prefix}:since`];
}

// KEYS: places taken (in flight + failed), lock, failures settled, latest place (expires when
// stale). A lock in force refuses; every place taken is busy unless the latest is stale (places
// lost with their process: an unknown identifier always fails, so they lock now); otherwise the
// attempt takes the next place. Returns {place, lock ms}: place 0 refused by the lock, -1 busy.
const RESERVE = `
local ttl = redis.call('PTTL', KEYS[2])
if ttl > 0 then return {0, ttl} end
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
if used >= tonumber(ARGV[1]) then
  if redis.call('EXISTS', KEYS[4]) == 1 then return {-1, 0} end
  redis.call('SET', KEYS[2], '1', 'PX', ARGV[2])
  redis.call('DEL', KEYS[1], KEYS[3])
  return {0, tonumber(ARGV[2])}
end
used = redis.call('INCR', KEYS[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('SET', KEYS[4], '1', 'PX', ARGV[4])
return {used, 0}`;

// One more failure settled (an unknown identifier always fails): the max-th locks.
// Returns {failures, lock ms left (0: none)}.
const SETTLE = `
local failed = redis.call('INCR', KEYS[3])
redis.call('PEXPIRE', KEYS[3], ARGV[3])
if failed >= tonumber(ARGV[1]) then
  redis.call('SET', KEYS[2], '1', 'PX', ARGV[2], 'NX')
  redis.call('DEL', KEYS[1], KEYS[3])
end
local ttl = redis.call('PTTL', KEYS[2])
if ttl > 0 then return {failed, ttl} end
return {failed, 0}`;

export type UnknownLoginPlace = { place: number } | { lockedSeconds: number };

/**
 * Takes a place in the identifier's budget, or gives the seconds of the lock that refuses it;
 * `'busy'` while every place is held by attempts in flight.
 */
export async function reserveUnknownLogin(
  redis: Redis,
  identifier: string,
  maxAttempts: number,
  lockoutMinutes: number,
): Promise<UnknownLoginPlace | 'busy'> {
  const [place, lockMs] = (await redis.eval(
    RESERVE,
    4,
    ...keys(identifier),
    maxAttempts,
    lockoutMinutes * 60_000,
    COUNT_TTL_MS,
    IN_FLIGHT_STALE_MS,
  )) as [number, number];
  if (place < 0) return 'busy';
  return place > 0 ? { place } : { lockedSeconds: Math.max(1, Math.ceil(lockMs / 1000)) };
}

/** Records one failure; returns the failures settled and the lock's seconds left (0: none). */
export async function settleUnknownLogin(
  redis: Redis,
  identifier: string,
  maxAttempts: number,
  lockoutMinutes: number,
): Promise<{ failedAttempts: number; lockedSeconds: number }> {
  const [failed, lockMs] = (await redis.eval(
    SETTLE,
    4,
    ...keys(identifier),
    maxAttempts,
    lockoutMinutes * 60_000,
    COUNT_TTL_MS,
  )) as [number, number];
  return { failedAttempts: failed, lockedSeconds: lockMs > 0 ? Math.ceil(lockMs / 1000) : 0 };
}
