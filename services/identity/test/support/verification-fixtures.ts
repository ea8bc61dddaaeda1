import { uniqueName, type ReceivedMail, type SmtpSink } from '@platform/testing';
import type { IdentityHarness } from './harness.js';

export interface TestUser {
  id: string;
  username: string;
  email: string;
}

/** Inserts an account directly (the registration flow is another area's test subject). */
export async function insertUser(
  harness: IdentityHarness,
  options: { verified?: boolean; locale?: string | null; password?: string } = {},
): Promise<TestUser> {
  const username = uniqueName('ver').replace(/-/g, '_');
  const email = `${username}@example.test`;
  const hash = await harness.identity.dependencies.passwords.hash(options.password ?? 'Original-pass-1');
  const { rows } = await harness.identity.dependencies.pool.query<{ id: string }>(
    `INSERT INTO users (username, email, password_hash, locale, email_verified)
     VALUES ($1, $2, $3, $4, $5) RETURNING id`,
    [username, email, hash, options.locale ?? null, options.verified ?? false],
  );
  return { id: rows[0]!.id, username, email };
}

/** An address no account has. */
export function unknownEmail(): string {
  return `${uniqueName('nobody')}@example.test`;
}

/** Points the SMTP site settings at the sink (plain SMTP, a login the sink accepts). */
/**
 * Points the SMTP settings at the sink and, unless `startWorker` is false, starts the mail worker
 * (the notifications service, which sends what identity queues).
 */
export async function useSmtpSink(
  harness: IdentityHarness,
  sink: SmtpSink,
  startWorker = true,
): Promise<void> {
  await harness.setSettings({
    smtp_enabled: true,
    smtp_host: '127.0.0.1',
    smtp_port: sink.port,
    smtp_encryption: 'none',
    smtp_username: 'mailer',
    smtp_password: 'mailer-secret',
    email_from_name: 'Agent Platform Test',
    email_from_address: 'noreply@example.test',
  });
  if (startWorker) await harness.startMailWorker();
}

/** The 6-digit code and the `?token=` link token of a verification or reset mail. */
export function extractSecrets(mail: ReceivedMail): { code: string; token: string; link: string } {
  const code = /(?:^|\s)(\d{6})(?:\s|$)/m.exec(mail.text)?.[1];
  const link = /(https?:\/\/\S+\?token=[A-Za-z0-9_%-]+)/.exec(mail.text)?.[1];
  if (!code || !link) throw new Error(`no code or link in mail:\n${mail.text}`);
  return { code, link, token: decodeURIComponent(new URL(link).searchParams.get('token') ?? '') };
}
