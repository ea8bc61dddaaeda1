// POST /totp/disable, POST /totp/regenerate-backup-codes and GET /totp/status (gateway
// routes/identity-totp-routes.ts): happy paths, errors and security; then bad input of every TOTP
// body route. Setup and enable: totp-setup-and-enable.int.test.ts; login: post-login-verify-totp.
import { describe, expect, it } from 'vitest';
import { describeRouteSecurity } from '../support/route-security.js';
import { useIdentityHarness } from '../support/suite.js';
import { accountWithToken, enableTotpFor, totpCode } from '../support/totp-fixtures.js';

const harness = useIdentityHarness();

const db = () => harness.identity.dependencies.pool;

describe('TOTP disable, backup codes and status (Bearer)', () => {
  it('disable with an authenticator code turns TOTP off and drops the backup codes', async () => {
    const account = await accountWithToken(harness);
    const { secret } = await enableTotpFor(harness, account);
    const res = await harness.request('POST', '/totp/disable', {
      token: account.token,
      json: { code: await totpCode(secret) },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toBeNull();
    const status = await harness.request('GET', '/totp/status', { token: account.token });
    expect(status.body.data).toEqual({ enabled: false, backup_codes_remaining: 0 });
    const { rows } = await db().query(
      'SELECT totp_secret_enc, (SELECT count(*)::int FROM totp_backup_codes WHERE user_id = $1) AS n FROM users WHERE id = $1',
      [account.id],
    );
    expect(rows[0]).toEqual({ totp_secret_enc: null, n: 0 });
  });

  it('disable with a backup code works (dash and case do not matter)', async () => {
    const account = await accountWithToken(harness);
    const { backupCodes } = await enableTotpFor(harness, account);
    const res = await harness.request('POST', '/totp/disable', {
      token: account.token,
      json: { code: backupCodes[3]!.replace('-', '').toUpperCase() },
    });
    expect(res.body.code).toBe(0);
  });

  it('disable with a wrong code is 5311; when not enabled 5313', async () => {
    const account = await accountWithToken(harness);
    const notEnabled = await harness.request('POST', '/totp/disable', {
      token: account.token,
      json: { code: '123456' },
    });
    expect([notEnabled.status, notEnabled.body.code]).toEqual([400, 5313]);
    await enableTotpFor(harness, account);
    const wrong = await harness.request('POST', '/totp/disable', {
      token: account.token,
      json: { code: 'zzzzz-zzzzz' },
    });
    expect([wrong.status, wrong.body.code]).toEqual([400, 5311]);
  });

  it('regenerate replaces every backup code; old ones stop working', async () => {
    const account = await accountWithToken(harness);
    const { secret, backupCodes } = await enableTotpFor(harness, account);
    const res = await harness.request('POST', '/totp/regenerate-backup-codes', {
      token: account.token,
      json: { code: await totpCode(secret) },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.backup_codes).toHaveLength(10);
    expect(res.body.data.backup_codes.some((c: string) => backupCodes.includes(c))).toBe(false);
    const old = await harness.request('POST', '/totp/disable', {
      token: account.token,
      json: { code: backupCodes[0] },
    });
    expect(old.body.code).toBe(5311);
    const fresh = await harness.request('POST', '/totp/disable', {
      token: account.token,
      json: { code: res.body.data.backup_codes[0] },
    });
    expect(fresh.body.code).toBe(0);
  });

  it('regenerate when not enabled is 5313; status counts used backup codes', async () => {
    const account = await accountWithToken(harness);
    const res = await harness.request('POST', '/totp/regenerate-backup-codes', {
      token: account.token,
      json: { code: '123456' },
    });
    expect([res.status, res.body.code]).toEqual([400, 5313]);
    const { backupCodes } = await enableTotpFor(harness, account);
    const regen = await harness.request('POST', '/totp/regenerate-backup-codes', {
      token: account.token,
      json: { code: backupCodes[0] },
    });
    expect(regen.body.code).toBe(0);
    await db().query(
      `UPDATE totp_backup_codes SET used_at = now()
        WHERE id IN (SELECT id FROM totp_backup_codes WHERE user_id = $1 LIMIT 3)`,
      [account.id],
    );
    const status = await harness.request('GET', '/totp/status', { token: account.token });
    expect(status.body.data).toEqual({ enabled: true, backup_codes_remaining: 7 });
  });

  it('an authenticator code is accepted once per time step (replay refused)', async () => {
    const account = await accountWithToken(harness);
    const { secret } = await enableTotpFor(harness, account);
    const code = await totpCode(secret);
    const first = await harness.request('POST', '/totp/regenerate-backup-codes', {
      token: account.token,
      json: { code },
    });
    expect(first.body.code).toBe(0);
    const replay = await harness.request('POST', '/totp/regenerate-backup-codes', {
      token: account.token,
      json: { code },
    });
    expect(replay.body.code).toBe(5311);
  });

  it.each([
    ['GET', '/totp/status'],
    ['POST', '/totp/disable'],
    ['POST', '/totp/regenerate-backup-codes'],
  ])('%s %s needs a Bearer token (401 / 2000)', async (method, path) => {
    const res = await harness.request(method, path, method === 'POST' ? { json: { code: '123456' } } : {});
    expect([res.status, res.body.code]).toEqual([401, 2000]);
  });
});

describe('TOTP routes bad input (422 / 1001 at the gateway)', () => {
  const routes = ['/totp/enable', '/totp/disable', '/totp/regenerate-backup-codes'];
  const bodies: [string, unknown][] = [
    ['missing code', {}],
    ['code a number', { code: 123456 }],
    ['code empty', { code: '' }],
    ['code too long', { code: '1'.repeat(33) }],
    ['code null', { code: null }],
    ['unknown field', { code: '123456', extra: true }],
    ['an array body', [{ code: '123456' }]],
  ];
  for (const path of routes) {
    it.each(bodies)(`${path}: %s`, async (_name, json) => {
      const account = await accountWithToken(harness);
      const res = await harness.request('POST', path, { token: account.token, json });
      expect([res.status, res.body.code]).toEqual([422, 1001]);
    });

    it(`${path}: a form body is 415 and malformed JSON 400`, async () => {
      const account = await accountWithToken(harness);
      const form = await harness.request('POST', path, { token: account.token, form: { code: '123456' } });
      expect(form.status).toBe(415);
      const malformed = await fetch(`${harness.baseUrl}/api/v1${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${account.token}` },
        body: '{"code": "12',
      });
      expect(malformed.status).toBe(400);
    });
  }

  it('GET /totp/status and POST /totp/setup refuse other methods (405)', async () => {
    expect((await harness.request('DELETE', '/totp/status')).status).toBe(405);
    expect((await harness.request('GET', '/totp/setup')).status).toBe(405);
  });
});

// Setup and enable take an enrollment token too: their credential checks are in their own file.
describeRouteSecurity(() => harness, /^\/totp\/(disable|regenerate-backup-codes|status)$/);
