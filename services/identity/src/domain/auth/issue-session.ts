import { writeAudit } from '../../data/audit-repository.js';
import { recordSuccessfulLogin } from '../../data/auth-account-repository.js';
import type { SiteSettings } from '../settings/site-settings.js';
import type { AuthDeps } from './auth-context.js';
import { checkLoginAnomaly } from './login-anomaly.js';

const DAY_SECONDS = 86_400;

/** What `issueSession` needs to know about the user. */
export interface SessionUser {
  id: string;
  force_password_change: boolean;
  /** Null for accounts that never set a password; `created_at` is used instead. */
  password_changed_at: Date | null;
  created_at: Date;
}

/** Where the login came from; optional so callers without an HTTP request can still issue. */
export interface SessionClient {
  ip?: string;
  userAgent?: string;
  requestId?: string;
  /** Audit detail: `password`, `totp`, `backup_code`, `sso`, … */
  method?: string;
}

export interface IssuedSession {
  access_token: string;
  token_type: 'bearer';
  force_password_change?: true;
  reason?: 'expired' | 'force';
}

/** `force` (an administrator asked) wins over `expired` (older than `password_max_age_days`). */
export function passwordChangeReason(
  user: SessionUser,
  settings: Pick<SiteSettings, 'password_max_age_days'>,
  now = Date.now(),
): 'expired' | 'force' | undefined {
  if (user.force_password_change) return 'force';
  const maxAgeDays = settings.password_max_age_days;
  if (maxAgeDays > 0) {
    const changedAt = (user.password_changed_at ?? user.created_at).getTime();
    if (now - changedAt > maxAgeDays * DAY_SECONDS * 1000) return 'expired';
  }
  return undefined;
}

/**
 * Issues the full access token that ends a login (password login step 8, verify-totp, enrollment,
 * SSO): lifetime `session_timeout_days`; with `single_session` the token becomes the user's only
 * valid one; the forced-change flags per the spec. Also records the login: `last_login_at`,
 * failed attempts cleared, audit `login.success`, and the login-anomaly check (its notification
 * is published in the background).
 */
export async function issueSession(
  deps: AuthDeps,
  user: SessionUser,
  client: SessionClient = {},
): Promise<IssuedSession> {
  const settings = await deps.settings.current();
  const { token, claims } = await deps.tokens.issue(
    user.id,
    'access',
    settings.session_timeout_days * DAY_SECONDS,
  );
  if (settings.single_session) await deps.sessions.makeCurrent(claims);

  await recordSuccessfulLogin(deps.pool, user.id);
  await writeAudit(deps.pool, {
    actorUserId: user.id,
    action: 'login.success',
    targetType: 'user',
    targetId: user.id,
    ip: client.ip,
    userAgent: client.userAgent,
    requestId: client.requestId,
    details: { method: client.method ?? 'password', jti: claims.jti },
  });
  await checkLoginAnomaly(deps, user.id, client.ip ?? '', client.userAgent ?? '');

  const reason = passwordChangeReason(user, settings);
  const session: IssuedSession = { access_token: token, token_type: 'bearer' };
  return reason ? { ...session, force_password_change: true, reason } : session;
}
