// GET /sso/providers, GET /sso/login/{provider_name} and GET /sso/callback/{provider_name} (gateway
// routes/identity-sso-routes.ts, public): sign-in, sign-up and linking, refused callbacks and bad
// input. The providers: admin-sso-providers.int.test.ts; a user's links: sso-connections.
import { randomUUID } from 'node:crypto';
import { sha256Hex } from '@platform/crypto';
import { describe, expect, it } from 'vitest';
import { signInAtProvider } from '../support/oidc-test-provider.js';
import { createTestUser } from '../support/rbac-users.js';
import {
  callCallback,
  createProvider,
  envelopeOf,
  expect422,
  providerRedirect,
  ssoSignIn,
  startLogin,
  WEB_URL,
  useSsoStack,
  uniqueSub,
  userByEmail,
} from '../support/sso-fixtures.js';

const PROVIDER = 'corp';
const stack = useSsoStack([PROVIDER, 'closed', 'other'], PROVIDER);

describe('GET /sso/providers', () => {
  it('lists enabled providers by name and display name, and nothing while SSO is off', async () => {
    const listed = await stack.harness.request('GET', '/sso/providers');
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([{ name: PROVIDER, display_name: `Test ${PROVIDER}` }]);

    await stack.harness.setSettings({ sso_enabled: false });
    try {
      const off = await stack.harness.request('GET', '/sso/providers');
      expect(off.body.data).toEqual([]);
    } finally {
      await stack.harness.setSettings({ sso_enabled: true });
    }
  });
});

describe('GET /sso/login/{provider}', () => {
  it('redirects to the authorization endpoint with code flow, PKCE S256, state, nonce and the callback', async () => {
    const response = await startLogin(stack.harness, PROVIDER);
    expect(response.status).toBe(302);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const location = new URL(response.headers.get('location')!);
    expect(location.origin).toBe(stack.op.issuer);
    const params = location.searchParams;
    expect(params.get('response_type')).toBe('code');
    expect(params.get('client_id')).toBe(stack.op.clientId);
    expect(params.get('redirect_uri')).toBe(`${WEB_URL}/api/v1/sso/callback/${PROVIDER}`);
    expect(params.get('code_challenge_method')).toBe('S256');
    expect(params.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(params.get('state')).toBeTruthy();
    expect(params.get('nonce')).toBeTruthy();
    expect(params.get('scope')).toBe('openid email profile');
  });

  it('gives JSON clients the URL in the envelope instead', async () => {
    const res = await stack.harness.request('GET', `/sso/login/${PROVIDER}`, {
      headers: { accept: 'application/json' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.authorization_url).toMatch(new RegExp(`^${stack.op.issuer}/`));
  });

  it('answers 6300 for an unknown provider, a disabled one, and while SSO is off', async () => {
    const unknown = await stack.harness.request('GET', '/sso/login/nope');
    expect([unknown.status, unknown.body.code]).toEqual([400, 6300]);

    const closed = await createProvider(stack, 'closed', { enabled: false });
    expect(closed.body.code).toBe(0);
    const disabled = await stack.harness.request('GET', '/sso/login/closed');
    expect(disabled.body.code).toBe(6300);

    await stack.harness.setSettings({ sso_enabled: false });
    try {
      const off = await stack.harness.request('GET', `/sso/login/${PROVIDER}`);
      expect(off.body.code).toBe(6300);
    } finally {
      await stack.harness.setSettings({ sso_enabled: true });
    }
  });
});

describe('GET /sso/callback/{provider}', () => {
  it('creates an account on first sign-in and the token works on /users/me', async () => {
    const email = `new_${randomUUID().slice(0, 8)}@idp.test`;
    const res = await ssoSignIn(stack, PROVIDER, {
      sub: uniqueSub(),
      email,
      email_verified: true,
      preferred_username: 'New Person!',
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ access_token: expect.any(String), token_type: 'bearer' });

    const me = await stack.harness.request('GET', '/users/me', { token: res.body.data.access_token });
    expect(me.status).toBe(200);
    expect(me.body.data.email).toBe(email);
    expect(me.body.data.email_verified).toBe(true);
    expect(me.body.data.username).toMatch(/^New_Person/);
    const row = await userByEmail(stack, email);
    expect(row.password_hash).toBeNull();

    const { rows } = await stack.harness.identity.dependencies.pool.query(
      `SELECT action, details FROM audit_log WHERE actor_user_id = $1 ORDER BY id`,
      [row.id],
    );
    expect(rows.map((r) => r.action)).toEqual(['user.registered', 'sso.connection_created', 'login.success']);
    expect(rows[2].details.method).toBe('sso');
  });

  it('signs a browser in with a 302 to the web app, the token in the fragment', async () => {
    const callback = await providerRedirect(stack, PROVIDER, {
      sub: uniqueSub(),
      email: `browser_${randomUUID().slice(0, 8)}@idp.test`,
      email_verified: true,
    });
    const response = await callCallback(stack.harness, callback, false);
    expect(response.status).toBe(302);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const location = new URL(response.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(`${WEB_URL}/sso/complete`);
    const fragment = new URLSearchParams(location.hash.slice(1));
    expect(fragment.get('token_type')).toBe('bearer');
    const me = await stack.harness.request('GET', '/users/me', { token: fragment.get('access_token')! });
    expect(me.status).toBe(200);
  });

  it('logs an existing connection in directly (same account, no new user)', async () => {
    const sub = uniqueSub();
    const email = `again_${randomUUID().slice(0, 8)}@idp.test`;
    const first = await ssoSignIn(stack, PROVIDER, { sub, email, email_verified: true });
    const second = await ssoSignIn(stack, PROVIDER, { sub, email: `changed_${email}`, email_verified: true });
    expect(second.body.code).toBe(0);
    const a = await stack.harness.request('GET', '/users/me', { token: first.body.data.access_token });
    const b = await stack.harness.request('GET', '/users/me', { token: second.body.data.access_token });
    expect(b.body.data.id).toBe(a.body.data.id);
    expect(b.body.data.email).toBe(email);
  });

  it('links an existing account when the provider verified the email', async () => {
    const existing = await createTestUser(stack.harness, { name: 'linkme' });
    const res = await ssoSignIn(stack, PROVIDER, {
      sub: uniqueSub(),
      email: existing.email,
      email_verified: true,
    });
    expect(res.body.code).toBe(0);
    const me = await stack.harness.request('GET', '/users/me', { token: res.body.data.access_token });
    expect(me.body.data.id).toBe(existing.id);
    const connections = await stack.harness.request('GET', '/sso/connections', { token: existing.token });
    expect(connections.body.data).toEqual([
      {
        id: expect.any(String),
        provider_name: PROVIDER,
        provider_display_name: `Test ${PROVIDER}`,
        email: existing.email,
        created_at: expect.any(String),
      },
    ]);
  });

  it('never links by an unverified email: refused when the address is taken, else a new unverified account', async () => {
    const existing = await createTestUser(stack.harness, { name: 'nolink' });
    const refused = await ssoSignIn(stack, PROVIDER, {
      sub: uniqueSub(),
      email: existing.email,
      email_verified: false,
    });
    expect([refused.status, refused.body.code, refused.body.data.error_key]).toEqual([
      400,
      1002,
      'sso_email_not_verified',
    ]);

    const email = `unverified_${randomUUID().slice(0, 8)}@idp.test`;
    const created = await ssoSignIn(stack, PROVIDER, { sub: uniqueSub(), email });
    expect(created.body.code).toBe(0);
    expect((await userByEmail(stack, email)).email_verified).toBe(false);
  });

  it('applies require_approval to SSO sign-ups (account pending, 2004) and refuses deactivated accounts (2004)', async () => {
    await stack.harness.setSettings({ require_approval: true });
    const email = `pending_${randomUUID().slice(0, 8)}@idp.test`;
    try {
      const pending = await ssoSignIn(stack, PROVIDER, { sub: uniqueSub(), email, email_verified: true });
      expect([pending.status, pending.body.code, pending.body.data.error_key]).toEqual([
        400,
        2004,
        'account_pending_approval',
      ]);
      expect(await userByEmail(stack, email)).toMatchObject({ approval_status: 'pending', is_active: false });
    } finally {
      await stack.harness.setSettings({ require_approval: false });
    }

    const sub = uniqueSub();
    const active = `inactive_${randomUUID().slice(0, 8)}@idp.test`;
    expect((await ssoSignIn(stack, PROVIDER, { sub, email: active, email_verified: true })).body.code).toBe(
      0,
    );
    await stack.harness.identity.dependencies.pool.query(
      'UPDATE users SET is_active = false WHERE email = $1',
      [active],
    );
    const refused = await ssoSignIn(stack, PROVIDER, { sub, email: active, email_verified: true });
    expect([refused.status, refused.body.code]).toEqual([400, 2004]);
  });

  it('asks for the TOTP code like password login when the account has two-factor on', async () => {
    const sub = uniqueSub();
    const email = `totp_${randomUUID().slice(0, 8)}@idp.test`;
    expect((await ssoSignIn(stack, PROVIDER, { sub, email, email_verified: true })).body.code).toBe(0);
    await stack.harness.identity.dependencies.pool.query(
      'UPDATE users SET totp_enabled = true WHERE email = $1',
      [email],
    );
    const res = await ssoSignIn(stack, PROVIDER, { sub, email, email_verified: true });
    expect(res.body.data).toEqual({ requires_totp: true, temp_token: expect.any(String) });
  });

  it('answers 6302 when the provider or the site does not allow registration', async () => {
    const closedProvider = await createProvider(stack, 'noreg', { allow_registration: false });
    expect(closedProvider.body.code).toBe(0);
    // The test client only knows the callbacks of PROVIDER, 'closed' and 'other' (the refusals
    // below); reuse 'closed'.
    await stack.harness.request('DELETE', `/admin/sso/providers/${closedProvider.body.data.id}`, {
      token: stack.admin.token,
    });
    const list = await stack.harness.request('GET', '/admin/sso/providers', { token: stack.admin.token });
    const closed = list.body.data.find((p: { name: string }) => p.name === 'closed');
    expect(
      (
        await stack.harness.request('PUT', `/admin/sso/providers/${closed.id}`, {
          token: stack.admin.token,
          json: { enabled: true, allow_registration: false },
        })
      ).body.code,
    ).toBe(0);
    try {
      const byProvider = await ssoSignIn(stack, 'closed', {
        sub: uniqueSub(),
        email: `noreg_${randomUUID().slice(0, 8)}@idp.test`,
        email_verified: true,
      });
      expect([byProvider.status, byProvider.body.code]).toEqual([400, 6302]);
    } finally {
      await stack.harness.request('PUT', `/admin/sso/providers/${closed.id}`, {
        token: stack.admin.token,
        json: { enabled: false },
      });
    }

    await stack.harness.setSettings({ allow_registration: false });
    try {
      const bySite = await ssoSignIn(stack, PROVIDER, {
        sub: uniqueSub(),
        email: `nosite_${randomUUID().slice(0, 8)}@idp.test`,
        email_verified: true,
      });
      expect(bySite.body.code).toBe(6302);
    } finally {
      await stack.harness.setSettings({ allow_registration: true });
    }
  });
});

describe('GET /sso/callback/{provider}: refused callbacks', () => {
  it('takes a state once: a replayed callback, an unknown state and another provider’s state are 1002', async () => {
    const callback = await providerRedirect(stack, PROVIDER, {
      sub: uniqueSub(),
      email: `replay_${randomUUID().slice(0, 8)}@idp.test`,
      email_verified: true,
    });
    expect((await envelopeOf(await callCallback(stack.harness, callback))).code).toBe(0);
    const replay = await callCallback(stack.harness, callback);
    const body = await envelopeOf(replay);
    expect([replay.status, body.code, body.data.error_key]).toEqual([400, 1002, 'sso_state_invalid']);

    // A JSON client: browsers (no JSON preference) are sent to /sso/complete#error=… instead.
    const unknown = await stack.harness.request('GET', `/sso/callback/${PROVIDER}?code=abc&state=forged`, {
      headers: { accept: 'application/json' },
    });
    expect([unknown.status, unknown.body.code, unknown.body.data.error_key]).toEqual([
      400,
      1002,
      'sso_state_invalid',
    ]);
    // A state issued for PROVIDER, brought to another provider's callback (same issuer and client,
    // so only the state's provider check can refuse it): 1002, and nobody is signed in.
    const other = await createProvider(stack, 'other');
    expect(other.body.code).toBe(0);
    try {
      const email = `crossed_${randomUUID().slice(0, 8)}@idp.test`;
      const crossed = await providerRedirect(stack, PROVIDER, {
        sub: uniqueSub(),
        email,
        email_verified: true,
      });
      const res = await stack.harness.request('GET', `/sso/callback/other${crossed.search}`, {
        headers: { accept: 'application/json' },
      });
      expect([res.status, res.body.code, res.body.data.error_key]).toEqual([400, 1002, 'sso_state_invalid']);
      expect(await userByEmail(stack, email)).toBeUndefined();
    } finally {
      await stack.harness.request('DELETE', `/admin/sso/providers/${other.body.data.id}`, {
        token: stack.admin.token,
      });
    }
  });

  it('expired state (gone from Redis) is 1002 sso_state_invalid', async () => {
    const callback = await providerRedirect(stack, PROVIDER, {
      sub: uniqueSub(),
      email: `expired_${randomUUID().slice(0, 8)}@idp.test`,
      email_verified: true,
    });
    // Only this sign-in's state expires (the store keys it by the state's SHA-256).
    const { redis } = stack.harness.identity.dependencies;
    expect(await redis.del(`sso:state:${sha256Hex(callback.searchParams.get('state')!)}`)).toBe(1);
    const body = await envelopeOf(await callCallback(stack.harness, callback));
    expect([body.code, body.data.error_key]).toEqual([1002, 'sso_state_invalid']);
  });

  it('a refusal at the provider (error=access_denied) is 1002 sso_authentication_failed', async () => {
    const login = await startLogin(stack.harness, PROVIDER);
    stack.op.denyNext('access_denied');
    const callback = await signInAtProvider(login.headers.get('location')!, stack.op.issuer);
    expect(callback.searchParams.get('error')).toBe('access_denied');
    const body = await envelopeOf(await callCallback(stack.harness, callback));
    expect([body.code, body.data.error_key, body.data.provider_error]).toEqual([
      1002,
      'sso_authentication_failed',
      'access_denied',
    ]);
  });

  it('a forged code with a valid state fails the exchange (1002 sso_authentication_failed)', async () => {
    const callback = await providerRedirect(stack, PROVIDER, {
      sub: uniqueSub(),
      email: `forged_${randomUUID().slice(0, 8)}@idp.test`,
      email_verified: true,
    });
    callback.searchParams.set('code', 'not-the-code');
    const body = await envelopeOf(await callCallback(stack.harness, callback));
    expect([body.code, body.data.error_key]).toEqual([1002, 'sso_authentication_failed']);
  });
});

describe('bad input', () => {
  it('login and callback: malformed provider names, missing state, neither code nor error, oversize values', async () => {
    expect422(await stack.harness.request('GET', '/sso/login/bad%20name'), 'provider_name');
    expect422(await stack.harness.request('GET', `/sso/login/${'a'.repeat(65)}`), 'provider_name');
    expect422(await stack.harness.request('GET', '/sso/callback/main?code=abc'), 'state');
    expect422(await stack.harness.request('GET', '/sso/callback/main?state=abc'), '_');
    expect422(
      await stack.harness.request('GET', `/sso/callback/main?state=s&code=${'c'.repeat(4097)}`),
      'code',
    );
    expect422(
      await stack.harness.request('GET', `/sso/callback/main?code=c&state=${'s'.repeat(513)}`),
      'state',
    );
    expect422(await stack.harness.request('GET', '/sso/callback/main?code=a&code=b&state=s'), 'code');
  });
});
