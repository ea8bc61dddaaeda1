import * as verificationV1 from '@platform/contracts/platform/identity/v1/verification';
import { readOrigin, registration } from '@platform/grpc';
import { forgotPassword } from '../domain/verification/forgot-password.js';
import { resendVerification } from '../domain/verification/resend-verification.js';
import { resetPassword, type ResetProof } from '../domain/verification/reset-password.js';
import { sendVerification } from '../domain/verification/send-verification.js';
import { verifyEmailCode, verifyEmailLink } from '../domain/verification/verify-email.js';
import type { IdentityDependencies } from '../deps.js';
import { requestedPurpose, withPurpose } from './identity-messages.js';

export const VERIFICATION_SERVICE_NAME = 'platform.identity.v1.VerificationService';

/** The reset's proof: the `proof` oneof's variant, if any. */
function resetProof(request: verificationV1.ResetPasswordRequest): ResetProof | undefined {
  return request.link_token !== undefined ? { token: request.link_token } : request.email_code;
}

/** Public email verification and password recovery (rules 1-9 of the spec). */
export function verificationGrpc(deps: IdentityDependencies) {
  return registration(VERIFICATION_SERVICE_NAME, verificationV1.VerificationServiceService, {
    sendVerification: (request, context) =>
      sendVerification(
        deps,
        {
          email: request.email,
          purpose: requestedPurpose(request.purpose),
          captchaId: request.captcha_id,
          captchaToken: request.captcha_token,
        },
        readOrigin(request.origin, context),
      ).then(withPurpose),
    resendVerification: async (request, context) =>
      withPurpose(await resendVerification(deps, request.email, readOrigin(request.origin, context))),
    forgotPassword: (request, context) =>
      forgotPassword(
        deps,
        { email: request.email, captchaId: request.captcha_id, captchaToken: request.captcha_token },
        readOrigin(request.origin, context),
      ).then(withPurpose),
    verifyEmail: (request, context) =>
      verifyEmailCode(
        deps,
        { email: request.email, code: request.code, purpose: requestedPurpose(request.purpose) },
        readOrigin(request.origin, context),
      ),
    verifyLink: (request, context) =>
      verifyEmailLink(deps, request.token, readOrigin(request.origin, context)),
    resetPassword: (request, context) =>
      resetPassword(
        deps,
        { proof: resetProof(request), newPassword: request.new_password },
        readOrigin(request.origin, context),
      ),
  });
}
