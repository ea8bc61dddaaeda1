import { startSmtpSink, type SmtpSink } from '@platform/testing';
import { afterAll, beforeAll } from 'vitest';
import { startIdentityHarness, type IdentityHarness, type RequestOptions } from './harness.js';
import { useSmtpSink } from './verification-fixtures.js';

export interface MailSuite {
  readonly harness: IdentityHarness;
  readonly sink: SmtpSink;
  /** POST with a JSON body. */
  post(
    path: string,
    json: unknown,
    headers?: RequestOptions['headers'],
  ): ReturnType<IdentityHarness['request']>;
  /** The user's verification and password state, read from the database. */
  userRow(id: string): Promise<Record<string, any>>;
  /** Verification tokens stored for the address, used or not. */
  openTokenCount(email: string): Promise<number>;
}

/**
 * Identity behind the gateway with its mail going to a local SMTP sink (started before the file's
 * tests, stopped after): the setup of the verification and password-reset files.
 */
export function useMailSuite(publicWebUrl: string): MailSuite {
  let harness: IdentityHarness | undefined;
  let sink: SmtpSink | undefined;
  beforeAll(async () => {
    sink = await startSmtpSink();
    harness = await startIdentityHarness({ PUBLIC_WEB_URL: publicWebUrl });
    await useSmtpSink(harness, sink);
  });
  afterAll(async () => {
    await harness?.stop();
    await sink?.close();
  });
  const live = () => {
    if (!harness || !sink) throw new Error('the mail suite is not running (use it inside tests and hooks)');
    return { harness, sink };
  };
  return {
    get harness() {
      return live().harness;
    },
    get sink() {
      return live().sink;
    },
    post: (path, json, headers) => live().harness.request('POST', path, { json, headers }),
    async userRow(id) {
      const { rows } = await live().harness.identity.dependencies.pool.query(
        `SELECT email_verified, password_hash, failed_login_attempts, locked_until, force_password_change
           FROM users WHERE id = $1`,
        [id],
      );
      return rows[0];
    },
    async openTokenCount(email) {
      const { rows } = await live().harness.identity.dependencies.pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM verification_tokens WHERE email = $1`,
        [email],
      );
      return rows[0]!.n;
    },
  };
}
