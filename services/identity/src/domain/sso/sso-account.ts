import type { RequestOrigin } from '@platform/grpc';
import { randomBytes } from 'node:crypto';
import { withTransaction } from '@platform/db';
import { BusinessError, ErrorCode, toLocale } from '@platform/errors';
import { writeAudit } from '../../data/audit-repository.js';
import { findAccountById, type AccountRow } from '../../data/auth-account-repository.js';
import {
  assignInitialRole,
  emailTaken,
  insertAccount,
  joinDefaultTeam,
  usernameTaken,
} from '../../data/auth-registration-repository.js';
import {
  findConnection,
  findUserIdByEmail,
  insertConnection,
  type SsoProviderRow,
} from '../../data/sso-repository.js';
import { announceRegistration } from '../auth/register-user.js';
import type { SiteSettings } from '../settings/site-settings.js';
import type { SsoDeps } from './sso-context.js';

/** The identity the provider asserted (ID token claims, completed from userinfo). */
export interface SsoIdentity {
  subject: string;
  email?: string;
  /** Only `true` exactly: anything else (absent, "true", false) is unverified. */
  emailVerified: boolean;
  preferredUsername?: string;
  name?: string;
  locale?: string;
}

export type SsoAccountOutcome = 'connection' | 'linked' | 'created';

const MAX_USERNAME_ATTEMPTS = 5;

/** `[A-Za-z0-9_.-]`, 3-50 characters, as registration requires. */
export function usernameBase(identity: SsoIdentity): string {
  const candidates = [identity.preferredUsername, identity.email?.split('@')[0], identity.name];
  for (const candidate of candidates) {
    const cleaned = (candidate ?? '')
      .normalize('NFKD')
      .replace(/[^A-Za-z0-9_.-]+/g, '_')
      .replace(/^[_.-]+|[_.-]+$/g, '')
      .slice(0, 40);
    if (cleaned.length >= 3) return cleaned;
  }
  return 'user';
}

async function uniqueUsername(deps: SsoDeps, identity: SsoIdentity): Promise<string> {
  const base = usernameBase(identity);
  if (!(await usernameTaken(deps.pool, base))) return base;
  for (let attempt = 0; attempt < MAX_USERNAME_ATTEMPTS; attempt += 1) {
    const candidate = `${base}_${randomBytes(3).toString('hex')}`;
    if (!(await usernameTaken(deps.pool, candidate))) return candidate;
  }
  return `user_${randomBytes(8).toString('hex')}`;
}

/**
 * Finds the account for the provider's identity, in this order:
 * 1. an existing connection (provider, subject) → that account;
 * 2. the provider says `email_verified: true` and an account has that email → link it;
 * 3. otherwise a new account, unless the provider's or the site's registration is off (6302).
 *    An unverified email that belongs to an existing account is neither linked nor reused
 *    (1002 `sso_email_not_verified`): linking would hand the account to whoever controls the
 *    provider-side address.
 */
export async function resolveSsoAccount(
  deps: SsoDeps,
  provider: SsoProviderRow,
  identity: SsoIdentity,
  settings: SiteSettings,
  meta: RequestOrigin,
): Promise<{ account: AccountRow; outcome: SsoAccountOutcome }> {
  const connection = await findConnection(deps.pool, provider.id, identity.subject);
  if (connection) {
    const account = await findAccountById(deps.pool, connection.user_id);
    if (account) return { account, outcome: 'connection' };
  }
  const audit = { ip: meta.ip, userAgent: meta.userAgent, requestId: meta.requestId };

  if (identity.email && identity.emailVerified) {
    const userId = await findUserIdByEmail(deps.pool, identity.email);
    const existing = userId ? await findAccountById(deps.pool, userId) : undefined;
    if (existing) {
      await withTransaction(deps.pool, async (client) => {
        const id = await insertConnection(client, {
          userId: existing.id,
          providerId: provider.id,
          subject: identity.subject,
          email: identity.email ?? null,
        });
        await writeAudit(client, {
          actorUserId: existing.id,
          action: 'sso.connection_linked',
          targetType: 'sso_connection',
          targetId: id,
          ...audit,
          details: { provider: provider.name, via: 'verified_email' },
        });
      });
      return { account: existing, outcome: 'linked' };
    }
  }

  if (!provider.allow_registration || !settings.allow_registration) {
    throw new BusinessError(ErrorCode.SSO_REGISTRATION_DISABLED);
  }
  if (!identity.email) throw BusinessError.named('sso_email_missing');
  if (await emailTaken(deps.pool, identity.email)) {
    throw BusinessError.named('sso_email_not_verified');
  }
  return { account: await createSsoAccount(deps, provider, identity, settings, meta), outcome: 'created' };
}

/**
 * A new account: no password, the site's default role and team, `email_verified` as the provider
 * says; `require_approval` applies as to any sign-up (the provider proves who someone is, not
 * that the site admits them).
 */
async function createSsoAccount(
  deps: SsoDeps,
  provider: SsoProviderRow,
  identity: SsoIdentity,
  settings: SiteSettings,
  meta: RequestOrigin,
): Promise<AccountRow> {
  const username = await uniqueUsername(deps, identity);
  const pending = settings.require_approval;
  const account = await withTransaction(deps.pool, async (client) => {
    const created = await insertAccount(client, {
      username,
      email: identity.email!,
      passwordHash: null,
      locale: toLocale(identity.locale ?? '') ?? toLocale(meta.locale) ?? 'en',
      isActive: !pending,
      isSuperuser: false,
      emailVerified: identity.emailVerified,
      approvalStatus: pending ? 'pending' : 'approved',
    });
    await assignInitialRole(client, created.id, false);
    await joinDefaultTeam(client, created.id);
    const connectionId = await insertConnection(client, {
      userId: created.id,
      providerId: provider.id,
      subject: identity.subject,
      email: identity.email ?? null,
    });
    const audit = { ip: meta.ip, userAgent: meta.userAgent, requestId: meta.requestId };
    await writeAudit(client, {
      actorUserId: created.id,
      action: 'user.registered',
      targetType: 'user',
      targetId: created.id,
      ...audit,
      details: { username, approval_status: created.approval_status, method: 'sso', provider: provider.name },
    });
    await writeAudit(client, {
      actorUserId: created.id,
      action: 'sso.connection_created',
      targetType: 'sso_connection',
      targetId: connectionId,
      ...audit,
      details: { provider: provider.name },
    });
    await announceRegistration(client, created, false);
    return created;
  });
  return account;
}
