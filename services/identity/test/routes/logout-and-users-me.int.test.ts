// POST /logout, GET /users/me and POST /users/me/change-password (gateway
// routes/identity-auth-routes.ts): happy paths, errors, bad input and security; and single_session,
// seen through GET /users/me. Sign-in: post-login-access-token.int.test.ts; sign-up: post-register.
import { beforeEach, describe, expect, it } from 'vitest';
import { login, registerActiveAccount, type RegisteredAccount } from '../support/auth-accounts.js';
import { describeRouteSecurity } from '../support/route-security.js';
import { useIdentityHarness } from '../support/suite.js';

const harness = useIdentityHarness({ firstUser: true });

const SESSION_DEFAULTS = {
  single_session: false,
  email_verification: false,
  enable_captcha: false,
  password_min_age_hours: 0,
  password_max_age_days: 0,
  password_min_length: 8,
  password_require_digit: true,
};

let account: RegisteredAccount;
beforeEach(async () => {
  account = await registerActiveAccount(harness, 'sess');
  await harness.setSettings(SESSION_DEFAULTS);
});

const db = () => harness.identity.dependencies.pool;
async function tokenFor(user: RegisteredAccount, password = user.password): Promise<string> {
  const res = await login(harness, user.username, password);
  expect(res.body.code).toBe(0);
  return res.body.data.access_token as string;
}

describe('POST /logout', () => {
  it('blacklists the token at once: data null, then 401 / 2001 with that token', async () => {
    const token = await tokenFor(account);
    expect((await harness.request('GET', '/users/me', { token })).body.code).toBe(0);
    const res = await harness.request('POST', '/logout', { token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ code: 0, data: null });
    const after = await harness.request('GET', '/users/me', { token });
    expect(after.status).toBe(401);
    expect(after.body).toMatchObject({ code: 2001, data: { error_key: 'token_revoked' } });
    expect((await harness.request('POST', '/logout', { token })).status).toBe(401);
  });

  it('other tokens of the same user stay valid after a logout', async () => {
    const first = await tokenFor(account);
    const second = await tokenFor(account);
    await harness.request('POST', '/logout', { token: first });
    expect((await harness.request('GET', '/users/me', { token: second })).body.code).toBe(0);
  });

  it('without a token gives 401 / 2000; a malformed or forged token 403 / 2003', async () => {
    const none = await harness.request('POST', '/logout');
    expect(none.status).toBe(401);
    expect(none.body.code).toBe(2000);
    const forged = await harness.request('POST', '/logout', { token: 'not.a.jwt' });
    expect(forged.status).toBe(403);
    expect(forged.body.code).toBe(2003);
    const temp = await harness.identity.dependencies.tokens.issue(account.id, 'totp_challenge', 300);
    expect((await harness.request('POST', '/logout', { token: temp.token })).status).toBe(403);
  });

  it('writes a logout audit row', async () => {
    const token = await tokenFor(account);
    await harness.request('POST', '/logout', { token });
    const { rows } = await db().query(
      `SELECT 1 FROM audit_log WHERE action = 'logout' AND actor_user_id = $1`,
      [account.id],
    );
    expect(rows).toHaveLength(1);
  });
});

describe('single_session', () => {
  it('a new login invalidates the previous token: 401 / 2001 with msg key session_expired_new_login', async () => {
    await harness.setSettings({ single_session: true });
    const older = await tokenFor(account);
    const newer = await tokenFor(account);
    const res = await harness.request('GET', '/users/me', { token: older });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 2001, data: { error_key: 'session_expired_new_login' } });
    expect((await harness.request('GET', '/users/me', { token: newer })).body.code).toBe(0);
  });

  it('with single_session off, both tokens stay valid', async () => {
    const older = await tokenFor(account);
    await tokenFor(account);
    expect((await harness.request('GET', '/users/me', { token: older })).body.code).toBe(0);
  });
});

describe('GET /users/me', () => {
  it('returns the caller with permissions and teams ({id, name, role})', async () => {
    const token = await tokenFor(account);
    const res = await harness.request('GET', '/users/me', { token });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      id: account.id,
      username: account.username,
      email: account.email,
      locale: 'en',
      is_active: true,
      email_verified: true,
      approval_status: 'approved',
      created_at: expect.any(String),
      is_superuser: false,
      permissions: expect.arrayContaining(['apikey:read', 'workflow:execute']),
      teams: [{ id: expect.any(String), name: 'Default', role: 'MEMBER' }],
      totp_enabled: false,
      force_password_change: false,
      last_login_at: expect.any(String),
      password_changed_at: expect.any(String),
    });
    expect(res.body.data.permissions).not.toContain('*');
  });

  it('without a token gives 401 / 2000', async () => {
    const res = await harness.request('GET', '/users/me');
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(2000);
  });
});

describe('POST /users/me/change-password', () => {
  const change = (token: string, body: unknown, headers?: Record<string, string>) =>
    harness.request('POST', '/users/me/change-password', { token, json: body, headers });

  it('changes the password: the old one stops working, the new one signs in, password_changed_at is set', async () => {
    const token = await tokenFor(account);
    const before = await db().query('SELECT password_changed_at FROM users WHERE id = $1', [account.id]);
    const res = await change(token, { current_password: account.password, new_password: 'brand-new-pass-7' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ code: 0, data: null });
    expect((await login(harness, account.username, account.password)).body.code).toBe(2003);
    expect((await login(harness, account.username, 'brand-new-pass-7')).body.code).toBe(0);
    const after = await db().query('SELECT password_changed_at FROM users WHERE id = $1', [account.id]);
    expect(after.rows[0].password_changed_at.getTime()).toBeGreaterThan(
      before.rows[0].password_changed_at.getTime(),
    );
    const audit = await db().query(
      `SELECT 1 FROM audit_log WHERE action = 'password.changed' AND actor_user_id = $1`,
      [account.id],
    );
    expect(audit.rows).toHaveLength(1);
  });

  it('a wrong current password gives 2003 (HTTP 400) and changes nothing', async () => {
    const token = await tokenFor(account);
    const res = await change(token, {
      current_password: 'not-my-password',
      new_password: 'brand-new-pass-7',
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 2003, data: { error_key: 'current_password_incorrect' } });
    expect((await login(harness, account.username, account.password)).body.code).toBe(0);
  });

  it('a new password outside the policy gives 1001 with data.errors.new_password', async () => {
    const token = await tokenFor(account);
    const res = await change(token, { current_password: account.password, new_password: 'short' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(1001);
    expect(res.body.data.errors.new_password).toEqual([
      'Password must be at least 8 characters',
      'Password must contain a digit',
    ]);
  });

  it('before password_min_age_hours have passed gives 5306; a forced change is exempt', async () => {
    await harness.setSettings({ password_min_age_hours: 24 });
    const token = await tokenFor(account);
    const res = await change(token, { current_password: account.password, new_password: 'brand-new-pass-7' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(5306);
    expect(res.body.data.remaining_seconds).toBeGreaterThan(86_000);
    await db().query('UPDATE users SET force_password_change = true WHERE id = $1', [account.id]);
    const forced = await change(token, {
      current_password: account.password,
      new_password: 'brand-new-pass-7',
    });
    expect(forced.body.code).toBe(0);
  });

  it('clears force_password_change: the next login has no forced-change flag', async () => {
    await db().query('UPDATE users SET force_password_change = true WHERE id = $1', [account.id]);
    const forcedLogin = await login(harness, account.username, account.password);
    expect(forcedLogin.body.data).toMatchObject({ force_password_change: true, reason: 'force' });
    const token = forcedLogin.body.data.access_token as string;
    expect(
      (await change(token, { current_password: account.password, new_password: 'brand-new-pass-7' })).body
        .code,
    ).toBe(0);
    const next = await login(harness, account.username, 'brand-new-pass-7');
    expect(next.body.data).toEqual({ access_token: expect.any(String), token_type: 'bearer' });
  });

  it.each([
    ['no fields', {}, ['current_password', 'new_password']],
    ['wrong types', { current_password: 1, new_password: false }, ['current_password', 'new_password']],
    [
      'empty current password',
      { current_password: '', new_password: 'brand-new-pass-7' },
      ['current_password'],
    ],
    [
      'oversize passwords',
      { current_password: 'x'.repeat(1025), new_password: 'y'.repeat(1025) },
      ['current_password', 'new_password'],
    ],
  ])('bad input: %s gives 422 / 1001', async (_name, body, failing) => {
    const token = await tokenFor(account);
    const res = await change(token, body);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe(1001);
    expect(Object.keys(res.body.data.errors).sort()).toEqual([...failing].sort());
  });

  it('bad input: malformed JSON 400 / 1002, a form body 415, no token 401 / 2000', async () => {
    const token = await tokenFor(account);
    const malformed = await fetch(`${harness.baseUrl}/api/v1/users/me/change-password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: '{"current_password":',
    });
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { code: number }).code).toBe(1002);
    const form = await harness.request('POST', '/users/me/change-password', {
      token,
      form: { current_password: 'a', new_password: 'b' },
    });
    expect(form.status).toBe(415);
    const anonymous = await harness.request('POST', '/users/me/change-password', {
      json: { current_password: 'a', new_password: 'b' },
    });
    expect(anonymous.body.code).toBe(2000);
  });
});

describeRouteSecurity(() => harness, /^\/(logout|users\/me|users\/me\/change-password)$/);
