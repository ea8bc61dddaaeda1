import type { RequestOrigin } from '@platform/grpc';
import { BusinessError, ErrorCode } from '@platform/errors';
import type { AccountRow } from '../../data/auth-account-repository.js';
import type { SiteSettings } from '../settings/site-settings.js';
import { accountAudit } from './account-audit.js';
import type { AuthDeps } from './auth-context.js';
import { issueSession, type IssuedSession, type SessionUser } from './issue-session.js';
import { loginOutcome } from './login-rules.js';

export const TOTP_CHALLENGE_SECONDS = 300;
export const TOTP_ENROLLMENT_SECONDS = 1800;

/** How a login that got past the password (or the SSO provider) ends: one of three variants. */
export type LoginOutcome =
  | { kind: 'session'; session: IssuedSession }
  | { kind: 'totp_required'; tempToken: string }
  | { kind: 'totp_setup_required'; tempToken: string };

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
): Promise<LoginOutcome> {
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
    return { kind: 'totp_required', tempToken: token };
  }
  if (outcome === 'totp_enrollment') {
    const { token } = await deps.tokens.issue(account.id, 'totp_enrollment', TOTP_ENROLLMENT_SECONDS);
    await audit('login.totp_enrollment_required', {});
    return { kind: 'totp_setup_required', tempToken: token };
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
  return { kind: 'session', session };
}
