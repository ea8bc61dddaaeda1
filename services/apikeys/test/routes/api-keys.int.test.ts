// The /api-keys routes but POST /api-keys (post-api-keys.int.test.ts), gateway
// routes/apikeys-routes.ts: reading, updating, switching and deleting a key, the lists, then bad
// input of PUT and of path and query parameters.
import { beforeEach, describe, expect, it } from 'vitest';
import type { ApiKeysHarness, TestUser } from '../support/harness.js';
import { DETAIL, STATE, keyRequests, sorted, useApiKeysHarness } from '../support/key-fields.js';

let harness: ApiKeysHarness;
let alice: TestUser;
let bob: TestUser;
let admin: TestUser;
let noPerms: TestUser;
let user: TestUser;
let keyId: string;
const MISSING = '00000000-0000-4000-8000-000000000000';

useApiKeysHarness(async (started) => {
  harness = started;
  user = await harness.createUser();
  const made = await harness.request('POST', '/api-keys', { token: user.token, json: { name: 'target' } });
  keyId = made.body.data.id;
});

const { create, expect422 } = keyRequests(() => ({ harness, user }));

describe('with fresh users', () => {
  // Fresh users for every test: no test reads keys another test left.
  beforeEach(async () => {
    alice = await harness.createUser();
    bob = await harness.createUser();
    admin = await harness.createUser({ roles: ['Admin'] });
    noPerms = await harness.createUser({ roles: [] });
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
});

describe('security', () => {
  const routes = (id: string) =>
    [
      ['GET', '/api-keys'],
      ['GET', '/api-keys/stats'],
      ['GET', `/api-keys/${id}`],
      ['PUT', `/api-keys/${id}`],
      ['DELETE', `/api-keys/${id}`],
      ['POST', `/api-keys/${id}/activate`],
      ['POST', `/api-keys/${id}/deactivate`],
    ] as const;
  const bodyFor = (method: string) => (method === 'PUT' ? { name: 'x' } : undefined);

  it('every route: no token → 401 / 2000; a user without the apikey permission → 403 / 3000', async () => {
    const noRights = await harness.createUser({ roles: [] });
    for (const [method, path] of routes(keyId)) {
      const anonymous = await harness.request(method, path, { json: bodyFor(method) });
      expect([method, path, anonymous.status, anonymous.body.code]).toEqual([method, path, 401, 2000]);
      const denied = await harness.request(method, path, { token: noRights.token, json: bodyFor(method) });
      expect([method, path, denied.status, denied.body.code]).toEqual([method, path, 403, 3000]);
    }
    // The key they tried to touch is unchanged.
    const kept = await harness.request('GET', `/api-keys/${keyId}`, { token: user.token });
    expect(kept.body.data).toMatchObject({ id: keyId, name: 'target', is_active: true });
  });
});

describe('PUT /api-keys/{key_id} bad input', () => {
  it.each([
    [{ name: '' }, 'name'],
    [{ name: 'x'.repeat(101) }, 'name'],
    [{ scopes: ['nope'] }, 'scopes.0'],
    [{ scopes: [] }, 'scopes'],
    [{ rate_limit: -5 }, 'rate_limit'],
    [{ is_active: 'yes' }, 'is_active'],
    [{ agent_ids: ['x'] }, 'agent_ids.0'],
    [{ workflow_ids: [1] }, 'workflow_ids.0'],
    [{ expires_at: '2031-01-01T00:00:00Z' }, '_'],
  ])('%j → 422 / 1001 on %s', async (json, field) => {
    await expect422('PUT', `/api-keys/${keyId}`, json, field);
  });
});

describe('path and query parameters', () => {
  it.each([
    ['GET', '/api-keys/not-a-uuid'],
    ['PUT', '/api-keys/not-a-uuid'],
    ['DELETE', '/api-keys/123'],
    ['POST', '/api-keys/zzz/activate'],
    ['POST', '/api-keys/zzz/deactivate'],
  ])('%s %s → 422 / 1001 on key_id', async (method, path) => {
    await expect422(method, path, method === 'PUT' ? { name: 'x' } : undefined, 'key_id');
  });

  it.each([
    ['page=0', 'page'],
    ['page=abc', 'page'],
    ['page_size=0', 'page_size'],
    ['page_size=101', 'page_size'],
    ['page_size=1.5', 'page_size'],
    ['status=deleted', 'status.0'],
    ['status=active&status=bogus', 'status.1'],
    ['user_id=me', 'user_id.0'],
    [`search=${'s'.repeat(101)}`, 'search'],
  ])('GET /api-keys?%s → 422 / 1001 on %s', async (query, field) => {
    await expect422('GET', `/api-keys?${query}`, undefined, field);
  });
});
