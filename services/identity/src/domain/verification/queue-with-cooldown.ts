import type { Locale } from '@platform/errors';
import type { MailRecipientRow, VerificationPurpose } from '../../data/verification-repository.js';
import type { SiteSettings } from '../settings/site-settings.js';
import { claimMailCooldown, releaseMailCooldown } from './email-cooldown.js';
import type { VerificationDeps } from './mail-request.js';
import { queueVerificationMail } from './queue-verification-mail.js';

/**
 * Claims the 60-second cooldown (5008 when taken) and queues the mail; when queueing fails the
 * slot is given back so the user can retry at once.
 */
export async function queueWithCooldown(
  deps: VerificationDeps,
  settings: SiteSettings,
  user: MailRecipientRow,
  purpose: VerificationPurpose,
  locale: Locale,
): Promise<void> {
  await claimMailCooldown(deps.redis, user.email, purpose);
  try {
    await queueVerificationMail(deps, settings, user, purpose, locale);
  } catch (err) {
    await releaseMailCooldown(deps.redis, user.email, purpose).catch(() => undefined);
    throw err;
  }
}
