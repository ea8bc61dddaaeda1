import { BusinessError, ErrorCode } from '@platform/errors';
import type { SiteSettings } from '../settings/site-settings.js';

/** nodemailer's SMTP transport options, built from the site settings (no nodemailer types here). */
export interface SmtpTransportOptions {
  host: string;
  port: number;
  /** Implicit TLS from the first byte (`ssl`). */
  secure: boolean;
  /** STARTTLS is mandatory (`tls`). */
  requireTLS: boolean;
  /** Never upgrade, even when the server offers STARTTLS (`none`). */
  ignoreTLS: boolean;
  auth?: { user: string; pass: string };
}

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

export function smtpTransportOptions(settings: SmtpSettings): SmtpTransportOptions {
  const encryption: string = settings.smtp_encryption;
  return {
    host: settings.smtp_host.trim(),
    port: settings.smtp_port,
    secure: encryption === 'ssl',
    requireTLS: encryption === 'tls',
    ignoreTLS: encryption === 'none',
    ...(settings.smtp_username
      ? { auth: { user: settings.smtp_username, pass: settings.smtp_password } }
      : {}),
  };
}

export function mailSender(settings: SmtpSettings): { name: string; address: string } {
  return { name: settings.email_from_name, address: fromAddress(settings) };
}
