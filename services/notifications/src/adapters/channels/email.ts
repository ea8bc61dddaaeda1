import { SpanKind, withSpan } from '@platform/telemetry';
import nodemailer from 'nodemailer';
import { mailFromAddress } from '@platform/contracts';
import { clip, permanentFailure, transientFailure } from '../../domain/delivery/delivery-ports.js';
import { smtpConnectTarget, type SmtpAddressPolicy, type SmtpConnectTarget } from './smtp-destination.js';
import type { OutgoingMail, SmtpSettings } from '../../domain/delivery/delivery-ports.js';

export interface SmtpOptions extends SmtpAddressPolicy {
  /** Extra trusted CA (PEM) for the SMTP server's certificate; tests use their own. */
  ca?: string;
  timeoutMs?: number;
}

/** Codes nodemailer gives connection-level trouble: the server may be back later. */
const TRANSIENT_CODES = new Set([
  'ECONNECTION',
  'ETIMEDOUT',
  'ESOCKET',
  'EDNS',
  'ECONNREFUSED',
  'ECONNRESET',
]);

/**
 * nodemailer's transport for the three `smtp_encryption` values: `ssl` is TLS from the first byte,
 * `tls` requires STARTTLS (a server without it fails the send), `none` never upgrades.
 */
export function smtpTransportOptions(
  settings: SmtpSettings,
  options: SmtpOptions = {},
  target: SmtpConnectTarget = { address: settings.smtp_host.trim() },
) {
  const timeout = options.timeoutMs ?? 30_000;
  return {
    host: target.address,
    ...(target.servername ? { servername: target.servername } : {}),
    port: settings.smtp_port,
    secure: settings.smtp_encryption === 'ssl',
    requireTLS: settings.smtp_encryption === 'tls',
    ignoreTLS: settings.smtp_encryption === 'none',
    ...(settings.smtp_username
      ? { auth: { user: settings.smtp_username, pass: settings.smtp_password } }
      : {}),
    ...(options.ca ? { tls: { ca: options.ca } } : {}),
    connectionTimeout: Math.min(timeout, 10_000),
    greetingTimeout: Math.min(timeout, 10_000),
    socketTimeout: timeout,
  };
}

/**
 * Sends one mail over a fresh SMTP connection (a settings change applies to the next mail), to
 * the host's address as checked by the outbound address rule (smtp-destination.ts).
 * SMTP 4xx replies and connection trouble are transient; 5xx replies, bad credentials and TLS
 * failures are permanent. nodemailer has no OpenTelemetry instrumentation, so the send is a
 * CLIENT span of its own (`smtp send`, host and port; never the recipient).
 */
export async function sendSmtpMail(settings: SmtpSettings, mail: OutgoingMail, options: SmtpOptions = {}) {
  const attributes = {
    'server.address': settings.smtp_host.trim(),
    'server.port': settings.smtp_port,
    'smtp.encryption': settings.smtp_encryption,
  };
  await withSpan('smtp send', { kind: SpanKind.CLIENT, attributes }, async () => {
    // Checked (and pinned) before anything connects: the stored credentials go nowhere unchecked.
    const target = await smtpConnectTarget(settings.smtp_host, options);
    const transport = nodemailer.createTransport(smtpTransportOptions(settings, options, target));
    try {
      await transport.sendMail({
        from: { name: settings.email_from_name, address: mailFromAddress(settings) },
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        ...(mail.html ? { html: mail.html } : {}),
        ...(mail.locale ? { headers: { 'Content-Language': mail.locale } } : {}),
      });
    } catch (err) {
      throw smtpFailure(err as Error & { code?: string; responseCode?: number; response?: string });
    } finally {
      transport.close();
    }
  });
}

function smtpFailure(err: Error & { code?: string; responseCode?: number; response?: string }) {
  const detail = clip(err.response ?? err.message);
  if (typeof err.responseCode === 'number' && err.responseCode > 0) {
    const params = { code: err.responseCode, detail };
    return err.responseCode < 500 && err.code !== 'EAUTH'
      ? transientFailure('delivery_smtp_rejected', params)
      : permanentFailure('delivery_smtp_rejected', params);
  }
  // A certificate or TLS-version problem does not heal by retrying; it needs a settings change.
  if (/certificate|self[- ]signed|\bSSL\b|TLS|wrong version/i.test(err.message)) {
    return permanentFailure('delivery_smtp_rejected', { code: err.code ?? 'TLS', detail });
  }
  if (err.code && TRANSIENT_CODES.has(err.code)) {
    return transientFailure('delivery_connection_failed', { reason: `${err.code}: ${detail}` });
  }
  return permanentFailure('delivery_smtp_rejected', { code: err.code ?? 'error', detail });
}
