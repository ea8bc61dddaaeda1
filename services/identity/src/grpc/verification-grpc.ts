import * as verificationV1 from '@platform/contracts/platform/identity/v1/verification';
import { toLocale } from '@platform/errors';
import { registration, type CallContext } from '@platform/grpc';
import type { VerificationPurpose } from '../data/verification-repository.js';
import { forgotPassword } from '../domain/verification/forgot-password.js';
import type { RequestMeta } from '../domain/verification/mail-request.js';
import { resendVerification } from '../domain/verification/resend-verification.js';
import { resetPassword } from '../domain/verification/reset-password.js';
import { sendVerification } from '../domain/verification/send-verification.js';
import { verifyEmailCode, verifyEmailLink } from '../domain/verification/verify-email.js';
import type { IdentityDependencies } from '../deps.js';
import { callOrigin } from './call-origin.js';

export const VERIFICATION_SERVICE_NAME = 'platform.identity.v1.VerificationService';

function meta(origin: verificationV1.VerificationOrigin | undefined, context: CallContext): RequestMeta {
  return { ...callOrigin(origin, context), locale: toLocale(context.locale) ?? 'en' };
}

/** The gateway validated the enum; a direct caller sending anything else gets `register`. */
function purposeOf(value: string): VerificationPurpose {
  return value === 'reset_password' ? 'reset_password' : 'register';
}

/** Public email verification and password recovery (rules 1-9 of the spec). */
export function verificationGrpc(deps: IdentityDependencies) {
  return registration(VERIFICATION_SERVICE_NAME, verificationV1.VerificationServiceService, {
    sendVerification: (request, context) =>
      sendVerification(
        deps,
        {
          email: request.email,
          purpose: purposeOf(request.purpose),
          captchaId: request.captcha_id,
          captchaToken: request.captcha_token,
        },
        meta(request.origin, context),
      ),
    resendVerification: (request, context) =>
      resendVerification(deps, request.email, meta(request.origin, context)),
    forgotPassword: (request, context) =>
      forgotPassword(
        deps,
        { email: request.email, captchaId: request.captcha_id, captchaToken: request.captcha_token },
        meta(request.origin, context),
      ),
    verifyEmail: (request, context) =>
      verifyEmailCode(
        deps,
        { email: request.email, code: request.code, purpose: purposeOf(request.purpose) },
        meta(request.origin, context),
      ),
    verifyLink: (request, context) => verifyEmailLink(deps, request.token, meta(request.origin, context)),
    resetPassword: (request, context) =>
      resetPassword(
        deps,
        { email: request.email, code: request.code, token: request.token, newPassword: request.new_password },
        meta(request.origin, context),
      ),
  });
}
