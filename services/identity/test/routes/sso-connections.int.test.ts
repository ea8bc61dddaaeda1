// GET /sso/connections and DELETE /sso/connections/{connection_id} (gateway
// routes/identity-sso-routes.ts): a user's own SSO links, errors, bad input and security. Signing in:
// sso-sign-in.int.test.ts; the providers: admin-sso-providers.int.test.ts.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestUser, type TestUser } from '../support/rbac-users.js';
import { describeRouteSecurity } from '../support/route-security.js';
import {
  createProvider,
  expect422,
  ssoSignIn,
  startSsoStack,
  type SsoStack,
} from '../support/sso-fixtures.js';

let stack: SsoStack;
let plainUser: TestUser;

beforeAll(async () => {
  stack = await startSsoStack(['main', 'second']);
  for (const name of ['main', 'second']) expect((await createProvider(stack, name)).body.code).toBe(0);
  plainUser = await createTestUser(stack.harness, { name: 'plain' });
}, 60_000);

afterAll(async () => {
  await stack?.stop();
});

describe('DELETE /sso/connections/{id}', () => {
  const sub = () => `sub-${randomUUID()}`;

  it('unlinks a connection of an account that has a password', async () => {
    const user = await createTestUser(stack.harness, { name: 'haspw' });
    expect(
      (await ssoSignIn(stack, 'main', { sub: sub(), email: user.email, email_verified: true })).body.code,
    ).toBe(0);
    const [connection] = (await stack.harness.request('GET', '/sso/connections', { token: user.token })).body
      .data;
    const removed = await stack.harness.request('DELETE', `/sso/connections/${connection.id}`, {
      token: user.token,
    });
    expect(removed.body).toMatchObject({ code: 0, data: { id: connection.id } });
    expect((await stack.harness.request('GET', '/sso/connections', { token: user.token })).body.data).toEqual(
      [],
    );
  });

  it('keeps the last way to sign in of an SSO-only account (1004), allows removing one of two', async () => {
    const email = `only_${randomUUID().slice(0, 8)}@idp.test`;
    const first = await ssoSignIn(stack, 'main', { sub: sub(), email, email_verified: true });
    const token = first.body.data.access_token;
    const second = await ssoSignIn(stack, 'second', { sub: sub(), email, email_verified: true });
    expect(second.body.code).toBe(0);
    const connections = (await stack.harness.request('GET', '/sso/connections', { token })).body.data;
    expect(connections.map((c: { provider_name: string }) => c.provider_name).sort()).toEqual([
      'main',
      'second',
    ]);

    const one = await stack.harness.request('DELETE', `/sso/connections/${connections[0].id}`, { token });
    expect(one.body.code).toBe(0);
    const last = await stack.harness.request('DELETE', `/sso/connections/${connections[1].id}`, { token });
    expect([last.status, last.body.code, last.body.data.error_key]).toEqual([
      403,
      1004,
      'sso_last_login_method',
    ]);
  });

  it("answers 4000 for another user's connection and an unknown id", async () => {
    const owner = await createTestUser(stack.harness, { name: 'owner' });
    expect(
      (await ssoSignIn(stack, 'main', { sub: sub(), email: owner.email, email_verified: true })).body.code,
    ).toBe(0);
    const [connection] = (await stack.harness.request('GET', '/sso/connections', { token: owner.token })).body
      .data;
    const other = await stack.harness.request('DELETE', `/sso/connections/${connection.id}`, {
      token: plainUser.token,
    });
    expect([other.status, other.body.code]).toEqual([404, 4000]);
    const unknown = await stack.harness.request('DELETE', `/sso/connections/${randomUUID()}`, {
      token: plainUser.token,
    });
    expect([unknown.status, unknown.body.code]).toEqual([404, 4000]);
  });
});

describe('bad input', () => {
  it('connections: a non-uuid id is 422, no token 401', async () => {
    expect422(
      await stack.harness.request('DELETE', '/sso/connections/not-a-uuid', { token: plainUser.token }),
      'connection_id',
    );
    const anonymous = await stack.harness.request('DELETE', `/sso/connections/${randomUUID()}`);
    expect([anonymous.status, anonymous.body.code]).toEqual([401, 2000]);
    expect((await stack.harness.request('GET', '/sso/connections')).status).toBe(401);
  });
});

describeRouteSecurity(() => stack.harness, /^\/sso\/connections/);
