// GET and POST /admin/sso/providers, PUT and DELETE /admin/sso/providers/{id} (gateway
// routes/identity-sso-admin-routes.ts): happy paths, errors, bad input and security. Signing in:
// sso-sign-in.int.test.ts; a user's own links: sso-connections.int.test.ts.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestUser, type TestUser } from '../support/rbac-users.js';
import { describeRouteSecurity } from '../support/route-security.js';
import {
  createProvider,
  envelopeOf,
  expect422,
  startSsoStack,
  WEB_URL,
  type SsoStack,
} from '../support/sso-fixtures.js';

let stack: SsoStack;
let reader: TestUser;
let plainUser: TestUser;

beforeAll(async () => {
  stack = await startSsoStack(['main', 'second']);
  const role = await stack.harness.request('POST', '/admin/roles', {
    token: stack.admin.token,
    json: { name: `settings-reader-${randomUUID().slice(0, 6)}`, permissions: ['admin:settings:read'] },
  });
  expect(role.body.code).toBe(0);
  reader = await createTestUser(stack.harness, { roles: [role.body.data.name], name: 'reader' });
  plainUser = await createTestUser(stack.harness, { name: 'plain' });
}, 60_000);

afterAll(async () => {
  await stack?.stop();
});

const admin = () => stack.admin.token;

describe('admin SSO providers', () => {
  it('creates a provider after discovery, masks the secret and stores it encrypted', async () => {
    const res = await createProvider(stack, 'main', { scopes: ['email', 'profile', 'groups'] });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      id: expect.any(String),
      name: 'main',
      display_name: 'Test main',
      issuer: stack.op.issuer,
      client_id: stack.op.clientId,
      client_secret: null,
      client_secret_set: true,
      scopes: ['openid', 'email', 'profile', 'groups'],
      enabled: true,
      allow_registration: true,
      redirect_uri: `${WEB_URL}/api/v1/sso/callback/main`,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const { pool, secrets } = stack.harness.identity.dependencies;
    const { rows } = await pool.query('SELECT client_secret_enc FROM sso_providers WHERE id = $1', [
      res.body.data.id,
    ]);
    expect(rows[0].client_secret_enc).not.toContain(stack.op.clientSecret);
    expect(secrets.decrypt(rows[0].client_secret_enc)).toBe(stack.op.clientSecret);

    const listed = await stack.harness.request('GET', '/admin/sso/providers', { token: reader.token });
    expect(listed.status).toBe(200);
    const main = listed.body.data.find((p: { name: string }) => p.name === 'main');
    expect(main).toMatchObject({ client_secret: null, client_secret_set: true });
    expect(JSON.stringify(listed.body)).not.toContain(stack.op.clientSecret);
  });

  it('answers 6305 for a name that exists', async () => {
    const again = await createProvider(stack, 'main');
    expect([again.status, again.body.code]).toEqual([400, 6305]);
  });

  it('answers 6304 when discovery fails: unreachable, not OIDC, or a different issuer', async () => {
    for (const issuer of ['http://127.0.0.1:1', stack.harness.baseUrl, `${stack.op.issuer}/other`]) {
      const res = await createProvider(stack, `bad-${randomUUID().slice(0, 6)}`, { issuer });
      expect([res.status, res.body.code, res.body.data.field]).toEqual([400, 6304, 'issuer']);
    }
    const { rows } = await stack.harness.identity.dependencies.pool.query(
      `SELECT count(*)::int AS n FROM sso_providers WHERE name LIKE 'bad-%'`,
    );
    expect(rows[0].n).toBe(0);
  });

  it('updates partially: a new secret stays masked, a bad issuer is 6304, a taken name 6305, unknown id 4000', async () => {
    const second = await createProvider(stack, 'second');
    const id = second.body.data.id;
    const updated = await stack.harness.request('PUT', `/admin/sso/providers/${id}`, {
      token: admin(),
      json: { display_name: 'Second IdP', client_secret: 'rotated-secret', enabled: false },
    });
    expect(updated.body.data).toMatchObject({
      display_name: 'Second IdP',
      client_secret: null,
      client_secret_set: true,
      enabled: false,
      issuer: stack.op.issuer,
    });
    const { pool, secrets } = stack.harness.identity.dependencies;
    const { rows } = await pool.query('SELECT client_secret_enc FROM sso_providers WHERE id = $1', [id]);
    expect(secrets.decrypt(rows[0].client_secret_enc)).toBe('rotated-secret');

    const badIssuer = await stack.harness.request('PUT', `/admin/sso/providers/${id}`, {
      token: admin(),
      json: { issuer: 'http://127.0.0.1:1' },
    });
    expect(badIssuer.body.code).toBe(6304);
    const taken = await stack.harness.request('PUT', `/admin/sso/providers/${id}`, {
      token: admin(),
      json: { name: 'main' },
    });
    expect(taken.body.code).toBe(6305);
    const unknown = await stack.harness.request('PUT', `/admin/sso/providers/${randomUUID()}`, {
      token: admin(),
      json: { enabled: false },
    });
    expect([unknown.status, unknown.body.code]).toEqual([404, 4000]);

    const restored = await stack.harness.request('PUT', `/admin/sso/providers/${id}`, {
      token: admin(),
      json: { client_secret: stack.op.clientSecret, enabled: true, scopes: [] },
    });
    expect(restored.body.data).toMatchObject({ enabled: true, scopes: ['openid', 'email', 'profile'] });
  });

  it('checks permissions: read for GET, update for changes; no token 401', async () => {
    const id = randomUUID();
    const cases: Array<[string, string, unknown?]> = [
      ['POST', '/admin/sso/providers', { name: 'x' }],
      ['PUT', `/admin/sso/providers/${id}`, { enabled: true }],
      ['DELETE', `/admin/sso/providers/${id}`],
    ];
    for (const [method, path, json] of cases) {
      const res = await stack.harness.request(method, path, { token: reader.token, json });
      expect([method, res.status, res.body.code]).toEqual([method, 403, 3000]);
    }
    const plain = await stack.harness.request('GET', '/admin/sso/providers', { token: plainUser.token });
    expect([plain.status, plain.body.code]).toEqual([403, 3000]);
    const anonymous = await stack.harness.request('GET', '/admin/sso/providers');
    expect([anonymous.status, anonymous.body.code]).toEqual([401, 2000]);
  });

  it('deleting a provider removes its connections, not the accounts', async () => {
    const created = await createProvider(stack, 'gone');
    const id = created.body.data.id;
    const { pool } = stack.harness.identity.dependencies;
    const user = await createTestUser(stack.harness, { name: 'gone' });
    await pool.query(`INSERT INTO sso_connections (user_id, provider_id, subject) VALUES ($1, $2, 's')`, [
      user.id,
      id,
    ]);
    const deleted = await stack.harness.request('DELETE', `/admin/sso/providers/${id}`, { token: admin() });
    expect(deleted.body).toMatchObject({ code: 0, data: { id } });
    expect((await pool.query('SELECT 1 FROM sso_connections WHERE provider_id = $1', [id])).rowCount).toBe(0);
    expect((await pool.query('SELECT 1 FROM users WHERE id = $1', [user.id])).rowCount).toBe(1);
    const again = await stack.harness.request('DELETE', `/admin/sso/providers/${id}`, { token: admin() });
    expect([again.status, again.body.code]).toEqual([404, 4000]);
  });

  it('the OpenAPI document describes the 302 answers', async () => {
    const response = await fetch(`${stack.harness.baseUrl}/api/v1/openapi.json`);
    const doc = (await response.json()) as { paths: Record<string, any> };
    expect(
      doc.paths['/api/v1/sso/login/{provider_name}'].get.responses['302'].headers.Location,
    ).toBeDefined();
    expect(doc.paths['/api/v1/sso/callback/{provider_name}'].get.responses['302']).toBeDefined();
    expect(doc.paths['/api/v1/admin/sso/providers'].post['x-permission']).toBe('admin:settings:update');
  });
});

describe('SSO bad input', () => {
  it('create: missing fields, wrong types, bad name, issuer and scopes, unknown fields, oversize', async () => {
    const post = (json: unknown) =>
      stack.harness.request('POST', '/admin/sso/providers', { token: admin(), json });
    const missing = await post({});
    expect([missing.status, missing.body.code]).toEqual([422, 1001]);
    expect(Object.keys(missing.body.data.errors).sort()).toEqual(
      ['client_id', 'client_secret', 'display_name', 'issuer', 'name'].sort(),
    );
    const valid = {
      name: 'valid',
      display_name: 'Valid',
      issuer: stack.op.issuer,
      client_id: 'c',
      client_secret: 's',
    };
    expect422(await post({ ...valid, name: 'Bad Name' }), 'name');
    expect422(await post({ ...valid, name: 'x'.repeat(65) }), 'name');
    expect422(await post({ ...valid, issuer: 'ftp://idp.test' }), 'issuer');
    expect422(await post({ ...valid, issuer: 'not a url' }), 'issuer');
    expect422(await post({ ...valid, scopes: 'openid email' }), 'scopes');
    expect422(await post({ ...valid, scopes: ['open id'] }), 'scopes');
    expect422(await post({ ...valid, scopes: Array.from({ length: 21 }, (_, i) => `s${i}`) }), 'scopes');
    expect422(await post({ ...valid, enabled: 'yes' }), 'enabled');
    expect422(await post({ ...valid, allow_registration: 1 }), 'allow_registration');
    expect422(await post({ ...valid, client_secret: 'x'.repeat(2049) }), 'client_secret');
    expect422(await post({ ...valid, display_name: '   ' }), 'display_name');
    expect422(await post({ ...valid, extra: true }), '_');
    expect422(await post([valid]), 'body');

    const malformed = await fetch(`${stack.harness.baseUrl}/api/v1/admin/sso/providers`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin()}`, 'content-type': 'application/json' },
      body: '{"name":',
    });
    expect(malformed.status).toBe(400);
    expect((await envelopeOf(malformed)).code).toBe(1002);
  });

  it('update and delete: empty body, bad id, wrong types, unknown fields', async () => {
    const put = (id: string, json: unknown) =>
      stack.harness.request('PUT', `/admin/sso/providers/${id}`, { token: admin(), json });
    expect422(await put(randomUUID(), {}), '_');
    expect422(await put('nope', { enabled: true }), 'id');
    expect422(await put(randomUUID(), { enabled: 'no' }), 'enabled');
    expect422(await put(randomUUID(), { secret: 'x' }), '_');
    expect422(await stack.harness.request('DELETE', '/admin/sso/providers/nope', { token: admin() }), 'id');
  });
});

describeRouteSecurity(() => stack.harness, /^\/admin\/sso\//);
