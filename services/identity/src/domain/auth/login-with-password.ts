import type { RequestOrigin } from '@platform/grpc';
import { BusinessError, ErrorCode } from '@platform/errors';
import { writeAudit } from '../../data/audit-repository.js';
import {
  findAccountByLogin,
  replacePasswordHash,
  type AccountRow,
} from '../../data/auth-account-repository.js';
import { settleFailedLogin, settleSuccessfulLogin } from '../../data/login-budget-repository.js';
import { notifyUser } from '../identity-events.js';
import type { SiteSettings } from '../settings/site-settings.js';
import { accountAudit, type AccountAudit } from './account-audit.js';
import type { AuthDeps } from './auth-context.js';
import { requireCaptcha } from './captcha-check.js';
import { completeLogin, type LoginOutcome } from './complete-login.js';
import {
  accountLocked as locked,
  takeAccountPlace,
  tooManyAttemptsInFlight,
  waitForPlace,
} from './login-budget.js';
import { lockSecondsLeft, remainingAttempts } from './login-rules.js';
import { reserveUnknownLogin, settleUnknownLogin } from './unknown-login-attempts.js';

export interface PasswordLoginInput {
  /** Username or email. */
  username: string;
  password: string;
  captchaId?: string;
  captchaToken?: string;
  /** Legacy: the proof when `captchaToken` is absent (or empty). */
  captchaAnswer?: string;
}

const wrongPassword = (maxAttempts: number, failedAttempts: number) =>
  new BusinessError(ErrorCode.INVALID_CREDENTIALS, {
    httpStatus: 400,
    data: { remaining_attempts: remainingAttempts(maxAttempts, failedAttempts) },
  });

/**
 * `POST /login/access-token`. The captcha (when `enable_captcha`) is checked first, before any
 * account lookup, so an unsolved captcha reveals nothing. Then the spec's "Login outcome order":
 * 1 SSO-only 6306 · 2 locked 5300 · 3 wrong password 2003 (locking at `max_login_attempts` → 5300)
 * · 4 inactive or pending 2004 · 5 TOTP challenge · 6 TOTP enrollment · 7 unverified email 5004 ·
 * 8 full token.
 */
export async function loginWithPassword(
  deps: AuthDeps,
  input: PasswordLoginInput,
  meta: RequestOrigin,
): Promise<LoginOutcome> {
  const settings = await deps.settings.current();
  const proof = input.captchaToken || input.captchaAnswer;
  await requireCaptcha(deps.captcha, settings.enable_captcha, input.captchaId, proof);
  if (settings.sso_enabled && !settings.sso_allow_password_login) {
    throw new BusinessError(ErrorCode.PASSWORD_LOGIN_DISABLED, { httpStatus: 400 });
  }

  const account = await findAccountByLogin(deps.pool, input.username);
  if (!account) return refuseUnknownAccount(deps, input, settings, meta);

  const audit = accountAudit(deps, account.id, meta);

  // 2: locked; or every place held by attempts being checked for the whole wait (not a failure)
  const place = await takeAccountPlace(deps, account.id, settings);
  if (place === 'busy') {
    await audit('login.failure', { reason: 'attempts_in_flight' });
    throw tooManyAttemptsInFlight(settings.max_login_attempts);
  }
  if (place.outcome === 'locked') {
    await audit('login.failure', { reason: 'locked' });
    if (place.lockedNow) {
      // Failures that reached a limit lowered since they were counted: they lock now.
      const lockedUntil = new Date(Date.now() + place.lockedSeconds * 1000);
      announceLock(deps, account.id, settings, settings.max_login_attempts, lockedUntil);
      await audit('account.locked', {
        failed_attempts: settings.max_login_attempts,
        reason: 'limit_lowered',
      });
    }
    throw locked(place.lockedSeconds);
  }
  // 3: wrong password (an account without a password, e.g. SSO-only, never matches)
  if (!(await deps.passwords.verify(input.password, account.password_hash))) {
    await refuseWrongPassword(deps, account, settings, audit);
  }
  const lockedSeconds = await settleSuccessfulLogin(deps.pool, account.id);
  if (lockedSeconds > 0) {
    // A lock came into force while the password was checked (only a lowered limit can do that).
    await audit('login.failure', { reason: 'locked_during_check' });
    throw locked(lockedSeconds);
  }
  await rehashIfOutdated(deps, account, input.password);
  return completeLogin(deps, account, settings, meta, 'password');
}

async function refuseWrongPassword(
  deps: AuthDeps,
  account: AccountRow,
  settings: SiteSettings,
  audit: AccountAudit,
): Promise<never> {
  const { failedAttempts, lockedUntil, lockedNow } = await settleFailedLogin(
    deps.pool,
    account.id,
    settings.max_login_attempts,
    settings.lockout_duration_minutes,
  );
  await audit('login.failure', { reason: 'wrong_password', failed_attempts: failedAttempts });
  if (lockedUntil && !lockedNow) throw locked(lockSecondsLeft(lockedUntil, Date.now()));
  if (lockedUntil) {
    await audit('account.locked', {
      failed_attempts: failedAttempts,
      locked_until: lockedUntil.toISOString(),
    });
    announceLock(deps, account.id, settings, failedAttempts, lockedUntil);
    throw locked(settings.lockout_duration_minutes * 60);
  }
  throw wrongPassword(settings.max_login_attempts, failedAttempts);
}

/**
 * Tells the owner that their account was locked; best effort after the lock (it has no
 * transaction of its own), since failing the login answer for a lost notification would be worse.
 */
export function announceLock(
  deps: AuthDeps,
  userId: string,
  settings: SiteSettings,
  failedAttempts: number,
  lockedUntil: Date,
): void {
  void notifyUser(deps.pool, {
    type: 'security.account_locked',
    userId,
    title: 'Your account was locked',
    content: `After ${failedAttempts} failed sign-in attempts your account is locked for ${settings.lockout_duration_minutes} minutes.`,
    level: 'high',
    data: {
      failed_attempts: failedAttempts,
      lockout_minutes: settings.lockout_duration_minutes,
      locked_until: lockedUntil.toISOString(),
    },
  }).catch((err: unknown) => deps.logger.error({ err }, 'account-locked notification not stored'));
}

/**
 * No such account: the same work (a full hash verification) and the same answers as a real one,
 * counted per identifier in Redis (see unknown-login-attempts.ts). Redis down → a constant
 * `remaining_attempts` of max − 1.
 */
async function refuseUnknownAccount(
  deps: AuthDeps,
  input: PasswordLoginInput,
  settings: SiteSettings,
  meta: RequestOrigin,
): Promise<never> {
  await writeAudit(deps.pool, {
    actorUserId: null,
    action: 'login.failure',
    ip: meta.ip,
    userAgent: meta.userAgent,
    requestId: meta.requestId,
    details: { reason: 'unknown_user' },
  });
  const skipped = (err: unknown) =>
    deps.logger.warn({ err }, 'unknown-login bookkeeping skipped: Redis unavailable');
  const { max_login_attempts: max, lockout_duration_minutes: minutes } = settings;
  const take = () =>
    reserveUnknownLogin(deps.redis, input.username, max, minutes).catch((err: unknown) => {
      skipped(err);
      return { place: 1 };
    });
  // The same wait and the same answers as a real account's budget.
  const place = await waitForPlace(take, deps.config.LOGIN_PLACE_WAIT_MS);
  if (place === 'busy') throw tooManyAttemptsInFlight(max);
  if ('lockedSeconds' in place) throw locked(place.lockedSeconds);
  await deps.passwords.verifyDummy(input.password);
  const settled = await settleUnknownLogin(deps.redis, input.username, max, minutes).catch((err: unknown) => {
    skipped(err);
    return { failedAttempts: 1, lockedSeconds: 0 };
  });
  if (settled.lockedSeconds > 0) throw locked(settled.lockedSeconds);
  throw wrongPassword(max, settled.failedAttempts);
}

async function rehashIfOutdated(deps: AuthDeps, account: AccountRow, password: string): Promise<void> {
  if (!account.password_hash || !deps.passwords.needsRehash(account.password_hash)) return;
  try {
    await replacePasswordHash(deps.pool, account.id, await deps.passwords.hash(password));
  } catch (err) {
    deps.logger.warn({ err, user_id: account.id }, 'password rehash failed; the old hash stays valid');
  }
}
