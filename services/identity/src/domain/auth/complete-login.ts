import type { RequestOrigin } from '@platform/grpc';
import type { LoginResult } from '@platform/contracts/platform/identity/v1/auth';
import { BusinessError, ErrorCode } from '@platform/errors';
import type { AccountRow } from '../../data/auth-account-repository.js';
import type { SiteSettings } from '../settings/site-settings.js';
import { accountAudit } from './account-audit.js';
import type { AuthDeps } from './auth-context.js';
import { issueSession, type SessionUser } from './issue-session.js';
import { loginOutcome } from './login-rules.js';

export const TOTP_CHALLENGE_SECONDS = 300;
export const TOTP_ENROLLMENT_SECONDS = 1800;

export const EMPTY_LOGIN_RESULT: LoginResult = {
  access_token: '',
  token_type: '',
  requires_totp: false,
  requires_totp_setup: false,
  temp_token: '',
  force_password_change: false,
  reason: '',
};

/**
 * Login steps 4-8 for an account whose identity is established (right password, or an SSO
 * provider's ID token): 4 inactive or pending 2004 · 5 TOTP challenge · 6 TOTP enrollment ·
 * 7 unverified email 5004 · 8 full token through `issueSession` (`method` goes to the audit).
 * `sessionUser` lets a caller decide which forced-change facts apply (SSO: see sso docs).
 */
export async function completeLogin(
  deps: AuthDeps,
  account: AccountRow,
  settings: SiteSettings,
  meta: RequestOrigin,
  method: string,
  sessionUser: SessionUser = account,
): Promise<LoginResult> {
  const audit = accountAudit(deps, account.id, meta, { method });
  const outcome = loginOutcome(account, settings);
  // 4: inactive or pending
  if (outcome === 'pending_approval') {
    await audit('login.failure', { reason: 'pending_approval' });
    throw BusinessError.named('account_pending_approval');
  }
  if (outcome === 'inactive') {
    await audit('login.failure', { reason: 'inactive' });
    throw new BusinessError(ErrorCode.INACTIVE_USER, { httpStatus: 400 });
  }
  // 5, 6: two-factor
  if (outcome === 'totp_challenge') {
    const { token } = await deps.tokens.issue(account.id, 'totp_challenge', TOTP_CHALLENGE_SECONDS);
    await audit('login.totp_challenge', {});
    return { ...EMPTY_LOGIN_RESULT, requires_totp: true, temp_token: token };
  }
  if (outcome === 'totp_enrollment') {
    const { token } = await deps.tokens.issue(account.id, 'totp_enrollment', TOTP_ENROLLMENT_SECONDS);
    await audit('login.totp_enrollment_required', {});
    return { ...EMPTY_LOGIN_RESULT, requires_totp_setup: true, temp_token: token };
  }
  // 7: email verification (superusers excepted)
  if (outcome === 'email_not_verified') {
    await audit('login.failure', { reason: 'email_not_verified' });
    throw new BusinessError(ErrorCode.EMAIL_NOT_VERIFIED, { data: { email: account.email } });
  }
  // 8: full token
  const session = await issueSession(deps, sessionUser, {
    ip: meta.ip,
    userAgent: meta.userAgent,
    requestId: meta.requestId,
    method,
  });
  return {
    ...EMPTY_LOGIN_RESULT,
    access_token: session.access_token,
    token_type: session.token_type,
    force_password_change: session.force_password_change ?? false,
    reason: session.reason ?? '',
  };
}
