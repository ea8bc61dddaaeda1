import { APPROVAL_STATUSES, PASSWORD_CHANGE_REASONS, TEAM_ROLE_SET } from '@platform/contracts';
import type * as authV1 from '@platform/contracts/platform/identity/v1/auth';
import { ErrorCode, LOCALES } from '@platform/errors';
import { z } from 'zod';
import type { ServiceClients } from '../service-clients.js';
import {
  asCaller,
  captchaField,
  captchaFields,
  email,
  password,
  requestOrigin,
} from './identity-route-schemas.js';
import { defineRoute } from './route-definition.js';

// ---- request pieces ------------------------------------------------------------------------

const username = z
  .string()
  .min(3)
  .max(50)
  .regex(/^[A-Za-z0-9_.-]+$/, 'may contain only letters, digits, "_", "." and "-"');

const registerBody = z.object({
  username,
  email,
  password,
  locale: z.enum(LOCALES).optional(),
  terms_accepted: z.boolean().optional(),
  ...captchaFields,
});

/** Form-encoded; extra OAuth2 password-flow fields (grant_type, scope, client_id) are ignored. */
const loginForm = z.object({
  username: z.string().min(1).max(254).describe('username or email'),
  password: z.string().min(1).max(1024),
  ...captchaFields,
  captcha_answer: captchaField.describe('legacy: the captcha proof when captcha_token is empty'),
});

const changePasswordBody = z.object({
  current_password: z.string().min(1).max(1024),
  new_password: password,
});

// ---- responses -----------------------------------------------------------------------------

const accountUser = z.object({
  id: z.uuid(),
  username: z.string(),
  email: z.string(),
  locale: z.string(),
  is_active: z.boolean(),
  email_verified: z.boolean(),
  approval_status: z.enum(APPROVAL_STATUSES.names),
  created_at: z.string().describe('ISO 8601'),
});

/** The four login outcomes (also the SSO callback's JSON answer). */
export const loginResult = z.union([
  z.object({
    access_token: z.string(),
    token_type: z.literal('bearer'),
    force_password_change: z.literal(true).optional(),
    reason: z.enum(PASSWORD_CHANGE_REASONS.names).optional(),
  }),
  z.object({ requires_totp: z.literal(true), temp_token: z.string().describe('valid 5 minutes') }),
  z.object({ requires_totp_setup: z.literal(true), temp_token: z.string().describe('valid 30 minutes') }),
]);

const currentUser = accountUser.extend({
  is_superuser: z.boolean(),
  permissions: z.array(z.string()),
  teams: z.array(z.object({ id: z.uuid(), name: z.string(), role: z.enum(TEAM_ROLE_SET.names) })),
  totp_enabled: z.boolean(),
  force_password_change: z.boolean(),
  last_login_at: z.string().nullable(),
  password_changed_at: z.string().nullable(),
});

const presentAccount = (a: authV1.AccountUser | undefined) => ({
  id: a?.id ?? '',
  username: a?.username ?? '',
  email: a?.email ?? '',
  locale: a?.locale ?? '',
  is_active: a?.is_active ?? false,
  email_verified: a?.email_verified ?? false,
  approval_status: a && APPROVAL_STATUSES.fromProto(a.approval_status),
  created_at: a?.created_at ?? '',
});

/** A full session: the token, plus the forced-change flags when a change is forced. */
export function presentSession(s: authV1.Session | undefined) {
  const session = { access_token: s?.access_token ?? '', token_type: 'bearer' as const };
  const reason = s && PASSWORD_CHANGE_REASONS.fromProto(s.password_change_reason);
  return reason ? { ...session, force_password_change: true as const, reason } : session;
}

/** Only the fields of the variant the service chose (clients branch on the flags). */
export function presentLogin(r: authV1.LoginResult) {
  if (r.totp_required) return { requires_totp: true, temp_token: r.totp_required.temp_token };
  if (r.totp_setup_required)
    return { requires_totp_setup: true, temp_token: r.totp_setup_required.temp_token };
  return presentSession(r.session);
}

function presentCurrentUser(r: authV1.CurrentUser) {
  return {
    ...presentAccount(r.account),
    is_superuser: r.is_superuser,
    permissions: r.permissions,
    teams: r.teams.map((t) => ({ id: t.id, name: t.name, role: TEAM_ROLE_SET.fromProto(t.role) })),
    totp_enabled: r.totp_enabled,
    force_password_change: r.force_password_change,
    last_login_at: r.last_login_at || null,
    password_changed_at: r.password_changed_at || null,
  };
}

type RegisterBody = z.infer<typeof registerBody>;
type LoginForm = z.infer<typeof loginForm>;
type ChangePasswordBody = z.infer<typeof changePasswordBody>;

/** Accounts and sessions (spec "Login and session", "Registration"; ARCHITECTURE `/users/me`). */
export const identityAuthRoutes = [
  defineRoute<ServiceClients, undefined, undefined, RegisterBody, authV1.AccountUser>({
    method: 'post',
    path: '/register',
    errors: [
      ErrorCode.REGISTRATION_DISABLED,
      ErrorCode.USERNAME_EXISTS,
      ErrorCode.EMAIL_EXISTS,
      ErrorCode.CAPTCHA_REQUIRED,
      ErrorCode.CAPTCHA_INVALID,
    ],
    summary: 'Create an account (outcome by the approval and verification settings)',
    tags: ['auth'],
    auth: 'public',
    body: registerBody,
    response: accountUser,
    invoke: ({ body }, context) =>
      context.clients.auth.call(
        'register',
        {
          username: body.username,
          email: body.email,
          password: body.password,
          locale: body.locale,
          terms_accepted: body.terms_accepted ?? false,
          captcha_id: body.captcha_id,
          captcha_token: body.captcha_token,
          origin: requestOrigin(context),
        },
        { locale: context.locale },
      ),
    present: presentAccount,
    successMsgKey: 'registration_success',
  }),
  defineRoute<ServiceClients, undefined, undefined, LoginForm, authV1.LoginResult>({
    method: 'post',
    path: '/login/access-token',
    errors: [
      { code: ErrorCode.INVALID_CREDENTIALS, status: 400 },
      { code: ErrorCode.INACTIVE_USER, status: 400 },
      ErrorCode.ACCOUNT_LOCKED,
      ErrorCode.EMAIL_NOT_VERIFIED,
      ErrorCode.PASSWORD_LOGIN_DISABLED,
      ErrorCode.CAPTCHA_REQUIRED,
      ErrorCode.CAPTCHA_INVALID,
      // Every login place of the account taken by checks in flight (`login_attempts_in_flight`).
      ErrorCode.RATE_LIMITED,
    ],
    summary: 'Password login (form-encoded)',
    tags: ['auth'],
    auth: 'public',
    bodyType: 'form',
    body: loginForm,
    response: loginResult,
    invoke: ({ body }, context) =>
      context.clients.auth.call(
        'loginWithPassword',
        {
          username: body.username,
          password: body.password,
          captcha_id: body.captcha_id,
          captcha_token: body.captcha_token,
          captcha_answer: body.captcha_answer,
          origin: requestOrigin(context),
        },
        { locale: context.locale },
      ),
    present: presentLogin,
  }),
  defineRoute<ServiceClients, undefined, undefined, undefined, authV1.LogoutResponse>({
    method: 'post',
    path: '/logout',
    summary: 'Blacklist the presented access token',
    tags: ['auth'],
    auth: 'user',
    response: z.null(),
    invoke: (_input, context) =>
      context.clients.auth.call(
        'logout',
        { token: context.credential ?? '', origin: requestOrigin(context) },
        asCaller(context),
      ),
    present: () => null,
    successMsgKey: 'logged_out',
  }),
  defineRoute<ServiceClients, undefined, undefined, undefined, authV1.CurrentUser>({
    method: 'get',
    path: '/users/me',
    summary: 'The signed-in user with permissions and teams',
    tags: ['users'],
    auth: 'user',
    response: currentUser,
    invoke: (_input, { clients, principal, locale }) =>
      clients.auth.call('getCurrentUser', {}, { principal, locale }),
    present: presentCurrentUser,
  }),
  defineRoute<ServiceClients, undefined, undefined, ChangePasswordBody, authV1.ChangePasswordResponse>({
    method: 'post',
    path: '/users/me/change-password',
    errors: [
      { code: ErrorCode.INVALID_CREDENTIALS, status: 400 },
      ErrorCode.PASSWORD_MIN_AGE_NOT_MET,
      ErrorCode.RATE_LIMITED,
    ],
    summary: 'Change the own password (clears a forced change)',
    tags: ['users'],
    auth: 'user',
    body: changePasswordBody,
    response: z.null(),
    invoke: ({ body }, context) =>
      context.clients.auth.call(
        'changePassword',
        {
          current_password: body.current_password,
          new_password: body.new_password,
          origin: requestOrigin(context),
          token: context.credential ?? '',
        },
        asCaller(context),
      ),
    present: () => null,
    successMsgKey: 'password_changed',
  }),
];
