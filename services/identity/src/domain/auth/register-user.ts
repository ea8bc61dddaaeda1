import type { RequestOrigin } from '@platform/grpc';
import { withTransaction, type PoolClient } from '@platform/db';
import { BusinessError, ErrorCode, toLocale, translate } from '@platform/errors';
import { writeAudit } from '../../data/audit-repository.js';
import type { AccountRow } from '../../data/auth-account-repository.js';
import {
  anyUserExists,
  assignInitialRole,
  emailTaken,
  findApprovers,
  insertAccount,
  joinDefaultTeam,
  lockFirstUserDecision,
  usernameTaken,
} from '../../data/auth-registration-repository.js';
import { notifyUser, publishDomainEvent } from '../identity-events.js';
import type { SiteSettings } from '../settings/site-settings.js';
import { toAccountUser, type AccountView } from './account-view.js';
import type { AuthDeps } from './auth-context.js';
import { requireCaptcha } from './captcha-check.js';
import { assertPasswordPolicy } from './password-policy.js';

export interface RegisterInput {
  username: string;
  email: string;
  password: string;
  /** Absent: the request's negotiated locale. */
  locale?: string;
  termsAccepted: boolean;
  captchaId?: string;
  captchaToken?: string;
}

/** The spec's "Account at registration" table; the very first user is always approved and verified. */
function initialState(first: boolean, settings: SiteSettings) {
  if (first) return { approvalStatus: 'approved', isActive: true, emailVerified: true } as const;
  if (settings.require_approval) {
    return {
      approvalStatus: 'pending',
      isActive: false,
      emailVerified: !settings.email_verification,
    } as const;
  }
  return { approvalStatus: 'approved', isActive: true, emailVerified: !settings.email_verification } as const;
}

/** A unique violation that slipped past the checks (two sign-ups racing) → the same codes. */
function duplicateFromConstraint(error: unknown): BusinessError | undefined {
  const pgError = error as { code?: string; constraint?: string };
  if (pgError.code !== '23505') return undefined;
  if (pgError.constraint === 'users_username_key') return new BusinessError(ErrorCode.USERNAME_EXISTS);
  if (pgError.constraint === 'users_email_key') return new BusinessError(ErrorCode.EMAIL_EXISTS);
  return undefined;
}

/**
 * `POST /register`. Failure order: registration disabled 5000 (not for the very first user, who
 * bootstraps the platform) → terms 1001 → password policy 1001 → captcha 5302/5303 → duplicate
 * username 5002 → duplicate email 5003. Cheap input checks run before the captcha so a typo does
 * not burn the proof; the captcha runs before the duplicate checks so bots cannot probe names.
 */
export async function registerUser(
  deps: AuthDeps,
  input: RegisterInput,
  meta: RequestOrigin,
): Promise<AccountView> {
  const settings = await deps.settings.current();
  const usersExist = await anyUserExists(deps.pool);
  if (usersExist && !settings.allow_registration) throw new BusinessError(ErrorCode.REGISTRATION_DISABLED);
  if (settings.require_terms_acceptance_on_register && !input.termsAccepted) {
    const locale = toLocale(meta.locale) ?? 'en';
    throw BusinessError.named('terms_not_accepted', {
      data: { errors: { terms_accepted: [translate('terms_not_accepted', locale)] } },
    });
  }
  assertPasswordPolicy(input.password, settings, 'password', meta.locale);
  await requireCaptcha(deps.captcha, settings.enable_captcha, input.captchaId, input.captchaToken);
  if (await usernameTaken(deps.pool, input.username)) throw new BusinessError(ErrorCode.USERNAME_EXISTS);
  if (await emailTaken(deps.pool, input.email)) throw new BusinessError(ErrorCode.EMAIL_EXISTS);

  const passwordHash = await deps.passwords.hash(input.password);
  let created: { account: AccountRow; first: boolean };
  try {
    created = await withTransaction(deps.pool, async (client) => {
      let first = false;
      if (!usersExist) {
        await lockFirstUserDecision(client);
        first = !(await anyUserExists(client));
      }
      const state = initialState(first, settings);
      const account = await insertAccount(client, {
        username: input.username,
        email: input.email,
        passwordHash,
        locale: input.locale || (toLocale(meta.locale) ?? 'en'),
        isActive: state.isActive,
        isSuperuser: first,
        emailVerified: state.emailVerified,
        approvalStatus: state.approvalStatus,
      });
      await assignInitialRole(client, account.id, first);
      await joinDefaultTeam(client, account.id);
      await writeAudit(client, {
        actorUserId: account.id,
        action: 'user.registered',
        targetType: 'user',
        targetId: account.id,
        ip: meta.ip,
        userAgent: meta.userAgent,
        requestId: meta.requestId,
        details: { username: account.username, approval_status: account.approval_status, superuser: first },
      });
      await announceRegistration(client, account, first);
      return { account, first };
    });
  } catch (error) {
    throw duplicateFromConstraint(error) ?? error;
  }

  return toAccountUser(created.account);
}

/**
 * In the sign-up's transaction (through the outbox, so Kafka never delays the answer):
 * `user.registered` for other services, `user.pending_approval` to each approver. Also used by SSO
 * sign-ups.
 */
export async function announceRegistration(
  tx: PoolClient,
  account: AccountRow,
  first: boolean,
): Promise<void> {
  await publishDomainEvent(tx, 'user.registered', account.id, {
    user_id: account.id,
    username: account.username,
    email: account.email,
    approval_status: account.approval_status,
    is_superuser: first,
  });
  if (account.approval_status !== 'pending') return;
  for (const approverId of await findApprovers(tx)) {
    await notifyUser(tx, {
      type: 'user.pending_approval',
      userId: approverId,
      title: 'New account awaiting approval',
      content: `${account.username} (${account.email}) registered and is waiting for approval.`,
      level: 'medium',
      data: { user_id: account.id, username: account.username, email: account.email },
    });
  }
}
