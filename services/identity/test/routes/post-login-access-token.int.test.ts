// POST /login/access-token (gateway routes/identity-auth-routes.ts, public): the outcome order,
// password-login details and bad input. The TOTP step: post-login-verify-totp.int.test.ts; lockouts
// under bursts and parallel logins: ../auth-lockout-burst and ../auth-login-parallel.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { PasswordHasher } from '../../src/adapters/password-hasher.js';
import {
  captchaProof,
  login,
  registerActiveAccount,
  uniqueIdentity,
  PASSWORD_ONLY_SETTINGS,
  type RegisteredAccount,
} from '../support/auth-accounts.js';
import { useIdentityHarness } from '../support/suite.js';

const harness = useIdentityHarness({ firstUser: true });

const LOGIN_DEFAULTS = {
  ...PASSWORD_ONLY_SETTINGS,
  sso_allow_password_login: true,
  session_timeout_days: 30,
};

let account: RegisteredAccount;
beforeEach(async () => {
  account = await registerActiveAccount(harness);
  await harness.setSettings(LOGIN_DEFAULTS);
});

const db = () => harness.identity.dependencies.pool;
const setUser = (id: string, assignments: string, values: unknown[] = []) =>
  db().query(`UPDATE users SET ${assignments} WHERE id = $1`, [id, ...values]);
async function claimsOf(token: string, type: 'access' | 'totp_challenge' | 'totp_enrollment') {
  return harness.identity.dependencies.tokens.verify(token, type);
}

describe('login outcome order (password login)', () => {
  it('1: SSO on without password login gives 6306 (HTTP 400) before any other check', async () => {
    await harness.setSettings({ sso_enabled: true, sso_allow_password_login: false });
    await setUser(account.id, `locked_until = now() + interval '5 minutes'`);
    for (const password of [account.password, 'wrong-password-1']) {
      const res = await login(harness, account.username, password);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(6306);
    }
    await harness.setSettings({ sso_allow_password_login: true });
    expect((await login(harness, account.username, account.password)).body.code).toBe(5300);
  });

  it('2: a locked account gives 5300 with data.lockout_seconds, even with the right password', async () => {
    await setUser(account.id, `locked_until = now() + interval '600 seconds'`);
    const res = await login(harness, account.username, account.password);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(5300);
    expect(res.body.data.lockout_seconds).toBeGreaterThan(595);
    expect(res.body.data.lockout_seconds).toBeLessThanOrEqual(600);
  });

  it('3: a wrong password gives 2003 (HTTP 400) with data.remaining_attempts counting down', async () => {
    const first = await login(harness, account.username, 'wrong-password-1');
    expect(first.status).toBe(400);
    expect(first.body.code).toBe(2003);
    expect(first.body.data).toEqual({ remaining_attempts: 4 });
    expect((await login(harness, account.username, 'wrong-password-1')).body.data.remaining_attempts).toBe(3);
  });

  it('3: reaching max_login_attempts locks the account for lockout_duration_minutes and returns 5300', async () => {
    await harness.setSettings({ max_login_attempts: 3, lockout_duration_minutes: 2 });
    expect((await login(harness, account.username, 'bad-1')).body.data.remaining_attempts).toBe(2);
    expect((await login(harness, account.username, 'bad-2')).body.data.remaining_attempts).toBe(1);
    const third = await login(harness, account.username, 'bad-3');
    expect(third.status).toBe(400);
    expect(third.body.code).toBe(5300);
    expect(third.body.data.lockout_seconds).toBe(120);
    const { rows } = await db().query(
      `SELECT failed_login_attempts, extract(epoch FROM locked_until - now()) AS left FROM users WHERE id = $1`,
      [account.id],
    );
    expect(rows[0].failed_login_attempts).toBe(3);
    expect(Number(rows[0].left)).toBeGreaterThan(115);
    const audit = await db().query(`SELECT action FROM audit_log WHERE target_id = $1 ORDER BY id`, [
      account.id,
    ]);
    expect(audit.rows.map((r) => r.action)).toContain('account.locked');
    // The right password does not open a locked account.
    expect((await login(harness, account.username, account.password)).body.code).toBe(5300);
  });

  it('3: after a lockout has expired the failure count starts again', async () => {
    await setUser(account.id, `failed_login_attempts = 5, locked_until = now() - interval '1 second'`);
    const res = await login(harness, account.username, 'wrong-again');
    expect(res.body).toMatchObject({ code: 2003, data: { remaining_attempts: 4 } });
  });

  it('3 before 4: a pending account with a wrong password gets 2003, not 2004', async () => {
    await setUser(account.id, `approval_status = 'pending', is_active = false`);
    expect((await login(harness, account.username, 'wrong-password-1')).body.code).toBe(2003);
  });

  it('4: an inactive account gives 2004 (HTTP 400); a pending one 2004 with error_key account_pending_approval', async () => {
    await setUser(account.id, 'is_active = false');
    const inactive = await login(harness, account.username, account.password);
    expect(inactive.status).toBe(400);
    expect(inactive.body.code).toBe(2004);
    await setUser(account.id, `approval_status = 'pending'`);
    const pending = await login(harness, account.username, account.password);
    expect(pending.status).toBe(400);
    expect(pending.body).toMatchObject({ code: 2004, data: { error_key: 'account_pending_approval' } });
  });

  it('5: TOTP enabled gives requires_totp with a challenge temp token valid 5 minutes (before 6 and 7)', async () => {
    await harness.setSettings({ require_totp: true, email_verification: true });
    await setUser(account.id, 'totp_enabled = true, email_verified = false');
    const res = await login(harness, account.username, account.password);
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    expect(res.body.data).toEqual({ requires_totp: true, temp_token: expect.any(String) });
    const claims = await claimsOf(res.body.data.temp_token, 'totp_challenge');
    expect(claims.sub).toBe(account.id);
    expect(claims.exp - claims.iat).toBe(300);
  });

  it('6: require_totp and not enrolled gives requires_totp_setup with an enrollment token valid 30 minutes', async () => {
    await harness.setSettings({ require_totp: true, email_verification: true });
    await setUser(account.id, 'email_verified = false');
    const res = await login(harness, account.username, account.password);
    expect(res.body.data).toEqual({ requires_totp_setup: true, temp_token: expect.any(String) });
    const claims = await claimsOf(res.body.data.temp_token, 'totp_enrollment');
    expect(claims.exp - claims.iat).toBe(1800);
  });

  it('7: email_verification on and unverified gives 5004 with data.email; superusers are excepted', async () => {
    await harness.setSettings({ email_verification: true });
    await setUser(account.id, 'email_verified = false');
    const res = await login(harness, account.username, account.password);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 5004, data: { email: account.email } });
    await setUser(account.id, 'is_superuser = true');
    expect((await login(harness, account.username, account.password)).body.code).toBe(0);
  });

  it('8: otherwise a full bearer token whose lifetime is session_timeout_days days', async () => {
    const res = await login(harness, account.username, account.password);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ access_token: expect.any(String), token_type: 'bearer' });
    const claims = await claimsOf(res.body.data.access_token, 'access');
    expect(claims.exp - claims.iat).toBe(30 * 86_400);
    await harness.setSettings({ session_timeout_days: 3 });
    const shorter = await login(harness, account.username, account.password);
    const short = await claimsOf(shorter.body.data.access_token, 'access');
    expect(short.exp - short.iat).toBe(3 * 86_400);
  });

  it('8: the JWT lifetime falls back to 7 days when the session_timeout_days row is missing', async () => {
    await db().query(`DELETE FROM site_settings WHERE key = 'session_timeout_days'`);
    harness.identity.dependencies.settings.invalidate();
    const res = await login(harness, account.username, account.password);
    const claims = await claimsOf(res.body.data.access_token, 'access');
    expect(claims.exp - claims.iat).toBe(7 * 86_400);
  });
});

describe('password login details', () => {
  it('accepts the email instead of the username, in any letter case', async () => {
    const res = await login(harness, account.email.toUpperCase(), account.password);
    expect(res.body.code).toBe(0);
  });

  it('an unknown username answers like a wrong password: 2003, remaining_attempts counting down, 5300 at the limit', async () => {
    await harness.setSettings({ max_login_attempts: 3, lockout_duration_minutes: 1 });
    const ghost = uniqueIdentity('ghost').username;
    const first = await login(harness, ghost, 'whatever-1');
    expect(first.status).toBe(400);
    expect(first.body).toEqual({ code: 2003, data: { remaining_attempts: 2 }, msg: expect.any(String) });
    const real = await login(harness, account.username, 'whatever-1');
    expect(real.body.msg).toBe(first.body.msg);
    expect((await login(harness, ghost, 'whatever-2')).body.data.remaining_attempts).toBe(1);
    const locked = await login(harness, ghost, 'whatever-3');
    expect(locked.body).toMatchObject({ code: 5300, data: { lockout_seconds: 60 } });
    expect((await login(harness, ghost, 'whatever-4')).body.code).toBe(5300);
  });

  // No user enumeration by timing: checked structurally, not by measuring one sample. An unknown
  // username runs exactly one full scrypt verification, against a well-formed hash made with the
  // same cost parameters as a real account's, so it does the same KDF work as a wrong password.
  it('an unknown username verifies one dummy hash with the same scrypt cost as a wrong password', async () => {
    const verify = vi.spyOn(harness.identity.dependencies.passwords, 'verify');
    try {
      await login(harness, account.username, 'timing-password-1');
      await login(harness, uniqueIdentity('ghost').username, 'timing-password-1');
      const [known, unknown] = verify.mock.calls;
      expect(verify).toHaveBeenCalledTimes(2);
      const costOf = (hash: unknown) => String(hash).split('$').slice(0, 4).join('$');
      const { rows } = await db().query('SELECT password_hash FROM users WHERE id = $1', [account.id]);
      expect(known).toEqual(['timing-password-1', rows[0].password_hash]);
      expect(unknown![0]).toBe('timing-password-1');
      expect(unknown![1]).not.toBe(rows[0].password_hash);
      expect(costOf(unknown![1])).toBe(costOf(rows[0].password_hash));
      expect(String(unknown![1])).toMatch(/^scrypt\$\d+\$\d+\$\d+\$[\w-]+\$[\w-]+$/);
    } finally {
      verify.mockRestore();
    }
  });

  it('success resets failed_login_attempts, sets last_login_at and audits login.success; failures audit login.failure', async () => {
    await login(harness, account.username, 'wrong-password-1');
    await login(harness, account.username, 'wrong-password-1');
    expect((await login(harness, account.username, account.password)).body.code).toBe(0);
    const { rows } = await db().query(
      'SELECT failed_login_attempts, locked_until, last_login_at FROM users WHERE id = $1',
      [account.id],
    );
    expect(rows[0]).toMatchObject({ failed_login_attempts: 0, locked_until: null });
    expect(rows[0].last_login_at).toBeInstanceOf(Date);
    const audit = await db().query(
      `SELECT action, details FROM audit_log WHERE target_id = $1 AND action LIKE 'login.%' ORDER BY id`,
      [account.id],
    );
    expect(audit.rows.map((r) => r.action)).toEqual(['login.failure', 'login.failure', 'login.success']);
    expect(audit.rows[0].details).toMatchObject({ reason: 'wrong_password', failed_attempts: 1 });
  });

  it('force_password_change: reason force when an administrator forced it, expired past password_max_age_days', async () => {
    await harness.setSettings({ password_max_age_days: 30 });
    await setUser(account.id, `password_changed_at = now() - interval '31 days'`);
    const expired = await login(harness, account.username, account.password);
    expect(expired.body.data).toEqual({
      access_token: expect.any(String),
      token_type: 'bearer',
      force_password_change: true,
      reason: 'expired',
    });
    await setUser(account.id, 'force_password_change = true');
    expect((await login(harness, account.username, account.password)).body.data.reason).toBe('force');
    await setUser(
      account.id,
      `force_password_change = false, password_changed_at = now() - interval '29 days'`,
    );
    expect(
      (await login(harness, account.username, account.password)).body.data.force_password_change,
    ).toBeUndefined();
    await harness.setSettings({ password_max_age_days: 0 });
    await setUser(account.id, `password_changed_at = now() - interval '3000 days'`);
    expect(
      (await login(harness, account.username, account.password)).body.data.force_password_change,
    ).toBeUndefined();
  });

  it('with enable_captcha the proof is checked first: missing 5302 (even for unknown users), invalid 5303', async () => {
    await harness.setSettings({ enable_captcha: true, sso_enabled: true, sso_allow_password_login: false });
    expect((await login(harness, uniqueIdentity().username, 'x')).body.code).toBe(5302);
    expect((await login(harness, account.username, account.password)).body.code).toBe(5302);
    const bad = await login(harness, account.username, account.password, {
      form: { captcha_id: 'abcdefghijklmnopqrst', captcha_token: 'forged' },
    });
    expect(bad.body.code).toBe(5303);
    await harness.setSettings({ sso_enabled: false });
    const proof = await captchaProof(harness);
    expect((await login(harness, account.username, account.password, { form: proof })).body.code).toBe(0);
    expect((await login(harness, account.username, account.password, { form: proof })).body.code).toBe(5303);
  });

  it('captcha_answer is the legacy proof when captcha_token is empty', async () => {
    await harness.setSettings({ enable_captcha: true });
    const proof = await captchaProof(harness);
    const res = await login(harness, account.username, account.password, {
      form: { captcha_id: proof.captcha_id, captcha_token: '', captcha_answer: proof.captcha_token },
    });
    expect(res.body.code).toBe(0);
  });

  it('a hash made with other scrypt parameters still verifies and is replaced at login', async () => {
    const weaker = new PasswordHasher({ N: 2 ** 12, r: 8, p: 1 });
    await setUser(account.id, 'password_hash = $2', [await weaker.hash(account.password)]);
    expect((await login(harness, account.username, account.password)).body.code).toBe(0);
    const { rows } = await db().query('SELECT password_hash FROM users WHERE id = $1', [account.id]);
    expect(rows[0].password_hash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect((await login(harness, account.username, account.password)).body.code).toBe(0);
  });

  it('an account without a password (SSO-only) never signs in with one', async () => {
    await setUser(account.id, 'password_hash = NULL');
    expect((await login(harness, account.username, account.password)).body.code).toBe(2003);
  });
});

describe('login: bad input', () => {
  const url = () => `${harness.baseUrl}/api/v1/login/access-token`;
  const post = (body: string, contentType: string) =>
    fetch(url(), { method: 'POST', headers: { 'content-type': contentType }, body }).then(async (r) => ({
      status: r.status,
      body: (await r.json()) as { code: number; data: any },
    }));

  it.each([
    ['no fields', '', ['username', 'password']],
    ['empty username and password', 'username=&password=', ['username', 'password']],
    ['username over 254 characters', `username=${'a'.repeat(255)}&password=x`, ['username']],
    ['password over 1024 characters', `username=abc&password=${'p'.repeat(1025)}`, ['password']],
    ['a field given twice', 'username=a&username=b&password=x', ['username']],
    ['oversize captcha fields', `username=a&password=x&captcha_id=${'c'.repeat(257)}`, ['captcha_id']],
  ])('%s gives 422 / 1001', async (_name, body, failing) => {
    const res = await post(body, 'application/x-www-form-urlencoded');
    expect(res.status).toBe(422);
    expect(res.body.code).toBe(1001);
    expect(Object.keys(res.body.data.errors).sort()).toEqual([...failing].sort());
  });

  it('a JSON body gives 422 / 1001; another content type 415', async () => {
    const json = await post(JSON.stringify({ username: 'a', password: 'b' }), 'application/json');
    expect(json.status).toBe(422);
    expect(json.body.code).toBe(1001);
    const text = await post('username=a&password=b', 'text/plain');
    expect(text.status).toBe(415);
  });

  it('extra OAuth2 fields (grant_type, scope) are ignored', async () => {
    const res = await login(harness, account.username, account.password, {
      form: { grant_type: 'password', scope: '' },
    });
    expect(res.body.code).toBe(0);
  });
});
