// POST /register (gateway routes/identity-auth-routes.ts, public): the account a sign-up makes, the
// refusals and bad input. Verifying the address afterwards: verification.int.test.ts.
import { beforeEach, describe, expect, it } from 'vitest';
import {
  captchaProof,
  ensureFirstUser,
  GOOD_PASSWORD,
  register,
  uniqueIdentity,
} from '../support/auth-accounts.js';
import { useIdentityHarness } from '../support/suite.js';

const harness = useIdentityHarness();

const DEFAULTS = {
  allow_registration: true,
  require_approval: true,
  email_verification: true,
  require_terms_acceptance_on_register: false,
  enable_captcha: false,
  password_min_length: 8,
  password_require_uppercase: false,
  password_require_lowercase: false,
  password_require_digit: true,
  password_require_symbol: false,
};

async function rolesAndTeams(userId: string, on = harness) {
  const { pool } = on.identity.dependencies;
  const roles = await pool.query(
    `SELECT r.name::text AS name FROM user_roles ur JOIN roles r ON r.id = ur.role_id WHERE ur.user_id = $1`,
    [userId],
  );
  const teams = await pool.query(
    `SELECT t.name::text AS name, t.is_default, tm.role FROM team_members tm JOIN teams t ON t.id = tm.team_id
      WHERE tm.user_id = $1`,
    [userId],
  );
  const user = await pool.query('SELECT is_superuser, password_hash FROM users WHERE id = $1', [userId]);
  return { roles: roles.rows.map((r) => r.name), teams: teams.rows, user: user.rows[0] };
}

describe('account at registration', () => {
  describe('the very first user', () => {
    // Its own identity on its own empty database: this test never depends on running first.
    const empty = useIdentityHarness();

    it('the very first user is approved, active, verified and a superuser with the Super Admin role', async () => {
      await empty.setSettings({ ...DEFAULTS, allow_registration: false });
      const identity = uniqueIdentity('founder');
      const res = await register(empty, identity);
      expect(res.status).toBe(200);
      expect(res.body.code).toBe(0);
      expect(res.body.data).toEqual({
        id: expect.any(String),
        username: identity.username,
        email: identity.email,
        locale: 'en',
        is_active: true,
        email_verified: true,
        approval_status: 'approved',
        created_at: expect.any(String),
      });
      const stored = await rolesAndTeams(res.body.data.id, empty);
      expect(stored.roles).toEqual(['Super Admin']);
      expect(stored.user.is_superuser).toBe(true);
      expect(stored.teams).toEqual([{ name: 'Default', is_default: true, role: 'MEMBER' }]);
      expect(stored.user.password_hash).toMatch(/^scrypt\$32768\$8\$1\$[\w-]+\$[\w-]+$/);
    });
  });

  describe('later users', () => {
    beforeEach(async () => {
      await ensureFirstUser(harness);
      await harness.setSettings(DEFAULTS);
    });

    it('require_approval true (default): pending and inactive, unverified while email_verification is on', async () => {
      const res = await register(harness);
      expect(res.body.code).toBe(0);
      expect(res.body.data).toMatchObject({
        approval_status: 'pending',
        is_active: false,
        email_verified: false,
      });
    });

    it('require_approval true: email_verified follows the email-verification setting (off → verified)', async () => {
      await harness.setSettings({ email_verification: false });
      const res = await register(harness);
      expect(res.body.data).toMatchObject({
        approval_status: 'pending',
        is_active: false,
        email_verified: true,
      });
    });

    it('require_approval false, email_verification true: approved, active, unverified', async () => {
      await harness.setSettings({ require_approval: false });
      const res = await register(harness);
      expect(res.body.data).toMatchObject({
        approval_status: 'approved',
        is_active: true,
        email_verified: false,
      });
    });

    it('both off: approved, active, verified', async () => {
      await harness.setSettings({ require_approval: false, email_verification: false });
      const res = await register(harness);
      expect(res.body.data).toMatchObject({
        approval_status: 'approved',
        is_active: true,
        email_verified: true,
      });
    });

    it('later users get the default role and join the default team as MEMBER, and are no superusers', async () => {
      const res = await register(harness);
      const stored = await rolesAndTeams(res.body.data.id);
      expect(stored.roles).toEqual(['User']);
      expect(stored.user.is_superuser).toBe(false);
      expect(stored.teams).toEqual([{ name: 'Default', is_default: true, role: 'MEMBER' }]);
    });

    it('locale: the given one is kept; without one the request language is used', async () => {
      expect((await register(harness, { locale: 'zh' })).body.data.locale).toBe('zh');
      expect((await register(harness, {}, { 'accept-language': 'zh-CN' })).body.data.locale).toBe('zh');
      expect((await register(harness)).body.data.locale).toBe('en');
    });
  });
});

describe('register failures (rule 10)', () => {
  beforeEach(async () => {
    await ensureFirstUser(harness);
    await harness.setSettings(DEFAULTS);
  });

  it('registration disabled gives 5000', async () => {
    await harness.setSettings({ allow_registration: false });
    const res = await register(harness);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(5000);
  });

  it('a duplicate username gives 5002, whatever its letter case', async () => {
    const first = uniqueIdentity();
    await register(harness, first);
    const res = await register(harness, { username: first.username.toUpperCase() });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(5002);
  });

  it('a duplicate email gives 5003, compared case-insensitively', async () => {
    const first = uniqueIdentity();
    await register(harness, first);
    const res = await register(harness, { email: first.email.toUpperCase() });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(5003);
  });

  it('a password outside the policy gives 1001 with data.errors.password listing every reason', async () => {
    await harness.setSettings({
      password_min_length: 12,
      password_require_uppercase: true,
      password_require_lowercase: true,
      password_require_digit: true,
      password_require_symbol: true,
    });
    const res = await register(harness, { password: 'abc' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(1001);
    expect(res.body.data.errors.password).toEqual([
      'Password must be at least 12 characters',
      'Password must contain an uppercase letter',
      'Password must contain a digit',
      'Password must contain a special character',
    ]);
    const zh = await register(harness, { password: 'abc' }, { 'accept-language': 'zh' });
    expect(zh.body.data.errors.password[0]).toBe('密码长度不能少于 12 个字符');
    const ok = await register(harness, { password: 'Abcdefghij1!' });
    expect(ok.body.code).toBe(0);
  });

  it('a password longer than 128 characters is outside the policy', async () => {
    const res = await register(harness, { password: `${'a1'.repeat(64)}x` });
    expect(res.body.code).toBe(1001);
    expect(res.body.data.errors.password).toEqual(['Password must be at most 128 characters']);
    expect((await register(harness, { password: 'a1'.repeat(64) })).body.code).toBe(0);
  });

  it('missing terms_accepted when the setting requires it gives 1001 (data.errors.terms_accepted)', async () => {
    await harness.setSettings({ require_terms_acceptance_on_register: true });
    for (const fields of [{}, { terms_accepted: false }]) {
      const res = await register(harness, fields);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(1001);
      expect(res.body.data).toMatchObject({
        error_key: 'terms_not_accepted',
        errors: { terms_accepted: ['You must accept the terms of service'] },
      });
    }
    expect((await register(harness, { terms_accepted: true })).body.code).toBe(0);
  });

  it('with enable_captcha: no proof 5302, a wrong or used proof 5303, a valid proof succeeds once', async () => {
    await harness.setSettings({ enable_captcha: true });
    expect((await register(harness)).body.code).toBe(5302);
    const onlyId = await register(harness, { captcha_id: 'abcdefghijklmnopqrst' });
    expect(onlyId.body.code).toBe(5302);
    const wrong = await register(harness, { captcha_id: 'abcdefghijklmnopqrst', captcha_token: 'nope' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe(5303);
    const proof = await captchaProof(harness);
    expect((await register(harness, proof)).body.code).toBe(0);
    expect((await register(harness, proof)).body.code).toBe(5303);
  });

  it('the password hash is never returned and the password is stored only as a scrypt hash', async () => {
    const res = await register(harness);
    expect(JSON.stringify(res.body)).not.toContain(GOOD_PASSWORD);
    expect(Object.keys(res.body.data)).not.toContain('password_hash');
  });
});

describe('register: bad input (422 / 1001 at the gateway)', () => {
  const valid = () => ({ ...uniqueIdentity(), password: GOOD_PASSWORD });

  it.each([
    ['missing every field', {}, ['username', 'email', 'password']],
    ['wrong types', { username: 42, email: true, password: ['x'] }, ['username', 'email', 'password']],
    ['username too short', { username: 'ab' }, ['username']],
    ['username too long', { username: 'a'.repeat(51) }, ['username']],
    ['username with illegal characters', { username: 'bad name!' }, ['username']],
    ['email malformed', { email: 'not-an-email' }, ['email']],
    ['email over 254 characters', { email: `${'a'.repeat(64)}@${'b'.repeat(186)}.test` }, ['email']],
    ['password over 1024 characters', { password: 'a1'.repeat(513) }, ['password']],
    ['unknown locale', { locale: 'fr' }, ['locale']],
    ['terms_accepted not a boolean', { terms_accepted: 'yes' }, ['terms_accepted']],
    [
      'captcha fields oversize',
      { captcha_id: 'x'.repeat(257), captcha_token: 7 },
      ['captcha_id', 'captcha_token'],
    ],
  ])('%s', async (_name, fields, failing) => {
    const body = Object.keys(fields).length === 0 ? {} : { ...valid(), ...fields };
    const res = await harness.request('POST', '/register', { json: body });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe(1001);
    expect(Object.keys(res.body.data.errors).sort()).toEqual([...failing].sort());
  });

  it('a malformed JSON body gives 400 / 1002, an array 422 / 1001, a form body 415', async () => {
    const base = `${harness.baseUrl}/api/v1/register`;
    const malformed = await fetch(base, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"username": ',
    });
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { code: number }).code).toBe(1002);
    const array = await harness.request('POST', '/register', { json: [valid()] });
    expect(array.status).toBe(422);
    expect(array.body.code).toBe(1001);
    const form = await harness.request('POST', '/register', { form: { username: 'abc' } });
    expect(form.status).toBe(415);
  });
});
