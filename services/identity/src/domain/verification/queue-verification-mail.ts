import { withTransaction } from '@platform/db';
import { toLocale, type Locale } from '@platform/errors';
import {
  insertVerificationToken,
  type MailRecipientRow,
  type VerificationPurpose,
} from '../../data/verification-repository.js';
import type { IdentityDependencies } from '../../deps.js';
import type { SiteSettings } from '../settings/site-settings.js';
import { enqueueEmail } from './email-task.js';
import { renderVerificationMail } from './mail-templates.js';
import { CODE_TTL_MINUTES, hashCode, hashLinkToken, newVerificationSecrets } from './verification-secrets.js';

type Deps = Pick<IdentityDependencies, 'pool' | 'taskSeal' | 'config'>;

/**
 * Where the mail's link points: a page a person can read, never an API envelope. `/verify` verifies
 * and says so; `/reset-password` asks for the new password. The gateway serves both (its account
 * pages) when PUBLIC_WEB_URL is the gateway; another web app must serve the same paths
 * (docs/account-pages.md).
 */
export function verificationLink(publicWebUrl: string, purpose: VerificationPurpose, token: string): string {
  const base = publicWebUrl.replace(/\/+$/, '');
  const path = purpose === 'register' ? '/verify' : '/reset-password';
  return `${base}${path}?token=${encodeURIComponent(token)}`;
}

/**
 * Issues a fresh code + link token for the user (hashes stored, earlier ones retired) and queues
 * the mail through the outbox in the same transaction: the token and its mail commit or roll back
 * together, and the plaintext code and token exist only inside the sealed mail task.
 */
export async function queueVerificationMail(
  deps: Deps,
  settings: SiteSettings,
  user: MailRecipientRow,
  purpose: VerificationPurpose,
  requestLocale: Locale,
): Promise<void> {
  const { code, linkToken } = newVerificationSecrets();
  const locale = toLocale(user.locale) ?? requestLocale;
  const mail = renderVerificationMail({
    purpose,
    locale,
    username: user.username,
    code,
    link: verificationLink(deps.config.PUBLIC_WEB_URL, purpose, linkToken),
    validMinutes: CODE_TTL_MINUTES,
    siteName: settings.email_from_name || 'Agent Platform',
  });
  await withTransaction(deps.pool, async (client) => {
    const tokenId = await insertVerificationToken(client, {
      email: user.email,
      purpose,
      codeHash: hashCode(user.email, purpose, code),
      linkTokenHash: hashLinkToken(linkToken),
      expiresAt: new Date(Date.now() + CODE_TTL_MINUTES * 60_000),
    });
    await enqueueEmail(
      client,
      deps.taskSeal,
      deps.config.QUEUE_TOPIC_PREFIX,
      { to: user.email, subject: mail.subject, text: mail.text, html: mail.html, locale },
      `verification-mail:${tokenId}`,
    );
  });
}
