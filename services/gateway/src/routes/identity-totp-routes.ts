import { PASSWORD_CHANGE_REASONS } from '@platform/contracts';
import type * as authV1 from '@platform/contracts/platform/identity/v1/auth';
import type * as totpV1 from '@platform/contracts/platform/identity/v1/totp';
import { ErrorCode } from '@platform/errors';
import { z } from 'zod';
import type { ServiceClients } from '../service-clients.js';
import { presentSession } from './identity-auth-routes.js';
import { requestOrigin } from './identity-route-schemas.js';
import { defineRoute } from './route-definition.js';
import { nonBlankText, queryBool } from './validation.js';

/** A 6-digit authenticator code or a backup code (`xxxxx-xxxxx`); more is never a code. */
const code = nonBlankText(32);
const codeBody = z.strictObject({ code });
type CodeBody = z.infer<typeof codeBody>;

/** Form-encoded like password login (a JSON body is 422 / 1001 at the edge). */
const verifyTotpForm = z.object({
  temp_token: z.string().min(1).max(4096),
  code,
  is_backup_code: queryBool(false),
});
type VerifyTotpForm = z.infer<typeof verifyTotpForm>;

const session = {
  access_token: z.string(),
  token_type: z.literal('bearer'),
  force_password_change: z.literal(true).optional(),
  reason: z.enum(PASSWORD_CHANGE_REASONS.names).optional(),
};
const backupCodes = z.array(z.string()).describe('shown once; each works for one login');

/**
 * TOTP. Setup and enable are `public` at the edge on purpose: during a login's enrollment step the
 * caller holds a `totp_enrollment` temp token, which the gateway's JWT check (access tokens only)
 * would refuse. Identity verifies the bearer credential itself (access token with revocation, or
 * enrollment token) with the gateway's error mapping, so nothing passes unauthenticated.
 */
export const identityTotpRoutes = [
  defineRoute<ServiceClients, undefined, undefined, undefined, totpV1.TotpSetup>({
    method: 'post',
    path: '/totp/setup',
    errors: [
      ErrorCode.UNAUTHORIZED,
      ErrorCode.INVALID_TOKEN,
      ErrorCode.INACTIVE_USER,
      { code: ErrorCode.INVALID_CREDENTIALS, status: 403 },
      ErrorCode.TOTP_ALREADY_ENABLED,
    ],
    summary: 'Start TOTP setup (Bearer access token or enrollment temp token)',
    tags: ['totp'],
    auth: 'public',
    response: z.object({ secret: z.string().describe('base32'), otpauth_url: z.string() }),
    invoke: (_input, { clients, unverifiedBearer, ip, userAgent }) =>
      clients.totp.call('setupTotp', {
        credential: unverifiedBearer,
        origin: requestOrigin({ ip, userAgent }),
      }),
  }),
  defineRoute<ServiceClients, undefined, undefined, CodeBody, totpV1.TotpEnabled>({
    method: 'post',
    path: '/totp/enable',
    errors: [
      ErrorCode.UNAUTHORIZED,
      ErrorCode.INVALID_TOKEN,
      ErrorCode.INACTIVE_USER,
      { code: ErrorCode.INVALID_CREDENTIALS, status: 403 },
      ErrorCode.TOTP_ALREADY_ENABLED,
      ErrorCode.TOTP_SETUP_EXPIRED,
      ErrorCode.TOTP_INVALID,
      ErrorCode.TOTP_RATE_LIMITED,
    ],
    summary: 'Confirm setup with a code; returns backup codes (and a session after enrollment)',
    tags: ['totp'],
    auth: 'public',
    body: codeBody,
    response: z.object({ backup_codes: backupCodes, ...session }).partial({
      access_token: true,
      token_type: true,
    }),
    invoke: ({ body }, { clients, unverifiedBearer, ip, userAgent }) =>
      clients.totp.call('enableTotp', {
        credential: unverifiedBearer,
        code: body.code,
        origin: requestOrigin({ ip, userAgent }),
      }),
    present: (enabled) => ({
      backup_codes: enabled.backup_codes,
      ...(enabled.session ? presentSession(enabled.session) : {}),
    }),
  }),
  defineRoute<ServiceClients, undefined, undefined, CodeBody, totpV1.DisableTotpResponse>({
    method: 'post',
    path: '/totp/disable',
    errors: [ErrorCode.TOTP_NOT_ENABLED, ErrorCode.TOTP_INVALID, ErrorCode.TOTP_RATE_LIMITED],
    summary: 'Turn TOTP off (authenticator code or backup code)',
    tags: ['totp'],
    auth: 'user',
    body: codeBody,
    response: z.null(),
    invoke: ({ body }, { clients, principal, ip, userAgent }) =>
      clients.totp.call(
        'disableTotp',
        { code: body.code, origin: requestOrigin({ ip, userAgent }) },
        { principal },
      ),
    present: () => null,
  }),
  defineRoute<ServiceClients, undefined, undefined, CodeBody, totpV1.BackupCodes>({
    method: 'post',
    path: '/totp/regenerate-backup-codes',
    errors: [ErrorCode.TOTP_NOT_ENABLED, ErrorCode.TOTP_INVALID, ErrorCode.TOTP_RATE_LIMITED],
    summary: 'Replace all backup codes (authenticator code or backup code)',
    tags: ['totp'],
    auth: 'user',
    body: codeBody,
    response: z.object({ backup_codes: backupCodes }),
    invoke: ({ body }, { clients, principal, ip, userAgent }) =>
      clients.totp.call(
        'regenerateBackupCodes',
        { code: body.code, origin: requestOrigin({ ip, userAgent }) },
        { principal },
      ),
  }),
  defineRoute<ServiceClients, undefined, undefined, undefined, totpV1.TotpStatus>({
    method: 'get',
    path: '/totp/status',
    summary: 'Whether TOTP is on and how many backup codes are left',
    tags: ['totp'],
    auth: 'user',
    response: z.object({ enabled: z.boolean(), backup_codes_remaining: z.number().int() }),
    invoke: (_input, { clients, principal }) => clients.totp.call('getTotpStatus', {}, { principal }),
  }),
  defineRoute<ServiceClients, undefined, undefined, VerifyTotpForm, authV1.Session>({
    method: 'post',
    path: '/login/verify-totp',
    errors: [
      { code: ErrorCode.INVALID_TOKEN, status: 400 },
      { code: ErrorCode.TOKEN_EXPIRED, status: 400 },
      { code: ErrorCode.INACTIVE_USER, status: 400 },
      ErrorCode.TOTP_NOT_ENABLED,
      ErrorCode.TOTP_INVALID,
      ErrorCode.TOTP_RATE_LIMITED,
    ],
    summary: 'Finish a two-factor login (form-encoded)',
    tags: ['auth'],
    auth: 'public',
    bodyType: 'form',
    body: verifyTotpForm,
    response: z.object(session),
    invoke: ({ body }, { clients, ip, userAgent }) =>
      clients.totp.call('verifyTotpLogin', {
        temp_token: body.temp_token,
        code: body.code,
        is_backup_code: body.is_backup_code,
        origin: requestOrigin({ ip, userAgent }),
      }),
    present: presentSession,
  }),
];
