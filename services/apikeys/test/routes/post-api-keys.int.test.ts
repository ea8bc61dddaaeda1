// POST /api-keys (gateway routes/apikeys-routes.ts): the happy path and the security cases
// ("create"), then bad input. The other /api-keys routes: api-keys.int.test.ts.
import { beforeEach, describe, expect, it } from 'vitest';
import type { ApiKeysHarness, TestUser } from '../support/harness.js';
import { DETAIL, STATE, keyRequests, sorted, useApiKeysHarness } from '../support/key-fields.js';

let harness: ApiKeysHarness;
let user: TestUser;
let alice: TestUser;
let noPerms: TestUser;
useApiKeysHarness(async (started) => {
  harness = started;
  user = await harness.createUser();
});

const UUID = '11111111-1111-4111-8111-111111111111';
const past = new Date(Date.now() - 60_000).toISOString();
const { create, expect422 } = keyRequests(() => ({ harness, user }));

describe('create', () => {
  // Fresh users for every test: no test reads keys another test left.
  beforeEach(async () => {
    alice = await harness.createUser();
    noPerms = await harness.createUser({ roles: [] });
  });

  it('returns the key once with the spec fields, defaults and user', async () => {
    const res = await create(alice, { name: 'ci key' });
    expect([res.status, res.body.code]).toEqual([200, 0]);
    const data = res.body.data;
    expect(sorted(data)).toEqual([...STATE, 'key', 'user'].sort());
    expect(data).toMatchObject({
      name: 'ci key',
      scopes: ['chat'],
      rate_limit: 1000,
      is_active: true,
      expires_at: null,
      user_id: alice.id,
      user: { id: alice.id, username: alice.username },
    });
    expect(data.key).toMatch(/^sk-[A-Za-z0-9]{12}_[A-Za-z0-9_-]{43}$/);
    expect(data.key.startsWith(`${data.key_prefix}_`)).toBe(true);
    const stored = await harness.apikeys.dependencies.pool.query(
      'SELECT key_hash FROM api_keys WHERE id = $1',
      [data.id],
    );
    expect(stored.rows[0].key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored.rows)).not.toContain(data.key);
    const again = await harness.request('GET', `/api-keys/${data.id}`, { token: alice.token });
    expect(JSON.stringify(again.body)).not.toContain(data.key);
  });

  it('takes every field; rate_limit 0 means unlimited; bindings appear in get', async () => {
    const agent = '11111111-1111-4111-8111-111111111111';
    const workflow = '22222222-2222-4222-8222-222222222222';
    const expires = new Date(Date.now() + 86_400_000).toISOString();
    const res = await create(alice, {
      name: 'full',
      scopes: ['workflow:execute', 'knowledge:read'],
      rate_limit: 0,
      expires_at: expires,
      agent_ids: [agent],
      workflow_ids: [workflow],
    });
    expect(res.body.code).toBe(0);
    expect(res.body.data).toMatchObject({ rate_limit: 0, scopes: ['workflow:execute', 'knowledge:read'] });
    expect(Date.parse(res.body.data.expires_at)).toBe(Date.parse(expires));
    const got = await harness.request('GET', `/api-keys/${res.body.data.id}`, { token: alice.token });
    expect(sorted(got.body.data)).toEqual(DETAIL);
    expect(got.body.data.agents).toEqual([{ id: agent, name: null, icon: null }]);
    expect(got.body.data.workflows).toEqual([{ id: workflow, name: null, deleted: false }]);
    expect(got.body.data.last_used_at).toBeNull();
  });

  it('needs apikey:create and a JWT user', async () => {
    const denied = await create(noPerms, { name: 'x' });
    expect([denied.status, denied.body.code]).toEqual([403, 3000]);
    const none = await harness.request('POST', '/api-keys', { json: { name: 'x' } });
    expect([none.status, none.body.code]).toEqual([401, 2000]);
    const made = await create(alice, { name: 'manager?' });
    for (const [method, path] of [
      ['GET', '/api-keys'],
      ['GET', '/api-keys/stats'],
      ['POST', '/api-keys'],
      ['DELETE', `/api-keys/${made.body.data.id}`],
    ] as const) {
      const json = method === 'POST' ? { name: 'x' } : undefined;
      const res = await harness.request(method, path, { token: made.body.data.key, json });
      expect([res.status, res.body.code, res.body.data?.error_key]).toEqual([
        403,
        3000,
        'api_key_not_allowed',
      ]);
    }
  });
});

describe('POST /api-keys bad input', () => {
  it.each([
    [{}, 'name'],
    [{ name: '' }, 'name'],
    [{ name: '   ' }, 'name'],
    [{ name: 'x'.repeat(101) }, 'name'],
    [{ name: 42 }, 'name'],
    [{ name: 'k', scopes: ['admin'] }, 'scopes.0'],
    [{ name: 'k', scopes: [] }, 'scopes'],
    [{ name: 'k', scopes: 'chat' }, 'scopes'],
    [{ name: 'k', rate_limit: -1 }, 'rate_limit'],
    [{ name: 'k', rate_limit: 1.5 }, 'rate_limit'],
    [{ name: 'k', rate_limit: '10' }, 'rate_limit'],
    [{ name: 'k', rate_limit: 2 ** 31 }, 'rate_limit'],
    [{ name: 'k', expires_at: 'tomorrow' }, 'expires_at'],
    [{ name: 'k', expires_at: '2030-01-01' }, 'expires_at'],
    [{ name: 'k', expires_at: past }, 'expires_at'],
    [{ name: 'k', agent_ids: ['not-a-uuid'] }, 'agent_ids.0'],
    [{ name: 'k', workflow_ids: UUID }, 'workflow_ids'],
    [{ name: 'k', agent_ids: Array.from({ length: 101 }, () => UUID) }, 'agent_ids'],
    [{ name: 'k', unknown_field: true }, '_'],
  ])('%j → 422 / 1001 on %s', async (json, field) => {
    await expect422('POST', '/api-keys', json, field);
  });

  it('refuses malformed JSON, non-objects and other content types', async () => {
    const malformed = await harness.request('POST', '/api-keys', {
      token: user.token,
      raw: { body: '{"name":', contentType: 'application/json' },
    });
    expect([malformed.status, malformed.body.code]).toEqual([400, 1002]);
    const array = await harness.request('POST', '/api-keys', { token: user.token, json: [{ name: 'k' }] });
    expect([array.status, array.body.code]).toEqual([422, 1001]);
    const form = await harness.request('POST', '/api-keys', {
      token: user.token,
      raw: { body: 'name=k', contentType: 'application/x-www-form-urlencoded' },
    });
    expect([form.status, form.body.code]).toEqual([415, 1002]);
  });
});
