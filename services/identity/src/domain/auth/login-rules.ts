import type { AccountRow } from '../../data/auth-account-repository.js';
import type { SiteSettings } from '../settings/site-settings.js';

/**
 * The pure parts of password login, apart from the I/O that applies them (login-with-password.ts,
 * complete-login.ts): the lockout arithmetic and the outcome order of steps 4-8.
 */

/** Whether a lock is in force at `now` (a lock that has run out is no lock). */
export function isLocked(lockedUntil: Date | null, now: number): boolean {
  return lockedUntil !== null && lockedUntil.getTime() > now;
}

/** Whole seconds of a lock left at `now`, at least 1 while locked (the 5300 `lockout_seconds`). */
export function lockSecondsLeft(lockedUntil: Date | null, now: number): number {
  if (!lockedUntil || !isLocked(lockedUntil, now)) return 0;
  return Math.max(1, Math.ceil((lockedUntil.getTime() - now) / 1000));
}

/** `remaining_attempts` of a 2003 after `failedAttempts` failures, never below 0. */
export function remainingAttempts(maxAttempts: number, failedAttempts: number): number {
  return Math.max(0, maxAttempts - failedAttempts);
}

/** The failure that reaches `max_login_attempts` locks the account. */
export function reachesLockout(failedAttempts: number, maxAttempts: number): boolean {
  return failedAttempts >= maxAttempts;
}

export type LoginOutcome =
  'pending_approval' | 'inactive' | 'totp_challenge' | 'totp_enrollment' | 'email_not_verified' | 'token';

type OutcomeAccount = Pick<
  AccountRow,
  'approval_status' | 'is_active' | 'totp_enabled' | 'email_verified' | 'is_superuser'
>;

/**
 * Steps 4-8 of the spec's login outcome order for an account whose identity is established:
 * 4 pending approval, then inactive (2004) · 5 TOTP challenge · 6 TOTP enrollment (`require_totp`)
 * · 7 unverified email (5004, superusers excepted) · 8 full token.
 */
export function loginOutcome(
  account: OutcomeAccount,
  settings: Pick<SiteSettings, 'require_totp' | 'email_verification'>,
): LoginOutcome {
  if (account.approval_status !== 'approved') return 'pending_approval';
  if (!account.is_active) return 'inactive';
  if (account.totp_enabled) return 'totp_challenge';
  if (settings.require_totp) return 'totp_enrollment';
  if (settings.email_verification && !account.email_verified && !account.is_superuser) {
    return 'email_not_verified';
  }
  return 'token';
}
