import type * as verificationV1 from '@platform/contracts/platform/identity/v1/verification';
import { z } from 'zod';
import type { ServiceClients } from '../service-clients.js';
import { defineRoute } from './route-definition.js';

// ---- request pieces ------------------------------------------------------------------------

/** RFC 5321 caps a forward path at 256 octets including the brackets: 254 for the address. */
const email = z.email().max(254);
const purpose = z.enum(['register', 'reset_password']).default('register');
const code = z.string().regex(/^\d{6}$/, 'must be a 6-digit code');
/**
 * Link tokens are only bounded here: a malformed token is still a "bad link token", which the
 * service answers with its business code (5006 verify, 5005 reset) rather than a 422.
 */
const linkToken = z.string().min(1).max(512);
const captchaField = z.string().max(256).optional();
/** Long enough for any policy (max 128) to report its own reasons; beyond this it is garbage. */
const newPassword = z.string().max(1024);

const sendVerificationBody = z.object({
  email,
  purpose,
  captcha_id: captchaField,
  captcha_token: captchaField,
});
const emailBody = z.object({ email });
const forgotPasswordBody = z.object({ email, captcha_id: captchaField, captcha_token: captchaField });
const verifyEmailBody = z.object({ email, code, purpose });
const verifyQuery = z.object({ token: linkToken });

/** `(email + code) or token`; neither is a request-shape error (HTTP 422), as the spec says. */
const resetPasswordBody = z
  .object({
    email: email.optional(),
    code: code.optional(),
    token: linkToken.optional(),
    new_password: newPassword,
  })
  .superRefine((body, ctx) => {
    if (body.token !== undefined) return;
    if (body.email !== undefined && body.code === undefined) {
      ctx.addIssue({ code: 'custom', path: ['code'], message: 'required with email' });
    } else if (body.code !== undefined && body.email === undefined) {
      ctx.addIssue({ code: 'custom', path: ['email'], message: 'required with code' });
    } else if (body.email === undefined && body.code === undefined) {
      ctx.addIssue({ code: 'custom', path: ['token'], message: 'provide token, or email and code' });
    }
  });

// ---- responses -----------------------------------------------------------------------------

const mailQueued = z.object({
  email: z.string(),
  purpose: z.enum(['register', 'reset_password']),
  cooldown_seconds: z.number().int().describe('seconds before this address may request another mail'),
});
const verified = z.object({ verified: z.literal(true), email: z.string() });
const passwordReset = z.object({ password_reset: z.literal(true), email: z.string() });

const presentQueued = (r: verificationV1.SendVerificationResponse) => ({
  email: r.email,
  purpose: r.purpose,
  cooldown_seconds: r.cooldown_seconds,
});
const presentVerified = (r: verificationV1.VerifyEmailResponse) => ({ verified: r.verified, email: r.email });

type SendBody = z.infer<typeof sendVerificationBody>;
type EmailBody = z.infer<typeof emailBody>;
type ForgotBody = z.infer<typeof forgotPasswordBody>;
type VerifyBody = z.infer<typeof verifyEmailBody>;
type VerifyQuery = z.infer<typeof verifyQuery>;
type ResetBody = z.infer<typeof resetPasswordBody>;

const tags = ['verification'];

/**
 * Public email verification and password recovery. Success of a send means the mail is queued;
 * mails carry the 6-digit code and a `?token=` link.
 */
export const identityVerificationRoutes = [
  defineRoute<ServiceClients, undefined, undefined, SendBody, verificationV1.SendVerificationResponse>({
    method: 'post',
    path: '/send-verification',
    summary: 'Queue a verification (register) or reset (reset_password) mail',
    tags,
    auth: 'public',
    body: sendVerificationBody,
    response: mailQueued,
    invoke: ({ body }, { clients, ip, userAgent }) =>
      clients.verification.call('sendVerification', {
        email: body.email,
        purpose: body.purpose,
        captcha_id: body.captcha_id ?? '',
        captcha_token: body.captcha_token ?? '',
        origin: { ip, user_agent: userAgent },
      }),
    present: presentQueued,
    successMsgKey: 'verification_email_sent',
  }),
  defineRoute<ServiceClients, undefined, undefined, VerifyBody, verificationV1.VerifyEmailResponse>({
    method: 'post',
    path: '/verify-email',
    summary: 'Check a mailed 6-digit code (register: marks the address verified)',
    tags,
    auth: 'public',
    body: verifyEmailBody,
    response: verified,
    invoke: ({ body }, { clients, ip, userAgent }) =>
      clients.verification.call('verifyEmail', {
        email: body.email,
        code: body.code,
        purpose: body.purpose,
        origin: { ip, user_agent: userAgent },
      }),
    present: presentVerified,
    successMsgKey: 'email_verified',
  }),
  defineRoute<ServiceClients, undefined, VerifyQuery, undefined, verificationV1.VerifyEmailResponse>({
    method: 'get',
    path: '/verify',
    summary: 'Verify by the link token of a mail (same result as the code flow)',
    tags,
    auth: 'public',
    query: verifyQuery,
    response: verified,
    invoke: ({ query }, { clients, ip, userAgent }) =>
      clients.verification.call('verifyLink', { token: query.token, origin: { ip, user_agent: userAgent } }),
    present: presentVerified,
    successMsgKey: 'email_verified',
  }),
  defineRoute<ServiceClients, undefined, undefined, EmailBody, verificationV1.SendVerificationResponse>({
    method: 'post',
    path: '/resend-verification',
    summary: 'Queue the verification mail again (unknown addresses succeed silently)',
    tags,
    auth: 'public',
    body: emailBody,
    response: mailQueued,
    invoke: ({ body }, { clients, ip, userAgent }) =>
      clients.verification.call('resendVerification', {
        email: body.email,
        origin: { ip, user_agent: userAgent },
      }),
    present: presentQueued,
    successMsgKey: 'verification_email_sent',
  }),
  defineRoute<ServiceClients, undefined, undefined, ForgotBody, verificationV1.SendVerificationResponse>({
    method: 'post',
    path: '/forgot-password',
    summary: 'Queue a password reset mail (always succeeds, whatever the address)',
    tags,
    auth: 'public',
    body: forgotPasswordBody,
    response: mailQueued,
    invoke: ({ body }, { clients, ip, userAgent }) =>
      clients.verification.call('forgotPassword', {
        email: body.email,
        captcha_id: body.captcha_id ?? '',
        captcha_token: body.captcha_token ?? '',
        origin: { ip, user_agent: userAgent },
      }),
    present: presentQueued,
    successMsgKey: 'verification_email_sent',
  }),
  defineRoute<ServiceClients, undefined, undefined, ResetBody, verificationV1.ResetPasswordResponse>({
    method: 'post',
    path: '/reset-password',
    summary: 'Set a new password with a mailed code (email + code) or link token',
    tags,
    auth: 'public',
    body: resetPasswordBody,
    response: passwordReset,
    invoke: ({ body }, { clients, ip, userAgent }) =>
      clients.verification.call('resetPassword', {
        email: body.token !== undefined ? '' : (body.email ?? ''),
        code: body.token !== undefined ? '' : (body.code ?? ''),
        token: body.token ?? '',
        new_password: body.new_password,
        origin: { ip, user_agent: userAgent },
      }),
    present: (r) => ({ password_reset: r.password_reset, email: r.email }),
    successMsgKey: 'password_reset_success',
  }),
];
