import { sha256Hex } from '@platform/crypto';
import type { Redis } from '@platform/redis';

/**
 * Failed-login bookkeeping for identifiers that name no account, kept in Redis so an unknown
 * username answers exactly like a real one: `remaining_attempts` counts down, and reaching
 * `max_login_attempts` answers 5300 for `lockout_duration_minutes`. Without it, a constant
 * `remaining_attempts` would reveal that the account does not exist. Identifiers are stored
 * hashed (case-folded, as usernames and emails are case-insensitive). Like a real account, an
 * attempt takes its place in the budget (one Lua script) before the dummy hash is verified, so a
 * parallel burst gets no more places than a sequential one.
 */
const COUNT_TTL_MS = 86_400_000;

function keys(identifier: string) {
  const id = sha256Hex(identifier.toLowerCase());
  return { count: `auth:unknown-login:${id}:count`, locked: `auth:unknown-login:${id}:locked` };
}

// A lock in force refuses; a full budget (places taken by attempts in flight) locks now;
// otherwise the attempt takes the next place. Returns {place, lock ms} (place 0: refused).
const RESERVE = `
local ttl = redis.call('PTTL', KEYS[2])
if ttl > 0 then return {0, ttl} end
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
if used >= tonumber(ARGV[1]) then
  redis.call('SET', KEYS[2], '1', 'PX', ARGV[2])
  redis.call('DEL', KEYS[1])
  return {0, tonumber(ARGV[2])}
end
used = redis.call('INCR', KEYS[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return {used, 0}`;

// The attempt at place ARGV[1] failed (an unknown identifier always does): the last place locks.
// Returns the lock's ms left (0: none).
const SETTLE = `
if tonumber(ARGV[1]) >= tonumber(ARGV[2]) then
  redis.call('SET', KEYS[2], '1', 'PX', ARGV[3], 'NX')
  redis.call('DEL', KEYS[1])
end
local ttl = redis.call('PTTL', KEYS[2])
if ttl > 0 then return ttl end
return 0`;

export type UnknownLoginPlace = { place: number } | { lockedSeconds: number };

/** Takes a place in the identifier's budget, or gives the seconds of the lock that refuses it. */
export async function reserveUnknownLogin(
  redis: Redis,
  identifier: string,
  maxAttempts: number,
  lockoutMinutes: number,
): Promise<UnknownLoginPlace> {
  const k = keys(identifier);
  const [place, lockMs] = (await redis.eval(
    RESERVE,
    2,
    k.count,
    k.locked,
    maxAttempts,
    lockoutMinutes * 60_000,
    COUNT_TTL_MS,
  )) as [number, number];
  return place > 0 ? { place } : { lockedSeconds: Math.max(1, Math.ceil(lockMs / 1000)) };
}

/** Records the failure of the attempt at `place`; returns the lock's seconds left, 0 when none. */
export async function settleUnknownLogin(
  redis: Redis,
  identifier: string,
  place: number,
  maxAttempts: number,
  lockoutMinutes: number,
): Promise<number> {
  const k = keys(identifier);
  const lockMs = (await redis.eval(
    SETTLE,
    2,
    k.count,
    k.locked,
    place,
    maxAttempts,
    lockoutMinutes * 60_000,
  )) as number;
  return lockMs > 0 ? Math.ceil(lockMs / 1000) : 0;
}
