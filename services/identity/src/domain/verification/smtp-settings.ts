import { BusinessError, ErrorCode } from '@platform/errors';
import type { SiteSettings } from '../settings/site-settings.js';

type SmtpSettings = Pick<
  SiteSettings,
  | 'smtp_enabled'
  | 'smtp_host'
  | 'smtp_port'
  | 'smtp_encryption'
  | 'smtp_username'
  | 'smtp_password'
  | 'email_from_name'
  | 'email_from_address'
>;

/** The sender address: `email_from_address`, else the SMTP username when it is an address. */
function fromAddress(settings: SmtpSettings): string {
  if (settings.email_from_address) return settings.email_from_address;
  return settings.smtp_username.includes('@') ? settings.smtp_username : '';
}

/** SMTP counts as usable when it is enabled, has a host and a sender address. */
export function isSmtpReady(settings: SmtpSettings): boolean {
  return settings.smtp_enabled && settings.smtp_host.trim() !== '' && fromAddress(settings) !== '';
}

/** Rule 7: SMTP disabled or not configured → 400 / 5007. */
export function assertSmtpReady(settings: SmtpSettings): void {
  if (!isSmtpReady(settings)) throw new BusinessError(ErrorCode.EMAIL_SEND_FAILED);
}
