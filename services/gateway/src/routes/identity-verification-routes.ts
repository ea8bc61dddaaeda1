import { VERIFICATION_PURPOSES } from '@platform/contracts';
import type * as verificationV1 from '@platform/contracts/platform/identity/v1/verification';
import { ErrorCode } from '@platform/errors';
import { z } from 'zod';
import type { ServiceClients } from '../service-clients.js';
import { captchaFields, email, password, requestOrigin } from './identity-route-schemas.js';
import { defineRoute } from './route-definition.js';

// ---- request pieces ------------------------------------------------------------------------

const purpose = z.enum(VERIFICATION_PURPOSES.names).default('register');
const code = z.string().regex(/^\d{6}$/, 'must be a 6-digit code');
/**
 * Link tokens are only bounded here: a malformed token is still a "bad link token", which the
 * service answers with its business code (5006 verify, 5005 reset) rather than a 422.
 */
const linkToken = z.string().min(1).max(512);

const sendVerificationBody = z.object({ email, purpose, ...captchaFields });
const emailBody = z.object({ email });
const forgotPasswordBody = z.object({ email, ...captchaFields });
const verifyEmailBody = z.object({ email, code, purpose });
const verifyQuery = z.object({ token: linkToken });

/** `(email + code) or token`; neither is a request-shape error (HTTP 422), as the spec says. */
const resetPasswordBody = z
  .object({
    email: email.optional(),
    code: code.optional(),
    token: linkToken.optional(),
    new_password: password,
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
  })
  // The same rule for the OpenAPI document.
  .meta({ anyOf: [{ required: ['token'] }, { required: ['email', 'code'] }] });

// ---- responses -----------------------------------------------------------------------------

const mailQueued = z.object({
  email: z.string(),
  purpose: z.enum(VERIFICATION_PURPOSES.names),
  cooldown_seconds: z.number().int().describe('seconds before this address may request another mail'),
});
const verified = z.object({ verified: z.literal(true), email: z.string() });
const passwordReset = z.object({ password_reset: z.literal(true), email: z.string() });

const presentQueued = (r: verificationV1.SendVerificationResponse) => ({
  email: r.email,
  purpose: VERIFICATION_PURPOSES.fromProto(r.purpose),
  cooldown_seconds: r.cooldown_seconds,
});
const presentVerified = (r: verificationV1.VerifyEmailResponse) => ({ verified: r.verified, email: r.email });

type SendBody = z.infer<typeof sendVerificationBody>;
type EmailBody = z.infer<typeof emailBody>;
type ForgotBody = z.infer<typeof forgotPasswordBody>;
type VerifyBody = z.infer<typeof verifyEmailBody>;
type VerifyQuery = z.infer<typeof verifyQuery>;
type ResetBody = z.infer<typeof resetPasswordBody>;

/** The RPC's `proof` oneof: the link token when given (it wins), else the mailed code. */
function resetProof(body: ResetBody): Pick<verificationV1.ResetPasswordRequest, 'email_code' | 'link_token'> {
  if (body.token !== undefined) return { link_token: body.token };
  // The schema's refinement guarantees both when there is no token.
  return body.email !== undefined && body.code !== undefined
    ? { email_code: { email: body.email, code: body.code } }
    : {};
}

/** Every route here is public; the three sends answer alike, so do the two verifications. */
const base = { tags: ['verification'], auth: 'public' as const };
const mailSent = {
  ...base,
  method: 'post' as const,
  response: mailQueued,
  present: presentQueued,
  successMsgKey: 'verification_email_sent' as const,
};
const emailVerified = {
  ...base,
  response: verified,
  present: presentVerified,
  successMsgKey: 'email_verified' as const,
};

type SendResponse = verificationV1.SendVerificationResponse;
type VerifyResponse = verificationV1.VerifyEmailResponse;

/**
 * Public email verification and password recovery. Success of a send means the mail is queued;
 * mails carry the 6-digit code and a `?token=` link.
 */
export const identityVerificationRoutes = [
  defineRoute<ServiceClients, undefined, undefined, SendBody, SendResponse>({
    ...mailSent,
    path: '/send-verification',
    errors: [
      { code: ErrorCode.NOT_FOUND, status: 400 },
      { code: ErrorCode.VALIDATION_ERROR, status: 400 },
      ErrorCode.EMAIL_SEND_TOO_FREQUENT,
    ],
    summary: 'Queue a verification (register) or reset (reset_password) mail',
    body: sendVerificationBody,
    invoke: ({ body }, context) =>
      context.clients.verification.call('sendVerification', {
        email: body.email,
        purpose: VERIFICATION_PURPOSES.toProto(body.purpose),
        captcha_id: body.captcha_id,
        captcha_token: body.captcha_token,
        origin: requestOrigin(context),
      }),
  }),
  defineRoute<ServiceClients, undefined, undefined, VerifyBody, VerifyResponse>({
    ...emailVerified,
    method: 'post',
    path: '/verify-email',
    errors: [
      ErrorCode.VERIFICATION_CODE_INVALID,
      ErrorCode.VERIFICATION_CODE_EXPIRED,
      { code: ErrorCode.NOT_FOUND, status: 400 },
    ],
    summary: 'Check a mailed 6-digit code (register: marks the address verified)',
    body: verifyEmailBody,
    invoke: ({ body }, context) =>
      context.clients.verification.call('verifyEmail', {
        email: body.email,
        code: body.code,
        purpose: VERIFICATION_PURPOSES.toProto(body.purpose),
        origin: requestOrigin(context),
      }),
  }),
  defineRoute<ServiceClients, undefined, VerifyQuery, undefined, VerifyResponse>({
    ...emailVerified,
    method: 'get',
    path: '/verify',
    errors: [
      ErrorCode.VERIFICATION_CODE_INVALID,
      ErrorCode.VERIFICATION_CODE_EXPIRED,
      { code: ErrorCode.NOT_FOUND, status: 400 },
    ],
    summary: 'Verify by the link token of a mail (same result as the code flow)',
    query: verifyQuery,
    invoke: ({ query }, context) =>
      context.clients.verification.call('verifyLink', { token: query.token, origin: requestOrigin(context) }),
  }),
  defineRoute<ServiceClients, undefined, undefined, EmailBody, SendResponse>({
    ...mailSent,
    path: '/resend-verification',
    errors: [{ code: ErrorCode.VALIDATION_ERROR, status: 400 }, ErrorCode.EMAIL_SEND_TOO_FREQUENT],
    summary: 'Queue the verification mail again (unknown addresses succeed silently)',
    body: emailBody,
    invoke: ({ body }, context) =>
      context.clients.verification.call('resendVerification', {
        email: body.email,
        origin: requestOrigin(context),
      }),
  }),
  defineRoute<ServiceClients, undefined, undefined, ForgotBody, SendResponse>({
    ...mailSent,
    path: '/forgot-password',
    summary: 'Queue a password reset mail (always succeeds, whatever the address)',
    body: forgotPasswordBody,
    invoke: ({ body }, context) =>
      context.clients.verification.call('forgotPassword', {
        email: body.email,
        captcha_id: body.captcha_id,
        captcha_token: body.captcha_token,
        origin: requestOrigin(context),
      }),
  }),
  defineRoute<ServiceClients, undefined, undefined, ResetBody, verificationV1.ResetPasswordResponse>({
    ...base,
    method: 'post',
    path: '/reset-password',
    errors: [
      ErrorCode.VERIFICATION_CODE_INVALID,
      ErrorCode.VERIFICATION_CODE_EXPIRED,
      { code: ErrorCode.NOT_FOUND, status: 400 },
    ],
    summary: 'Set a new password with a mailed code (email + code) or link token',
    body: resetPasswordBody,
    response: passwordReset,
    invoke: ({ body }, context) =>
      context.clients.verification.call('resetPassword', {
        ...resetProof(body),
        new_password: body.new_password,
        origin: requestOrigin(context),
      }),
    present: (r) => ({ password_reset: r.password_reset, email: r.email }),
    successMsgKey: 'password_reset_success',
  }),
];
