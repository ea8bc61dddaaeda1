import { SMTP_SINK_CA, startSmtpSink, type SmtpSink } from '@platform/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { sendSmtpMail } from '../src/adapters/channels/email.js';
import { SendFailure } from '../src/domain/delivery/delivery-ports.js';

/** The e-mail sender's three `smtp_encryption` modes against the shared SMTP sink. */
const sinks: SmtpSink[] = [];
afterAll(async () => {
  for (const sink of sinks) await sink.close();
});

async function sink(tls: 'none' | 'starttls' | 'ssl') {
  const started = await startSmtpSink({ tls });
  sinks.push(started);
  return started;
}

const settings = (port: number, encryption: 'none' | 'ssl' | 'tls') => ({
  smtp_host: '127.0.0.1',
  smtp_port: port,
  smtp_encryption: encryption,
  smtp_username: 'mailer',
  smtp_password: 'mail-pass',
  email_from_name: 'Agent Platform',
  email_from_address: 'noreply@platform.test',
});
const mail = (to: string) => ({ to, subject: 'Überschrift ✓', text: 'Body line\nsecond', locale: 'zh' });

/** The sinks listen on loopback, which the SMTP address rule allows only when told (as tests run the service). */
const send = (...[s, m, options]: Parameters<typeof sendSmtpMail>) =>
  sendSmtpMail(s, m, { allowPrivateNetworks: true, ...options });

async function failure(promise: Promise<unknown>): Promise<SendFailure> {
  const error = await promise.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(SendFailure);
  return error as SendFailure;
}

describe('e-mail sender', () => {
  it('none: plain SMTP with login, never upgrading even when the server offers STARTTLS', async () => {
    const plain = await sink('starttls');
    await send(settings(plain.port, 'none'), mail('plain@example.com'));
    const received = await plain.waitForMail('plain@example.com');
    expect(received).toMatchObject({ secure: false, authUser: 'mailer', from: 'noreply@platform.test' });
    expect(received.subject).toBe('Überschrift ✓');
    expect(received.text.replace(/\r\n/g, '\n').trim()).toBe('Body line\nsecond');
    expect(received.raw).toMatch(/^From: Agent Platform <noreply@platform\.test>/m);
    expect(received.raw).toMatch(/^Content-Language: zh/m);
  });

  it('tls: STARTTLS is required and used; a server without it means nothing is sent', async () => {
    const upgrading = await sink('starttls');
    await send(settings(upgrading.port, 'tls'), mail('tls@example.com'), { ca: SMTP_SINK_CA });
    expect(await upgrading.waitForMail('tls@example.com')).toMatchObject({
      secure: true,
      authUser: 'mailer',
    });

    const plainOnly = await sink('none');
    const refused = await failure(send(settings(plainOnly.port, 'tls'), mail('never@example.com')));
    expect(refused.transient).toBe(false);
    expect(plainOnly.mails).toHaveLength(0);
  });

  it('ssl: TLS from the first byte; an untrusted certificate is refused', async () => {
    const implicit = await sink('ssl');
    await send(settings(implicit.port, 'ssl'), mail('ssl@example.com'), { ca: SMTP_SINK_CA });
    expect(await implicit.waitForMail('ssl@example.com')).toMatchObject({ secure: true });

    const untrusted = await failure(send(settings(implicit.port, 'ssl'), mail('untrusted@example.com')));
    expect(untrusted.transient).toBe(false);
    expect(implicit.mails.filter((m) => m.to.includes('untrusted@example.com'))).toHaveLength(0);
  });

  it('a server that is not there is a transient failure', async () => {
    const gone = await sink('none');
    await gone.close();
    sinks.splice(sinks.indexOf(gone), 1);
    const refused = await failure(send(settings(gone.port, 'none'), mail('x@example.com')));
    expect(refused).toMatchObject({ transient: true, key: 'delivery_connection_failed' });
  });
});
