import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

const FIXTURES = new URL('../fixtures/', import.meta.url);

/**
 * The sink's self-signed certificate (CN localhost, SAN 127.0.0.1): pass it as the trusted CA of
 * a client that talks TLS to a sink started with `tls: 'ssl' | 'starttls'`.
 */
export const SMTP_SINK_CA = readFileSync(new URL('smtp-test-cert.pem', FIXTURES), 'utf8');
const SMTP_SINK_KEY = readFileSync(new URL('smtp-test-key.pem', FIXTURES), 'utf8');

export interface SmtpSinkOptions {
  /**
   * `none` (default): plain SMTP, STARTTLS not offered. `starttls`: plain SMTP offering STARTTLS.
   * `ssl`: TLS from the first byte. Both TLS modes use SMTP_SINK_CA's certificate.
   */
  tls?: 'none' | 'starttls' | 'ssl';
}

/** One message the sink received, with its text part decoded. */
export interface ReceivedMail {
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
  raw: string;
  /** Whether the session was encrypted (implicit TLS or after STARTTLS) when the mail arrived. */
  secure: boolean;
  /** The user the client logged in as, if it did. */
  authUser: string | undefined;
}

export interface SmtpSink {
  port: number;
  mails: ReceivedMail[];
  /** Resolves with the first mail to `to` (already received or arriving), from index `after` on. */
  waitForMail(to: string, options?: { timeoutMs?: number; after?: number }): Promise<ReceivedMail>;
  close(): Promise<void>;
}

// ---- a minimal MIME reader: enough for what nodemailer writes --------------------------------

function splitHeaders(raw: string): { headers: Map<string, string>; body: string } {
  const index = raw.search(/\r?\n\r?\n/);
  const head = index < 0 ? raw : raw.slice(0, index);
  const body = index < 0 ? '' : raw.slice(index).replace(/^\r?\n\r?\n/, '');
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function decodeQuotedPrintable(value: string): string {
  const bytes = value
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

function decodeBody(body: string, encoding: string | undefined): string {
  switch ((encoding ?? '').toLowerCase()) {
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    case 'quoted-printable':
      return decodeQuotedPrintable(body);
    default:
      return body;
  }
}

/** RFC 2047 encoded words (`=?UTF-8?B?…?=` / `=?UTF-8?Q?…?=`). */
function decodeHeader(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?[^?]+\?([BQ])\?([^?]*)\?=/gi, (_m, kind: string, text: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : decodeQuotedPrintable(text.replace(/_/g, ' ')),
    );
}

function collectParts(raw: string, out: { text: string; html: string }): Map<string, string> {
  const { headers, body } = splitHeaders(raw);
  const type = headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (type.toLowerCase().startsWith('multipart/') && boundary) {
    for (const part of body.split(`--${boundary}`).slice(1)) {
      if (part.startsWith('--')) break;
      collectParts(part.replace(/^\r?\n/, ''), out);
    }
  } else if (type.toLowerCase().startsWith('text/html')) {
    out.html = decodeBody(body, headers.get('content-transfer-encoding'));
  } else if (type.toLowerCase().startsWith('text/plain')) {
    out.text = decodeBody(body, headers.get('content-transfer-encoding'));
  }
  return headers;
}

export function parseMail(
  raw: string,
  to: string[],
  from: string,
  session: { secure: boolean; authUser?: string } = { secure: false },
): ReceivedMail {
  const parts = { text: '', html: '' };
  const headers = collectParts(raw, parts);
  return {
    to,
    from,
    subject: decodeHeader(headers.get('subject') ?? ''),
    ...parts,
    raw,
    secure: session.secure,
    authUser: session.authUser,
  };
}

/**
 * A local SMTP server (no TLS, any or no login) that keeps every message in memory; tests point
 * the SMTP site settings at it with `smtp_encryption: none`.
 */
export async function startSmtpSink(options: SmtpSinkOptions = {}): Promise<SmtpSink> {
  const mails: ReceivedMail[] = [];
  const waiters = new Set<() => void>();
  const tls = options.tls ?? 'none';
  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    ...(tls === 'none' ? { disabledCommands: ['STARTTLS'] } : { key: SMTP_SINK_KEY, cert: SMTP_SINK_CA }),
    secure: tls === 'ssl',
    logger: false,
    onAuth: (auth, _session, callback) => callback(null, { user: auth.username ?? 'test' }),
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const to = session.envelope.rcptTo.map((r) => r.address.toLowerCase());
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        const user = (session as { user?: unknown }).user;
        mails.push(
          parseMail(Buffer.concat(chunks).toString('utf8'), to, from, {
            secure: session.secure,
            authUser: typeof user === 'string' ? user : undefined,
          }),
        );
        for (const wake of waiters) wake();
        callback();
      });
    },
  });
  // A client that gives up mid-handshake (an untrusted certificate) is the client's failure, not the sink's.
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;

  return {
    port,
    mails,
    waitForMail(to, { timeoutMs = 20_000, after = 0 } = {}) {
      const find = () => mails.slice(after).find((m) => m.to.includes(to.toLowerCase()));
      const found = find();
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const wake = () => {
          const mail = find();
          if (!mail) return;
          clearTimeout(timer);
          waiters.delete(wake);
          resolve(mail);
        };
        const timer = setTimeout(() => {
          waiters.delete(wake);
          reject(new Error(`no mail to ${to} within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(wake);
      });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
