import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startApiKeysHarness, type ApiKeysHarness, type TestUser } from './support/harness.js';

let harness: ApiKeysHarness;
let alice: TestUser;
let bob: TestUser;
let admin: TestUser;
let noPerms: TestUser;
const MISSING = '00000000-0000-4000-8000-000000000000';

beforeAll(async () => {
  harness = await startApiKeysHarness();
}, 60_000);
// Fresh users for every test: no test reads keys another test left.
beforeEach(async () => {
  alice = await harness.createUser();
  bob = await harness.createUser();
  admin = await harness.createUser({ roles: ['Admin'] });
  noPerms = await harness.createUser({ roles: [] });
});
afterAll(async () => {
  await harness?.stop();
});

const sorted = (o: object) => Object.keys(o).sort();
const DETAIL = [
  'agents',
  'created_at',
  'expires_at',
  'id',
  'is_active',
  'key_prefix',
  'last_used_at',
  'name',
  'rate_limit',
  'scopes',
  'updated_at',
  'user_id',
  'workflows',
];
const STATE = DETAIL.filter((f) => !['agents', 'last_used_at', 'workflows'].includes(f));

const create = (user: TestUser, json: unknown) =>
  harness.request('POST', '/api-keys', { token: user.token, json });

describe('create', () => {
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

describe('get, update, activate, deactivate, delete', () => {
  it('returns the spec field sets and applies partial updates', async () => {
    const made = (await create(alice, { name: 'one' })).body.data;
    const got = await harness.request('GET', `/api-keys/${made.id}`, { token: alice.token });
    expect(sorted(got.body.data)).toEqual(DETAIL);

    const updated = await harness.request('PUT', `/api-keys/${made.id}`, {
      token: alice.token,
      json: { name: 'renamed', scopes: ['agent:read'], rate_limit: 5, agent_ids: [MISSING] },
    });
    expect(updated.body.code).toBe(0);
    expect(sorted(updated.body.data)).toEqual(['id', 'is_active', 'name', 'updated_at']);
    expect(updated.body.data).toMatchObject({ id: made.id, name: 'renamed', is_active: true });
    const after = (await harness.request('GET', `/api-keys/${made.id}`, { token: alice.token })).body.data;
    expect(after).toMatchObject({ scopes: ['agent:read'], rate_limit: 5, agents: [{ id: MISSING }] });

    const off = await harness.request('POST', `/api-keys/${made.id}/deactivate`, { token: alice.token });
    expect(sorted(off.body.data)).toEqual(STATE);
    expect(off.body.data.is_active).toBe(false);
    const on = await harness.request('POST', `/api-keys/${made.id}/activate`, { token: alice.token });
    expect(on.body.data.is_active).toBe(true);
    const viaPut = await harness.request('PUT', `/api-keys/${made.id}`, {
      token: alice.token,
      json: { is_active: false, agent_ids: [] },
    });
    expect(viaPut.body.data.is_active).toBe(false);

    const deleted = await harness.request('DELETE', `/api-keys/${made.id}`, { token: alice.token });
    expect([deleted.status, deleted.body.code, deleted.body.data]).toEqual([200, 0, null]);
    const gone = await harness.request('GET', `/api-keys/${made.id}`, { token: alice.token });
    expect([gone.status, gone.body.code]).toEqual([404, 4000]);
  });

  it("answers 404 / 4000 for unknown keys and other users' keys; global admins reach every key", async () => {
    const mine = (await create(alice, { name: 'private' })).body.data;
    for (const [method, path, json] of [
      ['GET', `/api-keys/${mine.id}`, undefined],
      ['PUT', `/api-keys/${mine.id}`, { name: 'stolen' }],
      ['POST', `/api-keys/${mine.id}/deactivate`, undefined],
      ['POST', `/api-keys/${mine.id}/activate`, undefined],
      ['DELETE', `/api-keys/${mine.id}`, undefined],
      ['GET', `/api-keys/${MISSING}`, undefined],
    ] as const) {
      const res = await harness.request(method, path, { token: bob.token, json });
      expect([method, path, res.status, res.body.code]).toEqual([method, path, 404, 4000]);
    }
    const byAdmin = await harness.request('GET', `/api-keys/${mine.id}`, { token: admin.token });
    expect(byAdmin.body.data.id).toBe(mine.id);
  });
});

describe('list and stats', () => {
  it('lists own keys newest first with user; admins see all and filter by user_id', async () => {
    const own = await harness.request('GET', '/api-keys?page_size=100', { token: bob.token });
    expect(own.body.data.items).toEqual([]);
    await create(alice, { name: 'a1' });
    await create(bob, { name: 'b1' });
    await create(bob, { name: 'b2' });
    const list = await harness.request('GET', '/api-keys', { token: bob.token });
    expect(list.body.data).toMatchObject({ total: 2, page: 1, page_size: 20 });
    expect(list.body.data.items.map((k: { name: string }) => k.name)).toEqual(['b2', 'b1']);
    expect(sorted(list.body.data.items[0])).toEqual([...DETAIL, 'user'].sort());
    expect(list.body.data.items[0].user).toEqual({ id: bob.id, username: bob.username });
    // A non-admin's user_id filter is ignored: still only their own keys.
    const sneaky = await harness.request('GET', `/api-keys?user_id=${alice.id}`, { token: bob.token });
    expect(sneaky.body.data.items.every((k: { user_id: string }) => k.user_id === bob.id)).toBe(true);
    const all = await harness.request('GET', '/api-keys?page_size=100', { token: admin.token });
    // Other tests' keys may be there too; alice's and bob's must both be.
    const owners = new Set(all.body.data.items.map((k: { user_id: string }) => k.user_id));
    expect([owners.has(alice.id), owners.has(bob.id)]).toEqual([true, true]);
    const filtered = await harness.request('GET', `/api-keys?user_id=${bob.id}&user_id=${MISSING}`, {
      token: admin.token,
    });
    expect(filtered.body.data.total).toBe(2);
    const paged = await harness.request('GET', '/api-keys?page=2&page_size=1', { token: bob.token });
    expect(paged.body.data).toMatchObject({ total: 2, page: 2, page_size: 1 });
    expect(paged.body.data.items.map((k: { name: string }) => k.name)).toEqual(['b1']);
  });

  it('filters by status (expired whatever is_active) and searches name or prefix literally', async () => {
    const carol = await harness.createUser();
    const active = (await create(carol, { name: 'alpha 100%' })).body.data;
    const inactive = (await create(carol, { name: 'beta_1' })).body.data;
    await harness.request('POST', `/api-keys/${inactive.id}/deactivate`, { token: carol.token });
    const expiredActive = (await create(carol, { name: 'gamma' })).body.data;
    const expiredInactive = (await create(carol, { name: 'delta' })).body.data;
    await harness.request('POST', `/api-keys/${expiredInactive.id}/deactivate`, { token: carol.token });
    await harness.apikeys.dependencies.pool.query(
      "UPDATE api_keys SET expires_at = now() - interval '1 hour' WHERE id = ANY($1::uuid[])",
      [[expiredActive.id, expiredInactive.id]],
    );
    const names = async (query: string) =>
      (await harness.request('GET', `/api-keys?${query}`, { token: carol.token })).body.data.items
        .map((k: { name: string }) => k.name)
        .sort();
    expect(await names('status=active')).toEqual(['alpha 100%']);
    expect(await names('status=inactive')).toEqual(['beta_1']);
    expect(await names('status=expired')).toEqual(['delta', 'gamma']);
    expect(await names('status=active&status=inactive')).toEqual(['alpha 100%', 'beta_1']);
    expect(await names('search=ALPHA')).toEqual(['alpha 100%']);
    expect(await names('search=%25')).toEqual(['alpha 100%']);
    expect(await names('search=_')).toEqual(['beta_1']);
    expect(await names(`search=${active.key_prefix.slice(0, 10)}`)).toEqual(['alpha 100%']);

    const stats = await harness.request('GET', '/api-keys/stats', { token: carol.token });
    expect(stats.body.data).toEqual({ total: 4, active: 1, inactive: 1, expired: 2 });
    await create(alice, { name: 'someone else’s' });
    const adminStats = await harness.request('GET', '/api-keys/stats', { token: admin.token });
    expect(adminStats.body.data.total).toBeGreaterThan(4);
    const none = await harness.request('GET', '/api-keys/stats', { token: noPerms.token });
    expect([none.status, none.body.code]).toEqual([403, 3000]);
  });
});
