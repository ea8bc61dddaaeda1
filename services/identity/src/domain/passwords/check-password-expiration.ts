import { withTransaction } from '@platform/db';
import { calendarDaysBetween, localDate } from '@platform/runtime';
import {
  claimPasswordNotice,
  deleteReplacedPasswordNotices,
  findPasswordExpiryCandidates,
  type PasswordExpiryCandidate,
} from '../../data/password-expiry-repository.js';
import { notifyUser, type UserNotification } from '../identity-events.js';
import type { IdentityDependencies } from '../../deps.js';

export const PASSWORD_EXPIRY_TASK = 'tasks.check_password_expiration';
/** The spec reminds only at exactly these numbers of days remaining (inside the warning window). */
export const PASSWORD_REMINDER_DAYS = [7, 3, 1];
const DAY_MS = 86_400_000;

type Notice = { kind: 'expiring' | 'expired'; daysRemaining: number };

export type PasswordExpiryDeps = Pick<IdentityDependencies, 'pool' | 'settings' | 'logger'>;

/**
 * What to send for one password today, if anything. It expires `maxAgeDays` after it was set
 * (what login enforces: `reason: expired` once that has passed); reminders at exactly 7, 3 or 1
 * calendar days remaining (server time), only those inside the warning window.
 */
export function passwordNoticeFor(expiresAt: Date, now: Date, warningDays: number): Notice | null {
  if (now.getTime() > expiresAt.getTime()) return { kind: 'expired', daysRemaining: 0 };
  const days = calendarDaysBetween(now, expiresAt);
  const thresholds = PASSWORD_REMINDER_DAYS.filter((d) => d <= warningDays);
  return thresholds.includes(days) ? { kind: 'expiring', daysRemaining: days } : null;
}

function noticeEvent(
  user: PasswordExpiryCandidate,
  notice: Notice,
  expiresAt: Date,
  now: Date,
): UserNotification {
  const expiring = notice.kind === 'expiring';
  return {
    // Deterministic per user, password and threshold: the notifications service's idempotency key.
    id: `password.${notice.kind}:${user.id}:${user.password_version}:${notice.daysRemaining}`,
    type: `password.${notice.kind}`,
    userId: user.id,
    title: expiring ? 'Password expiring soon' : 'Password expired',
    content: expiring
      ? `Your password expires in ${notice.daysRemaining} day(s). Change it to keep signing in without interruption.`
      : 'Your password has expired. You will be asked to change it at your next sign-in.',
    level: expiring ? 'medium' : 'high',
    data: { expires_at: expiresAt.toISOString(), days_remaining: notice.daysRemaining },
    occurredAt: now,
  };
}

/**
 * `tasks.check_password_expiration`: `password.expiring` at exactly 7, 3 and 1 calendar days
 * before a password expires (those inside `password_expiration_warning_days`), `password.expired`
 * once it has; nothing while `password_max_age_days` is 0 (passwords never expire). Each notice
 * once per user, password and threshold: its claim and its outbox event commit together.
 * Idempotent: safe to rerun any time, from any replica, concurrently.
 */
export async function checkPasswordExpiration(deps: PasswordExpiryDeps, now = new Date()) {
  const result = { expiring_sent: 0, expired_sent: 0 };
  const settings = await deps.settings.current();
  const maxAgeDays = settings.password_max_age_days;
  if (maxAgeDays > 0) {
    await deleteReplacedPasswordNotices(deps.pool);
    const until = new Date(now.getTime() + 8 * DAY_MS);
    for (const user of await findPasswordExpiryCandidates(deps.pool, maxAgeDays, until)) {
      const expiresAt = new Date(user.password_set_at.getTime() + maxAgeDays * DAY_MS);
      const notice = passwordNoticeFor(expiresAt, now, settings.password_expiration_warning_days);
      if (!notice) continue;
      const claim = {
        userId: user.id,
        passwordVersion: user.password_version,
        ...notice,
        sentOn: localDate(now),
      };
      const queued = await withTransaction(deps.pool, async (tx) => {
        if (!(await claimPasswordNotice(tx, claim))) return false;
        await notifyUser(tx, noticeEvent(user, notice, expiresAt, now));
        return true;
      });
      if (queued && notice.kind === 'expiring') result.expiring_sent += 1;
      else if (queued) result.expired_sent += 1;
    }
  }
  deps.logger.info(
    { task: PASSWORD_EXPIRY_TASK, now: now.toISOString(), ...result },
    'password expiry check done',
  );
  return result;
}
