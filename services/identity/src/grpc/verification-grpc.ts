import * as verificationV1 from '@platform/contracts/platform/identity/v1/verification';
import { readOrigin, registration } from '@platform/grpc';
import type { VerificationPurpose } from '../data/verification-repository.js';
import { forgotPassword } from '../domain/verification/forgot-password.js';
import { resendVerification } from '../domain/verification/resend-verification.js';
import { resetPassword } from '../domain/verification/reset-password.js';
import { sendVerification } from '../domain/verification/send-verification.js';
import { verifyEmailCode, verifyEmailLink } from '../domain/verification/verify-email.js';
import type { IdentityDependencies } from '../deps.js';

export const VERIFICATION_SERVICE_NAME = 'platform.identity.v1.VerificationService';

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
        readOrigin(request.origin, context),
      ),
    resendVerification: (request, context) =>
      resendVerification(deps, request.email, readOrigin(request.origin, context)),
    forgotPassword: (request, context) =>
      forgotPassword(
        deps,
        { email: request.email, captchaId: request.captcha_id, captchaToken: request.captcha_token },
        readOrigin(request.origin, context),
      ),
    verifyEmail: (request, context) =>
      verifyEmailCode(
        deps,
        { email: request.email, code: request.code, purpose: purposeOf(request.purpose) },
        readOrigin(request.origin, context),
      ),
    verifyLink: (request, context) =>
      verifyEmailLink(deps, request.token, readOrigin(request.origin, context)),
    resetPassword: (request, context) =>
      resetPassword(
        deps,
        { email: request.email, code: request.code, token: request.token, newPassword: request.new_password },
        readOrigin(request.origin, context),
      ),
  });
}
