// POST /totp/setup and POST /totp/enable (gateway routes/identity-totp-routes.ts), with an access
// token or an enrollment token: the happy paths, errors and the credential checks (identity
// verifies the token). Their bad input, and disable, backup codes and status: totp.int.test.ts.
import { describe, expect, it } from 'vitest';
import { useIdentityHarness } from '../support/suite.js';
import { accountWithToken, enableTotpFor, totpCode } from '../support/totp-fixtures.js';

const harness = useIdentityHarness();

const db = () => harness.identity.dependencies.pool;

describe('TOTP setup and enable (Bearer access token)', () => {
  it('setup returns a secret and otpauth URL and keeps the pending secret encrypted', async () => {
    const account = await accountWithToken(harness);
    const res = await harness.request('POST', '/totp/setup', { token: account.token });
    expect(res.status).toBe(200);
    const { secret, otpauth_url } = res.body.data;
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    expect(otpauth_url).toMatch(/^otpauth:\/\/totp\/Agent%20Platform:/);
    expect(otpauth_url).toContain(`secret=${secret}`);
    expect(otpauth_url).toContain(encodeURIComponent(account.username));
    const { rows } = await db().query(
      'SELECT totp_enabled, totp_pending_secret_enc, totp_secret_enc FROM users WHERE id = $1',
      [account.id],
    );
    expect(rows[0].totp_enabled).toBe(false);
    expect(rows[0].totp_secret_enc).toBeNull();
    expect(rows[0].totp_pending_secret_enc).not.toContain(secret);
    expect(harness.identity.dependencies.secrets.decrypt(rows[0].totp_pending_secret_enc)).toBe(secret);
  });

  it('enable with a right code turns TOTP on and returns 10 backup codes stored hashed', async () => {
    const account = await accountWithToken(harness);
    const setup = await harness.request('POST', '/totp/setup', { token: account.token });
    const secret = setup.body.data.secret;
    const res = await harness.request('POST', '/totp/enable', {
      token: account.token,
      json: { code: await totpCode(secret) },
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data)).toEqual(['backup_codes']);
    const codes: string[] = res.body.data.backup_codes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);

    const user = await db().query(
      'SELECT totp_enabled, totp_secret_enc, totp_pending_secret_enc FROM users WHERE id = $1',
      [account.id],
    );
    expect(user.rows[0].totp_enabled).toBe(true);
    expect(user.rows[0].totp_pending_secret_enc).toBeNull();
    expect(harness.identity.dependencies.secrets.decrypt(user.rows[0].totp_secret_enc)).toBe(secret);
    const stored = await db().query('SELECT code_hash FROM totp_backup_codes WHERE user_id = $1', [
      account.id,
    ]);
    expect(stored.rows).toHaveLength(10);
    for (const row of stored.rows) {
      expect(row.code_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(codes.some((c) => row.code_hash.includes(c.replace('-', '')))).toBe(false);
    }
    const status = await harness.request('GET', '/totp/status', { token: account.token });
    expect(status.body.data).toEqual({ enabled: true, backup_codes_remaining: 10 });
    const audit = await db().query(`SELECT action FROM audit_log WHERE actor_user_id = $1 ORDER BY id`, [
      account.id,
    ]);
    expect(audit.rows.map((r) => r.action)).toEqual(
      expect.arrayContaining(['totp.setup_started', 'totp.enabled']),
    );
  });

  it('enable with a wrong code is 5311 and leaves TOTP off', async () => {
    const account = await accountWithToken(harness);
    await harness.request('POST', '/totp/setup', { token: account.token });
    const res = await harness.request('POST', '/totp/enable', {
      token: account.token,
      json: { code: '000000' },
    });
    expect([res.status, res.body.code]).toEqual([400, 5311]);
    const status = await harness.request('GET', '/totp/status', { token: account.token });
    expect(status.body.data).toEqual({ enabled: false, backup_codes_remaining: 0 });
  });

  it('enable before setup is 5313 (setup not started)', async () => {
    const account = await accountWithToken(harness);
    const res = await harness.request('POST', '/totp/enable', {
      token: account.token,
      json: { code: '123456' },
    });
    expect([res.status, res.body.code]).toEqual([400, 5313]);
    expect(res.body.data.error_key).toBe('totp_setup_not_started');
  });

  it('enable and setup when already enabled are 5314', async () => {
    const account = await accountWithToken(harness);
    const { secret } = await enableTotpFor(harness, account);
    const enable = await harness.request('POST', '/totp/enable', {
      token: account.token,
      json: { code: await totpCode(secret) },
    });
    expect([enable.status, enable.body.code]).toEqual([400, 5314]);
    const setup = await harness.request('POST', '/totp/setup', { token: account.token });
    expect([setup.status, setup.body.code]).toEqual([400, 5314]);
  });

  it('a second setup replaces the pending secret (codes of the first no longer enable)', async () => {
    const account = await accountWithToken(harness);
    const first = await harness.request('POST', '/totp/setup', { token: account.token });
    const second = await harness.request('POST', '/totp/setup', { token: account.token });
    expect(first.body.data.secret).not.toBe(second.body.data.secret);
    const stale = await harness.request('POST', '/totp/enable', {
      token: account.token,
      json: { code: await totpCode(first.body.data.secret) },
    });
    expect(stale.body.code).toBe(5311);
    const fresh = await harness.request('POST', '/totp/enable', {
      token: account.token,
      json: { code: await totpCode(second.body.data.secret) },
    });
    expect(fresh.body.code).toBe(0);
  });
});

describe('TOTP setup/enable credential checks (verified by identity, gateway rules)', () => {
  it.each(['setup', 'enable'])('%s without a bearer credential is 401 / 2000', async (action) => {
    const res = await harness.request(
      'POST',
      `/totp/${action}`,
      action === 'enable' ? { json: { code: '123456' } } : {},
    );
    expect([res.status, res.body.code]).toEqual([401, 2000]);
  });

  it.each(['setup', 'enable'])('%s with a garbage or forged token is 403 / 2003', async (action) => {
    const options = action === 'enable' ? { json: { code: '123456' } } : {};
    const garbage = await harness.request('POST', `/totp/${action}`, { ...options, token: 'not.a.jwt' });
    expect([garbage.status, garbage.body.code]).toEqual([403, 2003]);
    const account = await accountWithToken(harness);
    const forged = `${account.token.slice(0, -4)}AAAA`;
    const bad = await harness.request('POST', `/totp/${action}`, { ...options, token: forged });
    expect([bad.status, bad.body.code]).toEqual([403, 2003]);
  });

  it('an expired access token is 403 / 2003; a challenge temp token is 403 / 2003', async () => {
    const account = await accountWithToken(harness);
    const { tokens } = harness.identity.dependencies;
    const expired = await tokens.issue(account.id, 'access', -10);
    const res = await harness.request('POST', '/totp/setup', { token: expired.token });
    expect([res.status, res.body.code]).toEqual([403, 2003]);
    const challenge = await tokens.issue(account.id, 'totp_challenge', 300);
    const res2 = await harness.request('POST', '/totp/setup', { token: challenge.token });
    expect([res2.status, res2.body.code]).toEqual([403, 2003]);
  });

  it('a logged-out access token is 401 / 2001', async () => {
    const account = await accountWithToken(harness);
    const { tokens, sessions } = harness.identity.dependencies;
    await sessions.revoke(await tokens.verify(account.token, 'access'));
    const res = await harness.request('POST', '/totp/setup', { token: account.token });
    expect([res.status, res.body.code, res.body.data.error_key]).toEqual([401, 2001, 'token_revoked']);
  });

  it('a token superseded by a single-session login is 401 / 2001', async () => {
    const account = await accountWithToken(harness);
    const { tokens, sessions } = harness.identity.dependencies;
    const newer = await tokens.issue(account.id, 'access', 3_600);
    await sessions.makeCurrent(newer.claims);
    const res = await harness.request('POST', '/totp/setup', { token: account.token });
    expect([res.status, res.body.code, res.body.data.error_key]).toEqual([
      401,
      2001,
      'session_expired_new_login',
    ]);
  });

  it('an inactive user is 401 / 2004', async () => {
    const account = await accountWithToken(harness);
    await db().query('UPDATE users SET is_active = false WHERE id = $1', [account.id]);
    const res = await harness.request('POST', '/totp/setup', { token: account.token });
    expect([res.status, res.body.code]).toEqual([401, 2004]);
  });
});

describe('TOTP enrollment with a temp token (login variant requires_totp_setup)', () => {
  it('setup and enable work with the enrollment token; enable returns a full session once', async () => {
    const account = await accountWithToken(harness);
    const { tokens } = harness.identity.dependencies;
    const enrollment = await tokens.issue(account.id, 'totp_enrollment', 1_800);
    const setup = await harness.request('POST', '/totp/setup', { token: enrollment.token });
    expect(setup.status).toBe(200);
    const enable = await harness.request('POST', '/totp/enable', {
      token: enrollment.token,
      json: { code: await totpCode(setup.body.data.secret) },
    });
    expect(enable.status).toBe(200);
    expect(enable.body.data).toEqual({
      backup_codes: expect.any(Array),
      access_token: expect.any(String),
      token_type: 'bearer',
    });
    // The access token is a real session at the gateway.
    const status = await harness.request('GET', '/totp/status', { token: enable.body.data.access_token });
    expect(status.body.data).toEqual({ enabled: true, backup_codes_remaining: 10 });
    // The enrollment token was single-use.
    const again = await harness.request('POST', '/totp/setup', { token: enrollment.token });
    expect([again.status, again.body.code]).toEqual([401, 2001]);
  });

  it('enable after enrollment applies the forced-change rules', async () => {
    const account = await accountWithToken(harness);
    await db().query('UPDATE users SET force_password_change = true WHERE id = $1', [account.id]);
    const enrollment = await harness.identity.dependencies.tokens.issue(account.id, 'totp_enrollment', 1_800);
    const setup = await harness.request('POST', '/totp/setup', { token: enrollment.token });
    const enable = await harness.request('POST', '/totp/enable', {
      token: enrollment.token,
      json: { code: await totpCode(setup.body.data.secret) },
    });
    expect(enable.body.data).toMatchObject({
      token_type: 'bearer',
      force_password_change: true,
      reason: 'force',
    });
  });

  it('an expired enrollment token is 5315 on setup and enable', async () => {
    const account = await accountWithToken(harness);
    const expired = await harness.identity.dependencies.tokens.issue(account.id, 'totp_enrollment', -5);
    const setup = await harness.request('POST', '/totp/setup', { token: expired.token });
    expect([setup.status, setup.body.code]).toEqual([400, 5315]);
    const enable = await harness.request('POST', '/totp/enable', {
      token: expired.token,
      json: { code: '123456' },
    });
    expect([enable.status, enable.body.code]).toEqual([400, 5315]);
  });

  it('the enrollment token does not open Bearer routes', async () => {
    const account = await accountWithToken(harness);
    const enrollment = await harness.identity.dependencies.tokens.issue(account.id, 'totp_enrollment', 1_800);
    const res = await harness.request('GET', '/totp/status', { token: enrollment.token });
    expect([res.status, res.body.code]).toEqual([403, 2003]);
  });
});
