import { withTransaction } from '@platform/db';
import { BusinessError, ErrorCode } from '@platform/errors';
import type { Principal, RequestOrigin } from '@platform/grpc';
import { writeAudit } from '../../data/audit-repository.js';
import { findAccountById, storeChangedPassword } from '../../data/auth-account-repository.js';
import { settleFailedLogin, settleSuccessfulLogin } from '../../data/login-budget-repository.js';
import { notifyUser } from '../identity-events.js';
import { endUserSessions } from '../admin-users/principal-changes.js';
import { requirePrincipal } from '@platform/rbac';
import type { SiteSettings } from '../settings/site-settings.js';
import type { AuthDeps } from './auth-context.js';
import { passwordChangeReason } from './issue-session.js';
import { accountLocked as locked, takeAccountPlace, tooManyAttemptsInFlight } from './login-budget.js';
import { lockSecondsLeft, remainingAttempts } from './login-rules.js';
import { assertPasswordPolicy } from './password-policy.js';

const HOUR_MS = 3_600_000;

export interface ChangePasswordInput {
  currentPassword: string;
  newPassword: string;
  /** The request's own access token: kept valid, every other earlier token of the user ends. */
  token?: string;
}

/** The jti of the request's own token when it is a valid access token of this user, else ''. */
async function requestJti(deps: AuthDeps, token: string | undefined, userId: string): Promise<string> {
  if (!token) return '';
  const claims = await deps.tokens.verify(token, 'access').catch(() => undefined);
  return claims?.sub === userId ? claims.jti : '';
}

/**
 * The current password is a guess like a login's: it takes its place in the same lockout budget
 * before it is checked (a locked account answers 5300 without a check; every place held by
 * checks in flight for the whole wait 5400), a wrong one counts as a
 * failed login (the one that reaches `max_login_attempts` locks and answers 5300), a right one
 * settles its place like a successful login.
 */
async function checkCurrentPassword(
  deps: AuthDeps,
  userId: string,
  passwordHash: string | null,
  currentPassword: string,
  settings: SiteSettings,
): Promise<void> {
  const { max_login_attempts: max, lockout_duration_minutes: minutes } = settings;
  const place = await takeAccountPlace(deps, userId, settings);
  if (place === 'busy') throw tooManyAttemptsInFlight(max);
  if (place.outcome === 'locked') throw locked(place.lockedSeconds);
  if (!(await deps.passwords.verify(currentPassword, passwordHash))) {
    const { failedAttempts, lockedUntil } = await settleFailedLogin(deps.pool, userId, max, minutes);
    if (lockedUntil) throw locked(lockSecondsLeft(lockedUntil, Date.now()));
    throw BusinessError.named('current_password_incorrect', {
      data: { remaining_attempts: remainingAttempts(max, failedAttempts) },
    });
  }
  const lockedSeconds = await settleSuccessfulLogin(deps.pool, userId);
  if (lockedSeconds > 0) throw locked(lockedSeconds);
}

/**
 * `POST /users/me/change-password`. Order: wrong current password 2003 (HTTP 400; it counts
 * towards the login lockout, see `checkCurrentPassword`; a locked account answers 5300) → `password_min_age_hours` not yet passed 5306 (waived while a
 * change is forced or the password has expired: the user must be able to comply) → policy 1001
 * with `data.errors.new_password`. Success dates the password, clears `force_password_change`,
 * audits `password.changed` and sends `security.password_changed`. Every other token of the user
 * issued before the change ends at once; the token that made the request stays valid (the client
 * that just proved the password keeps its session).
 */
export async function changePassword(
  deps: AuthDeps,
  principal: Principal | undefined,
  input: ChangePasswordInput,
  meta: RequestOrigin,
): Promise<void> {
  const caller = requirePrincipal(principal);
  const account = await findAccountById(deps.pool, caller.user_id);
  if (!account) throw new BusinessError(ErrorCode.INVALID_TOKEN, { httpStatus: 401 });
  const settings = await deps.settings.current();
  await checkCurrentPassword(deps, account.id, account.password_hash, input.currentPassword, settings);
  const mustChange = passwordChangeReason(account, settings) !== undefined;
  const minAgeMs = settings.password_min_age_hours * HOUR_MS;
  if (!mustChange && minAgeMs > 0 && account.password_changed_at) {
    const earliest = account.password_changed_at.getTime() + minAgeMs;
    if (earliest > Date.now()) {
      throw new BusinessError(ErrorCode.PASSWORD_MIN_AGE_NOT_MET, {
        data: { remaining_seconds: Math.ceil((earliest - Date.now()) / 1000) },
      });
    }
  }
  assertPasswordPolicy(input.newPassword, settings, 'new_password', meta.locale);

  const passwordHash = await deps.passwords.hash(input.newPassword);
  // The change, its audit row and its notification commit together.
  await withTransaction(deps.pool, async (tx) => {
    await storeChangedPassword(tx, account.id, passwordHash);
    await writeAudit(tx, {
      actorUserId: account.id,
      action: 'password.changed',
      targetType: 'user',
      targetId: account.id,
      ip: meta.ip,
      userAgent: meta.userAgent,
      requestId: meta.requestId,
      details: { forced: account.force_password_change },
    });
    await notifyUser(tx, {
      type: 'security.password_changed',
      userId: account.id,
      title: 'Your password was changed',
      content: 'The password of your account was just changed. If this was not you, reset it at once.',
      level: 'high',
      data: { ip: meta.ip, user_agent: meta.userAgent },
    });
  });
  await endUserSessions(deps, account.id, await requestJti(deps, input.token, account.id));
}
