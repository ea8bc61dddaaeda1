// POST /login/verify-totp (gateway routes/identity-totp-routes.ts, public, the temp token in the
// form): success, failures and bad input. Bursts of wrong codes: ../totp-burst.int.test.ts.
import { describe, expect, it } from 'vitest';
import { login } from '../support/auth-accounts.js';
import { useIdentityHarness } from '../support/suite.js';
import {
  accountWithToken,
  enableTotpFor,
  forgetUsedSteps,
  totpCode,
  type TotpAccount,
} from '../support/totp-fixtures.js';

const harness = useIdentityHarness();

const deps = () => harness.identity.dependencies;

function verify(form: Record<string, string>) {
  return harness.request('POST', '/login/verify-totp', { form });
}

/** An account with TOTP on and a fresh 5-minute challenge token, as password login issues. */
async function challenged(): Promise<TotpAccount & { secret: string; backupCodes: string[]; temp: string }> {
  const account = await accountWithToken(harness, 'tfa');
  const enabled = await enableTotpFor(harness, account);
  const { token } = await deps().tokens.issue(account.id, 'totp_challenge', 300);
  return { ...account, ...enabled, temp: token };
}

describe('POST /login/verify-totp success', () => {
  it('a right code returns a full session and revokes the temp token', async () => {
    const account = await challenged();
    const res = await verify({ temp_token: account.temp, code: await totpCode(account.secret) });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ access_token: expect.any(String), token_type: 'bearer' });
    const claims = await deps().tokens.verify(res.body.data.access_token, 'access');
    // Lifetime from session_timeout_days (default 30).
    expect(claims.exp - claims.iat).toBe(30 * 86_400);
    const me = await harness.request('GET', '/totp/status', { token: res.body.data.access_token });
    expect(me.body.data.enabled).toBe(true);
    await forgetUsedSteps(harness, account.id);
    const reuse = await verify({ temp_token: account.temp, code: await totpCode(account.secret) });
    expect([reuse.status, reuse.body.code]).toEqual([400, 2001]);
  });

  it('a backup code works once (is_backup_code=true) and is consumed', async () => {
    const account = await challenged();
    const code = account.backupCodes[2]!;
    const res = await verify({ temp_token: account.temp, code, is_backup_code: 'true' });
    expect(res.body.code).toBe(0);
    const status = await harness.request('GET', '/totp/status', { token: res.body.data.access_token });
    expect(status.body.data.backup_codes_remaining).toBe(9);
    const { token } = await deps().tokens.issue(account.id, 'totp_challenge', 300);
    const again = await verify({ temp_token: token, code, is_backup_code: 'true' });
    expect([again.status, again.body.code]).toEqual([400, 5311]);
  });

  it('a backup code without is_backup_code is a wrong code; a TOTP code with it too', async () => {
    const account = await challenged();
    const asTotp = await verify({ temp_token: account.temp, code: account.backupCodes[0]! });
    expect(asTotp.body.code).toBe(5311);
    const asBackup = await verify({
      temp_token: account.temp,
      code: await totpCode(account.secret),
      is_backup_code: 'true',
    });
    expect(asBackup.body.code).toBe(5311);
  });

  it('the same authenticator code cannot finish two logins (replay)', async () => {
    const account = await challenged();
    const code = await totpCode(account.secret);
    expect((await verify({ temp_token: account.temp, code })).body.code).toBe(0);
    const { token } = await deps().tokens.issue(account.id, 'totp_challenge', 300);
    const replay = await verify({ temp_token: token, code });
    expect(replay.body.code).toBe(5311);
  });

  it('applies the forced-change rules as login does (expired password)', async () => {
    const account = await challenged();
    await harness.setSettings({ password_max_age_days: 30 });
    try {
      await deps().pool.query(
        `UPDATE users SET password_changed_at = now() - interval '40 days' WHERE id = $1`,
        [account.id],
      );
      const res = await verify({ temp_token: account.temp, code: await totpCode(account.secret) });
      expect(res.body.data).toEqual({
        access_token: expect.any(String),
        token_type: 'bearer',
        force_password_change: true,
        reason: 'expired',
      });
    } finally {
      await harness.setSettings({ password_max_age_days: 0 });
    }
  });

  it('end to end: password login → requires_totp → verify-totp', async () => {
    const account = await challenged();
    const first = await login(harness, account.username, account.password);
    expect(first.body.data).toEqual({ requires_totp: true, temp_token: expect.any(String) });
    const res = await verify({
      temp_token: first.body.data.temp_token,
      code: await totpCode(account.secret),
    });
    expect(res.body.data.token_type).toBe('bearer');
  });

  it('end to end: require_totp → requires_totp_setup → setup + enable with the temp token', async () => {
    const account = await accountWithToken(harness, 'enroll');
    await harness.setSettings({ require_totp: true });
    try {
      const first = await login(harness, account.username, account.password);
      expect(first.body.data).toEqual({ requires_totp_setup: true, temp_token: expect.any(String) });
      const temp = first.body.data.temp_token;
      const setup = await harness.request('POST', '/totp/setup', { token: temp });
      const enable = await harness.request('POST', '/totp/enable', {
        token: temp,
        json: { code: await totpCode(setup.body.data.secret) },
      });
      expect(enable.body.data).toMatchObject({ token_type: 'bearer', access_token: expect.any(String) });
      // Next password login asks for the code.
      const next = await login(harness, account.username, account.password);
      expect(next.body.data.requires_totp).toBe(true);
    } finally {
      await harness.setSettings({ require_totp: false });
    }
  });
});

describe('POST /login/verify-totp failures (spec Authentication rule 7)', () => {
  it('temp token invalid: 400 / 2001 (garbage, forged, access token; enrolment tokens: 5313, below)', async () => {
    const account = await challenged();
    const code = await totpCode(account.secret);
    const access = account.token;
    for (const temp of ['garbage', `${account.temp.slice(0, -4)}AAAA`, access]) {
      const res = await verify({ temp_token: temp, code });
      expect([res.status, res.body.code, res.body.data.error_key]).toEqual([400, 2001, 'temp_token_invalid']);
    }
  });

  it('temp token expired: 400 / 2002', async () => {
    const account = await challenged();
    const expired = await deps().tokens.issue(account.id, 'totp_challenge', -5);
    const res = await verify({ temp_token: expired.token, code: await totpCode(account.secret) });
    expect([res.status, res.body.code, res.body.data.error_key]).toEqual([400, 2002, 'temp_token_expired']);
  });

  it('TOTP not enabled or secret missing: 400 / 5313', async () => {
    const account = await accountWithToken(harness);
    const { token } = await deps().tokens.issue(account.id, 'totp_challenge', 300);
    const res = await verify({ temp_token: token, code: '123456' });
    expect([res.status, res.body.code]).toEqual([400, 5313]);
    const enabled = await challenged();
    await deps().pool.query('UPDATE users SET totp_secret_enc = NULL WHERE id = $1', [enabled.id]);
    const missing = await verify({ temp_token: enabled.temp, code: '123456' });
    expect([missing.status, missing.body.code]).toEqual([400, 5313]);
  });

  it('an enrolment temp token (user without TOTP) gives 400 / 5313, not 2001', async () => {
    const account = await accountWithToken(harness);
    const { token } = await deps().tokens.issue(account.id, 'totp_enrollment', 1_800);
    const res = await verify({ temp_token: token, code: '123456' });
    expect([res.status, res.body.code]).toEqual([400, 5313]);
    // A forged or expired enrolment token is still an invalid temp token.
    const expired = await deps().tokens.issue(account.id, 'totp_enrollment', -5);
    const stale = await verify({ temp_token: expired.token, code: '123456' });
    expect([stale.status, stale.body.code]).toEqual([400, 2001]);
  });

  it('wrong code: 400 / 5311', async () => {
    const account = await challenged();
    const res = await verify({ temp_token: account.temp, code: '000000' });
    expect([res.status, res.body.code]).toEqual([400, 5311]);
  });

  it('5 failures within 300 s lock verification for 900 s: 400 / 5312 with data.seconds', async () => {
    const account = await challenged();
    for (let i = 0; i < 4; i++) {
      const res = await verify({ temp_token: account.temp, code: '000000' });
      expect(res.body.code).toBe(5311);
    }
    const fifth = await verify({ temp_token: account.temp, code: '000000' });
    expect([fifth.status, fifth.body.code, fifth.body.data.seconds]).toEqual([400, 5312, 900]);
    // Locked: even the right code is refused, with the remaining time.
    const right = await verify({ temp_token: account.temp, code: await totpCode(account.secret) });
    expect([right.status, right.body.code]).toEqual([400, 5312]);
    expect(right.body.data.seconds).toBeGreaterThan(890);
    expect(right.body.data.seconds).toBeLessThanOrEqual(900);
    const ttl = await deps().redis.ttl(`totp:locked:${account.id}`);
    expect(ttl).toBeGreaterThan(890);
    // The lock also covers the other code checks of the same user.
    const disable = await harness.request('POST', '/totp/disable', {
      token: account.token,
      json: { code: '000000' },
    });
    expect(disable.body.code).toBe(5312);
  });

  it('failures count in a 300 s window and a success clears them', async () => {
    const account = await challenged();
    for (let i = 0; i < 3; i++) await verify({ temp_token: account.temp, code: '000000' });
    expect(await deps().redis.ttl(`totp:failures:${account.id}`)).toBeGreaterThan(290);
    expect((await verify({ temp_token: account.temp, code: await totpCode(account.secret) })).body.code).toBe(
      0,
    );
    expect(await deps().redis.exists(`totp:failures:${account.id}`)).toBe(0);
  });

  it('an inactive account is refused like password login (400 / 2004)', async () => {
    const account = await challenged();
    await deps().pool.query('UPDATE users SET is_active = false WHERE id = $1', [account.id]);
    const res = await verify({ temp_token: account.temp, code: await totpCode(account.secret) });
    expect([res.status, res.body.code]).toEqual([400, 2004]);
  });
});

describe('POST /login/verify-totp bad input', () => {
  it('a JSON body is 422 / 1001', async () => {
    const res = await harness.request('POST', '/login/verify-totp', {
      json: { temp_token: 'x', code: '123456' },
    });
    expect([res.status, res.body.code]).toEqual([422, 1001]);
  });

  it.each([
    ['missing temp_token', { code: '123456' }, 'temp_token'],
    ['missing code', { temp_token: 'x' }, 'code'],
    ['empty temp_token', { temp_token: '', code: '123456' }, 'temp_token'],
    ['temp_token too long', { temp_token: 'x'.repeat(4097), code: '123456' }, 'temp_token'],
    ['code too long', { temp_token: 'x', code: '1'.repeat(33) }, 'code'],
    [
      'is_backup_code not a boolean',
      { temp_token: 'x', code: '123456', is_backup_code: 'maybe' },
      'is_backup_code',
    ],
  ])('%s is 422 / 1001', async (_name, form, field) => {
    const res = await verify(form as Record<string, string>);
    expect([res.status, res.body.code]).toEqual([422, 1001]);
    expect(Object.keys(res.body.data.errors)).toContain(field);
  });

  it('a repeated field (array) and another content type are refused', async () => {
    const repeated = await fetch(`${harness.baseUrl}/api/v1/login/verify-totp`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'temp_token=a&temp_token=b&code=123456',
    });
    expect(repeated.status).toBe(422);
    const text = await fetch(`${harness.baseUrl}/api/v1/login/verify-totp`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'temp_token=a&code=123456',
    });
    expect(text.status).toBe(415);
  });

  it('GET is 405', async () => {
    expect((await harness.request('GET', '/login/verify-totp')).status).toBe(405);
  });
});
