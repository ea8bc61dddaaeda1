import type { RequestOrigin } from '@platform/grpc';
import { BusinessError } from '@platform/errors';
import { findUserByEmail, type VerificationPurpose } from '../../data/verification-repository.js';
import { forgotPassword } from './forgot-password.js';
import { mailRequested, type MailRequested, type VerificationDeps } from './mail-request.js';
import { queueWithCooldown } from './queue-with-cooldown.js';
import { assertSmtpReady } from './smtp-settings.js';

export interface SendVerificationInput {
  email: string;
  purpose: VerificationPurpose;
  captchaId?: string;
  captchaToken?: string;
}

/**
 * Rule 1 (`register`): the user must exist (400 / 4000) and be unverified (400 / 1001
 * `email_already_verified`); then SMTP (5007) and the cooldown (5008) apply.
 * Rule 2 (`reset_password`): the forgot-password flow, which always succeeds.
 */
export async function sendVerification(
  deps: VerificationDeps,
  input: SendVerificationInput,
  meta: RequestOrigin,
): Promise<MailRequested> {
  if (input.purpose === 'reset_password') return forgotPassword(deps, input, meta);
  const settings = await deps.settings.current();
  assertSmtpReady(settings);
  const user = await findUserByEmail(deps.pool, input.email);
  if (!user) throw BusinessError.named('user_not_found');
  if (user.email_verified) throw BusinessError.named('email_already_verified');
  await queueWithCooldown(deps, settings, user, 'register', meta.locale);
  return mailRequested(input.email, 'register');
}
