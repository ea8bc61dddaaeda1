import type { RequestOrigin } from '@platform/grpc';
import { BusinessError } from '@platform/errors';
import { findUserByEmail } from '../../data/verification-repository.js';
import { claimMailCooldown } from './email-cooldown.js';
import { mailRequested, type MailRequested, type VerificationDeps } from './mail-request.js';
import { queueWithCooldown } from './queue-with-cooldown.js';
import { assertSmtpReady } from './smtp-settings.js';

/**
 * Rule 3: succeeds for an unknown address (nothing is sent, the cooldown is still claimed so the
 * answers match); an already-verified address gives 400 / 1001. Shares the `register` cooldown
 * with send-verification.
 */
export async function resendVerification(
  deps: VerificationDeps,
  email: string,
  meta: RequestOrigin,
): Promise<MailRequested> {
  const settings = await deps.settings.current();
  assertSmtpReady(settings);
  const user = await findUserByEmail(deps.pool, email);
  if (user?.email_verified) throw BusinessError.named('email_already_verified');
  if (!user) await claimMailCooldown(deps.redis, email, 'register');
  else await queueWithCooldown(deps, settings, user, 'register', meta.locale);
  return mailRequested(email, 'register');
}
