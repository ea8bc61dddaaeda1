import { setTimeout as sleep } from 'node:timers/promises';
import { BusinessError, ErrorCode } from '@platform/errors';
import { reserveLoginAttempt, type LoginPlace } from '../../data/login-budget-repository.js';
import type { SiteSettings } from '../settings/site-settings.js';
import type { AuthDeps } from './auth-context.js';

/**
 * A waiting attempt looks again after 20 ms, doubling up to 250 ms (plus up to as much jitter, so
 * waiters spread out): a place usually frees within one password check, and a crowd of waiters
 * must not turn into a stream of row-lock statements on the shared database.
 */
const FIRST_POLL_MS = 20;
const MAX_POLL_MS = 250;

/**
 * Tries `take` until it finds anything but `'busy'` (every place held by attempts being checked)
 * or `waitMs` has passed; a budget still busy then comes back as `'busy'`. Waiting rather than
 * refusing at once means a burst of right passwords all get in (each success gives its place
 * back), and a burst of wrong ones all see the lock their first `max` members set.
 */
export async function waitForPlace<T>(take: () => Promise<T | 'busy'>, waitMs: number): Promise<T | 'busy'> {
  const deadline = Date.now() + waitMs;
  for (let pollMs = FIRST_POLL_MS; ; pollMs = Math.min(MAX_POLL_MS, pollMs * 2)) {
    const place = await take();
    const left = deadline - Date.now();
    if (place !== 'busy' || left <= 0) return place;
    await sleep(Math.min(left, pollMs + Math.random() * pollMs));
  }
}

export type AccountPlace = Exclude<LoginPlace, { outcome: 'busy' }> | 'busy';

/** A place in the account's budget, waiting up to `LOGIN_PLACE_WAIT_MS` for one to come free. */
export function takeAccountPlace(
  deps: Pick<AuthDeps, 'pool' | 'config'>,
  userId: string,
  settings: Pick<SiteSettings, 'max_login_attempts' | 'lockout_duration_minutes'>,
): Promise<AccountPlace> {
  const take = async () => {
    const place = await reserveLoginAttempt(
      deps.pool,
      userId,
      settings.max_login_attempts,
      settings.lockout_duration_minutes,
    );
    return place.outcome === 'busy' ? 'busy' : place;
  };
  return waitForPlace(take, deps.config.LOGIN_PLACE_WAIT_MS);
}

/** 400 / 5400: every place stayed taken for the whole wait. Not a failure, and it locks nothing. */
export function tooManyAttemptsInFlight(maxAttempts: number): BusinessError {
  return BusinessError.named('login_attempts_in_flight', { data: { limit: maxAttempts } });
}

export const accountLocked = (seconds: number) =>
  new BusinessError(ErrorCode.ACCOUNT_LOCKED, { data: { lockout_seconds: Math.max(1, seconds) } });
