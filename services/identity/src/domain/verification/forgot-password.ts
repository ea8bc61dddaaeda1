import type { RequestOrigin } from '@platform/grpc';
import { writeAudit } from '../../data/audit-repository.js';
import { findUserByEmail } from '../../data/verification-repository.js';
import { requireCaptcha } from '../auth/captcha-check.js';
import { claimMailCooldown } from './email-cooldown.js';
import { mailRequested, type MailRequested, type VerificationDeps } from './mail-request.js';
import { queueWithCooldown } from './queue-with-cooldown.js';
import { assertSmtpReady } from './smtp-settings.js';

export interface ForgotPasswordInput {
  email: string;
  captchaId?: string;
  captchaToken?: string;
}

/**
 * Rules 2 and 4: always succeeds whatever the address (a mail is queued only when the user
 * exists), except captcha (5302/5303, when on), SMTP disabled (5007) and the cooldown (5008). The
 * cooldown is claimed for unknown addresses as well, so no answer tells whether an account exists.
 * Also serves `send-verification` with purpose `reset_password`.
 */
export async function forgotPassword(
  deps: VerificationDeps,
  input: ForgotPasswordInput,
  meta: RequestOrigin,
): Promise<MailRequested> {
  const settings = await deps.settings.current();
  await requireCaptcha(deps.captcha, settings.enable_captcha, input.captchaId, input.captchaToken);
  assertSmtpReady(settings);
  const user = await findUserByEmail(deps.pool, input.email);
  if (!user) {
    await claimMailCooldown(deps.redis, input.email, 'reset_password');
    return mailRequested(input.email, 'reset_password');
  }
  await queueWithCooldown(deps, settings, user, 'reset_password', meta.locale);
  await writeAudit(deps.pool, {
    actorUserId: null,
    action: 'user.password_reset_requested',
    targetType: 'user',
    targetId: user.id,
    ip: meta.ip,
    userAgent: meta.userAgent,
    requestId: meta.requestId,
  }).catch((err: unknown) => deps.logger.error({ err }, 'audit of a password reset request failed'));
  return mailRequested(input.email, 'reset_password');
}
