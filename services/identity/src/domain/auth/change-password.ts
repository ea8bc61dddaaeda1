import type { RequestOrigin } from '@platform/grpc';
import { BusinessError, ErrorCode } from '@platform/errors';
import type { Principal } from '@platform/grpc';
import { writeAudit } from '../../data/audit-repository.js';
import { findAccountById, storeChangedPassword } from '../../data/auth-account-repository.js';
import { notifyUser } from '../../events/publish-events.js';
import { requirePrincipal } from '../rbac/require-principal.js';
import type { AuthDeps } from './auth-context.js';
import { passwordChangeReason } from './issue-session.js';
import { assertPasswordPolicy } from './password-policy.js';

const HOUR_MS = 3_600_000;

export interface ChangePasswordInput {
  currentPassword: string;
  newPassword: string;
}

/**
 * `POST /users/me/change-password`. Order: wrong current password 2003 (HTTP 400; it does not
 * count towards the login lockout) → `password_min_age_hours` not yet passed 5306 (waived while a
 * change is forced or the password has expired: the user must be able to comply) → policy 1001
 * with `data.errors.new_password`. Success dates the password, clears `force_password_change`,
 * audits `password.changed` and sends `security.password_changed`. Other sessions stay valid.
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
  if (!(await deps.passwords.verify(input.currentPassword, account.password_hash))) {
    throw BusinessError.named('current_password_incorrect');
  }
  const settings = await deps.settings.current();
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

  await storeChangedPassword(deps.pool, account.id, await deps.passwords.hash(input.newPassword));
  await writeAudit(deps.pool, {
    actorUserId: account.id,
    action: 'password.changed',
    targetType: 'user',
    targetId: account.id,
    ip: meta.ip,
    userAgent: meta.userAgent,
    requestId: meta.requestId,
    details: { forced: account.force_password_change },
  });
  void notifyUser(deps, {
    type: 'security.password_changed',
    userId: account.id,
    title: 'Your password was changed',
    content: 'The password of your account was just changed. If this was not you, reset it at once.',
    level: 'high',
    data: { ip: meta.ip, user_agent: meta.userAgent },
  });
}
