import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect } from 'vitest';
import type { HttpResult, IdentityHarness } from './harness.js';
import { startIdentityHarness } from './harness.js';
import { createTestUser, type TestUser } from './rbac-users.js';
import {
  signInAtProvider,
  startTestOidcProvider,
  type TestOidcAccount,
  type TestOidcProvider,
} from './oidc-test-provider.js';

/**
 * The web app's origin as identity knows it (PUBLIC_WEB_URL). The provider redirects the browser
 * there; the tests play the web server's `/api` proxy by sending the same path and query to the
 * harness gateway.
 */
export const WEB_URL = 'http://web.test';

export interface SsoStack {
  harness: IdentityHarness;
  op: TestOidcProvider;
  admin: TestUser;
  stop(): Promise<void>;
}

/** Harness (http issuers allowed) + a real OIDC provider whose client knows `providerNames`. */
export async function startSsoStack(providerNames: string[]): Promise<SsoStack> {
  const harness = await startIdentityHarness({ PUBLIC_WEB_URL: WEB_URL, SSO_ALLOW_INSECURE_ISSUERS: 'true' });
  const op = await startTestOidcProvider(WEB_URL, providerNames);
  const admin = await createTestUser(harness, { superuser: true, name: 'ssoadmin' });
  await harness.setSettings({
    sso_enabled: true,
    sso_allow_password_login: true,
    allow_registration: true,
    require_approval: false,
    email_verification: false,
    require_totp: false,
  });
  return {
    harness,
    op,
    admin,
    async stop() {
      await op.stop();
      await harness.stop();
    },
  };
}

/** `POST /admin/sso/providers` for the stack's provider. */
export function createProvider(
  stack: SsoStack,
  name: string,
  overrides: Record<string, unknown> = {},
): Promise<HttpResult> {
  return stack.harness.request('POST', '/admin/sso/providers', {
    token: stack.admin.token,
    json: {
      name,
      display_name: `Test ${name}`,
      issuer: stack.op.issuer,
      client_id: stack.op.clientId,
      client_secret: stack.op.clientSecret,
      ...overrides,
    },
  });
}

/** `GET /sso/login/{name}` as a browser: the 302 and its Location. */
export async function startLogin(harness: IdentityHarness, name: string): Promise<Response> {
  return fetch(`${harness.baseUrl}/api/v1/sso/login/${name}`, { redirect: 'manual' });
}

/** Calls the callback URL the provider redirected to (on the gateway), as JSON or as a browser. */
export async function callCallback(harness: IdentityHarness, callback: URL, json = true): Promise<Response> {
  return fetch(`${harness.baseUrl}${callback.pathname}${callback.search}`, {
    redirect: 'manual',
    headers: json ? { accept: 'application/json' } : {},
  });
}

/** The provider's redirect back to the callback, after signing `account` in at the provider. */
export async function providerRedirect(
  stack: SsoStack,
  name: string,
  account: TestOidcAccount,
): Promise<URL> {
  const login = await startLogin(stack.harness, name);
  if (login.status !== 302) throw new Error(`login answered ${login.status}: ${await login.text()}`);
  stack.op.setNextAccount(account);
  return signInAtProvider(login.headers.get('location')!, stack.op.issuer);
}

/** A fetch response's JSON envelope. */
export async function envelopeOf(response: Response): Promise<HttpResult['body']> {
  return (await response.json()) as HttpResult['body'];
}

/** The whole browser round trip; the callback's JSON envelope. */
export async function ssoSignIn(
  stack: SsoStack,
  name: string,
  account: TestOidcAccount,
): Promise<HttpResult> {
  const callback = await providerRedirect(stack, name, account);
  const response = await callCallback(stack.harness, callback);
  return { status: response.status, body: await envelopeOf(response), headers: response.headers };
}

/**
 * The stack with `provider` created, started before the file's tests and stopped after them; the
 * returned object forwards to the running stack, so a file can hold it in a `const`.
 */
export function useSsoStack(providerNames: string[], provider: string): SsoStack {
  let running: SsoStack | undefined;
  beforeAll(async () => {
    running = await startSsoStack(providerNames);
    const created = await createProvider(running, provider);
    if (created.body.code !== 0) throw new Error(`provider not created: ${JSON.stringify(created.body)}`);
  }, 60_000);
  afterAll(async () => {
    await running?.stop();
  });
  const live = (): SsoStack => {
    if (!running) throw new Error('the SSO stack is not running (use it inside tests and hooks)');
    return running;
  };
  return {
    get harness() {
      return live().harness;
    },
    get op() {
      return live().op;
    },
    get admin() {
      return live().admin;
    },
    stop: () => live().stop(),
  };
}

/** A subject no provider account used before. */
export const uniqueSub = (): string => `sub-${randomUUID()}`;

/** The stored account with this email (any letter case), or undefined. */
export async function userByEmail(stack: SsoStack, email: string) {
  const { rows } = await stack.harness.identity.dependencies.pool.query(
    `SELECT id, username::text AS username, password_hash, email_verified, approval_status, is_active
       FROM users WHERE email = $1::citext`,
    [email],
  );
  return rows[0];
}

/** A 422 / 1001 answer that names `field` among its errors. */
export function expect422(res: Pick<HttpResult, 'status' | 'body'>, field: string): void {
  expect([res.status, res.body.code]).toEqual([422, 1001]);
  // Element errors are keyed by path (`scopes.0`); object-level refinements by `_`.
  const keys = Object.keys(res.body.data.errors);
  expect(
    keys.some((key) => key === field || key.startsWith(`${field}.`)),
    keys.join(),
  ).toBe(true);
}
