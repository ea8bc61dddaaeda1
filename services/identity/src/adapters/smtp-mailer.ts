import nodemailer from 'nodemailer';
import type { SmtpTransportOptions } from '../domain/verification/smtp-settings.js';

export interface OutgoingMail {
  from: { name: string; address: string };
  to: string;
  subject: string;
  text: string;
  html: string;
  locale: string;
}

/**
 * Sends one mail over a fresh SMTP connection. A connection per mail keeps a settings change
 * effective on the next mail; the timeouts keep a dead server from holding the worker.
 */
export async function sendSmtpMail(options: SmtpTransportOptions, mail: OutgoingMail): Promise<void> {
  const transport = nodemailer.createTransport({
    ...options,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  try {
    await transport.sendMail({
      from: mail.from,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      ...(mail.html ? { html: mail.html } : {}),
      headers: { 'Content-Language': mail.locale },
    });
  } finally {
    transport.close();
  }
}
