import { sha256Hex } from '@platform/crypto';
import type { Redis } from '@platform/redis';

/**
 * Failed-login bookkeeping for identifiers that name no account, kept in Redis so an unknown
 * username answers exactly like a real one: `remaining_attempts` counts down, and reaching
 * `max_login_attempts` answers 5300 for `lockout_duration_minutes`. Without it, a constant
 * `remaining_attempts` would reveal that the account does not exist. Identifiers are stored
 * hashed (case-folded, as usernames and emails are case-insensitive).
 */
const COUNT_TTL_MS = 86_400_000;

function keys(identifier: string) {
  const id = sha256Hex(identifier.toLowerCase());
  return { count: `auth:unknown-login:${id}:count`, locked: `auth:unknown-login:${id}:locked` };
}

/** Seconds left of a simulated lockout, 0 when none. */
export async function unknownLoginLockSeconds(redis: Redis, identifier: string): Promise<number> {
  const ttl = await redis.pttl(keys(identifier).locked);
  return ttl > 0 ? Math.ceil(ttl / 1000) : 0;
}

/** Counts one failure; returns the attempts used so far, and whether this one "locked" it. */
export async function recordUnknownLoginFailure(
  redis: Redis,
  identifier: string,
  maxAttempts: number,
  lockoutMinutes: number,
): Promise<{ failedAttempts: number; locked: boolean }> {
  const k = keys(identifier);
  const results = await redis.multi().incr(k.count).pexpire(k.count, COUNT_TTL_MS).exec();
  const failedAttempts = Number(results?.[0]?.[1] ?? 1);
  if (failedAttempts < maxAttempts) return { failedAttempts, locked: false };
  await redis
    .multi()
    .set(k.locked, '1', 'PX', lockoutMinutes * 60_000)
    .del(k.count)
    .exec();
  return { failedAttempts, locked: true };
}
