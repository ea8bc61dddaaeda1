import { randomBytes, randomUUID } from 'node:crypto';
import type { CaptchaStore } from '../../src/data/captcha-store.js';
import type { HttpResult, IdentityHarness } from './harness.js';

export const GOOD_PASSWORD = 'correct-horse-42';

export interface RegisteredAccount {
  id: string;
  username: string;
  email: string;
  password: string;
}

/** A unique username/email pair (usernames allow `[A-Za-z0-9_.-]`, 3-50 chars). */
export function uniqueIdentity(prefix = 'user'): { username: string; email: string } {
  const username = `${prefix}_${randomUUID().slice(0, 8)}`;
  return { username, email: `${username}@example.test` };
}

/** `POST /register` with a unique identity; fields may be overridden. */
export function register(
  harness: IdentityHarness,
  fields: Record<string, unknown> = {},
  headers?: Record<string, string>,
): Promise<HttpResult> {
  return harness.request('POST', '/register', {
    json: { ...uniqueIdentity(), password: GOOD_PASSWORD, ...fields },
    headers,
  });
}

/**
 * Registers an account that can sign in at once: settings are set so it is approved and
 * verified (the caller's later settings changes apply to login only).
 */
export async function registerActiveAccount(
  harness: IdentityHarness,
  prefix = 'user',
): Promise<RegisteredAccount> {
  await harness.setSettings({
    require_approval: false,
    email_verification: false,
    allow_registration: true,
    enable_captcha: false,
    require_terms_acceptance_on_register: false,
  });
  const identity = uniqueIdentity(prefix);
  const res = await register(harness, identity);
  if (res.body.code !== 0) throw new Error(`registration failed: ${JSON.stringify(res.body)}`);
  return { id: res.body.data.id, ...identity, password: GOOD_PASSWORD };
}

/** `POST /login/access-token` (form-encoded). */
export function login(
  harness: IdentityHarness,
  username: string,
  password: string,
  extra: { form?: Record<string, string>; headers?: Record<string, string> } = {},
): Promise<HttpResult> {
  return harness.request('POST', '/login/access-token', {
    form: { username, password, ...extra.form },
    headers: extra.headers,
  });
}

/** A valid, unused captcha proof in the real captcha store (as `POST /captcha/click` issues). */
export async function captchaProof(
  harness: IdentityHarness,
): Promise<{ captcha_id: string; captcha_token: string }> {
  const store = harness.identity.dependencies.captcha as CaptchaStore;
  const captchaId = randomBytes(16).toString('base64url');
  const token = randomBytes(24).toString('base64url');
  await store.saveProof(captchaId, token);
  return { captcha_id: captchaId, captcha_token: token };
}

/** Makes sure the very first user of this database exists, so later registrations are "later users". */
export async function ensureFirstUser(harness: IdentityHarness): Promise<void> {
  const { rows } = await harness.identity.dependencies.pool.query('SELECT 1 FROM users LIMIT 1');
  if (rows.length === 0) {
    const res = await register(harness, uniqueIdentity('founder'));
    if (res.body.code !== 0) throw new Error(`first registration failed: ${JSON.stringify(res.body)}`);
  }
}

/**
 * Site settings under which a password alone signs in (no SSO, TOTP, captcha, verification or
 * password expiry; one session per login is not enforced): 5 attempts, then a 15-minute lock.
 */
export const PASSWORD_ONLY_SETTINGS = {
  sso_enabled: false,
  max_login_attempts: 5,
  lockout_duration_minutes: 15,
  require_totp: false,
  email_verification: false,
  enable_captcha: false,
  single_session: false,
  password_max_age_days: 0,
};
