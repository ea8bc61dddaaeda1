// GET /admin/models, GET, PUT and DELETE /admin/models/{model_id} (gateway routes/models-routes.ts):
// listing, reading, partial updates and deletes, their errors and bad input, the permissions of
// every /admin/models route (one table) and the one-default-per-type rule, through the gateway on
// real Postgres. Creating: post-admin-models; the test and discovery calls:
// post-admin-models-test-and-discover.
import { routeSecurity, type IdentityUser } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGrantsHarness, type GrantsHarness } from '../support/grants-harness.js';
import { createModel, userWith } from '../support/models-admin.js';

let harness: GrantsHarness;
let admin: IdentityUser;

beforeAll(async () => {
  harness = await startGrantsHarness();
  admin = await harness.createUser({ roles: ['Admin'], name: 'ladmin' });
}, 90_000);
afterAll(async () => {
  await harness?.stop();
});

const list = (query: string, token = admin.token) =>
  harness.request('GET', `/admin/models${query}`, { token });
const get = (path: string, token = admin.token) => harness.request('GET', path, { token });
const put = (id: string, json: Record<string, unknown>, token = admin.token) =>
  harness.request('PUT', `/admin/models/${id}`, { token, json });
const names = (res: { body: { data: { items: { name: string }[] } } }) =>
  res.body.data.items.map((m) => m.name);

describe('GET /admin/models', () => {
  it('orders by sort_order then name, pages, and filters by provider, model_type and is_enabled', async () => {
    const specs = [
      { name: 'b-chat', sort_order: 1 },
      { name: 'a-chat', sort_order: 1 },
      { name: 'z-first', sort_order: -1 },
      { name: 'c-embed', sort_order: 0, model_type: 'embedding', provider: 'deepseek' },
      { name: 'd-off', sort_order: 2, is_enabled: false, provider: 'deepseek' },
    ];
    for (const spec of specs) expect((await createModel(harness, admin.token, spec)).body.code).toBe(0);
    const all = await list('');
    expect(names(all)).toEqual(['z-first', 'c-embed', 'a-chat', 'b-chat', 'd-off']);
    expect(all.body.data).toMatchObject({ total: 5, page: 1, page_size: 20 });
    const page2 = await list('?page=2&page_size=2');
    expect(names(page2)).toEqual(['a-chat', 'b-chat']);
    expect(page2.body.data).toMatchObject({ total: 5, page: 2, page_size: 2 });
    expect(names(await list('?provider=deepseek'))).toEqual(['c-embed', 'd-off']);
    expect(names(await list('?model_type=embedding'))).toEqual(['c-embed']);
    expect(names(await list('?is_enabled=false'))).toEqual(['d-off']);
    expect(names(await list('?is_enabled=true&provider=deepseek'))).toEqual(['c-embed']);
    for (const bad of [
      '?page=0',
      '?page_size=101',
      '?model_type=video',
      '?is_enabled=maybe',
      '?provider=NOPE',
    ]) {
      const res = await list(bad);
      expect(res.status, bad).toBe(422);
      expect(res.body.code, bad).toBe(1001);
    }
  });

  it('read needs global admin access or admin:model:create|update; writes need their own code', async () => {
    const [dashboard, creator, updater, deleter, none] = await Promise.all([
      userWith(harness, admin, ['admin:dashboard:access']),
      userWith(harness, admin, ['admin:model:create']),
      userWith(harness, admin, ['admin:model:update']),
      userWith(harness, admin, ['admin:model:delete']),
      harness.createUser({ name: 'nobody' }),
    ]);
    for (const reader of [dashboard, creator, updater])
      expect((await list('', reader.token)).body.code).toBe(0);
    for (const outsider of [deleter, none]) {
      const res = await list('', outsider.token);
      expect(res.status).toBe(403);
      expect(res.body.code).toBe(3000);
    }
    expect((await createModel(harness, updater.token, {})).body.code).toBe(3000);
    const created = await createModel(harness, creator.token, { name: 'by-creator' });
    expect(created.body.code).toBe(0);
    const id = created.body.data.id;
    const rename = (token: string) =>
      harness.request('PUT', `/admin/models/${id}`, { token, json: { name: 'renamed' } });
    expect((await rename(creator.token)).body.code).toBe(3000);
    expect((await rename(updater.token)).body.code).toBe(0);
    const remove = (token: string) => harness.request('DELETE', `/admin/models/${id}`, { token });
    const test = (token: string) => harness.request('POST', `/admin/models/${id}/test`, { token, json: {} });
    expect((await test(updater.token)).body.code).toBe(3000);
    const discover = (token: string) =>
      harness.request('POST', '/admin/models/discover', { token, json: { provider: 'custom' } });
    expect((await discover(updater.token)).body.code).toBe(3000);
    expect((await discover(creator.token)).body.code).toBe(1001); // custom needs a base_url
    expect((await remove(updater.token)).body.code).toBe(3000);
    expect((await remove(deleter.token)).body.code).toBe(0);
  });
});

describe('GET, PUT and DELETE /admin/models/{model_id}', () => {
  it('unknown id → 404 / 6100 on read, update, delete and test', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    for (const res of [
      await get(`/admin/models/${id}`),
      await put(id, { name: 'x' }),
      await harness.request('DELETE', `/admin/models/${id}`, { token: admin.token }),
      await harness.request('POST', `/admin/models/${id}/test`, { token: admin.token, json: {} }),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.code).toBe(6100);
    }
    expect((await get('/admin/models/not-a-uuid')).body.code).toBe(1001);
  });

  it('update is partial; delete removes the model', async () => {
    const created = await createModel(harness, admin.token, {
      name: 'partial',
      sort_order: 5,
      input_price: 1.5,
    });
    const id = created.body.data.id;
    const res = await put(id, { provider_display_name: 'Shown', sort_order: 6 });
    expect(res.body.data).toMatchObject({
      name: 'partial',
      provider_display_name: 'Shown',
      sort_order: 6,
      input_price: 1.5,
    });
    expect((await put(id, { input_price: null })).body.data.input_price).toBeNull();
    expect((await harness.request('DELETE', `/admin/models/${id}`, { token: admin.token })).body.code).toBe(
      0,
    );
    expect((await get(`/admin/models/${id}`)).body.code).toBe(6100);
  });
});

describe('is_default', () => {
  it('one default per type: setting a new default clears the old one', async () => {
    const first = await createModel(harness, admin.token, {
      model_type: 'rerank',
      provider: 'cohere',
      is_default: true,
    });
    const second = await createModel(harness, admin.token, {
      model_type: 'rerank',
      provider: 'cohere',
      is_default: true,
    });
    expect(second.body.data.is_default).toBe(true);
    const firstNow = await harness.request('GET', `/admin/models/${first.body.data.id}`, {
      token: admin.token,
    });
    expect(firstNow.body.data.is_default).toBe(false);
  });

  it('bursts of 24 and 20 concurrent "make me default" updates and creates leaves exactly one default', async () => {
    const video = { model_type: 'text_to_video', provider: 'runway', is_default: true };
    expect((await createModel(harness, admin.token, video)).body.code).toBe(0);
    const ids: string[] = [];
    for (let i = 0; i < 16; i++) {
      const res = await createModel(harness, admin.token, { model_type: 'stt', name: `stt-${i}` });
      ids.push(res.body.data.id);
    }
    const results = await Promise.all([
      ...ids.map((id) =>
        harness.request('PUT', `/admin/models/${id}`, { token: admin.token, json: { is_default: true } }),
      ),
      ...Array.from({ length: 8 }, (_, i) =>
        createModel(harness, admin.token, { model_type: 'stt', name: `stt-new-${i}`, is_default: true }),
      ),
    ]);
    expect(results.map((res) => res.body.code)).toEqual(results.map(() => 0));
    const defaults = async () => {
      const { rows } = await harness.models.pool.query<{ count: string }>(
        "SELECT count(*) FROM models WHERE model_type = 'stt' AND is_default",
      );
      return Number(rows[0]!.count);
    };
    expect(await defaults()).toBe(1);
    // Again, now with the current default among the updated ones (its own row locked meanwhile),
    // and models moving into the type as its default.
    const again = await Promise.all([
      ...ids.map((id) =>
        harness.request('PUT', `/admin/models/${id}`, { token: admin.token, json: { is_default: true } }),
      ),
      ...Array.from({ length: 4 }, async (_, i) => {
        const other = await createModel(harness, admin.token, { model_type: 'tts', name: `tts-${i}` });
        return harness.request('PUT', `/admin/models/${other.body.data.id}`, {
          token: admin.token,
          json: { model_type: 'stt', is_default: true },
        });
      }),
    ]);
    expect(again.map((res) => res.body.code)).toEqual(again.map(() => 0));
    expect(await defaults()).toBe(1);
    // Another type keeps its own default.
    const { rows } = await harness.models.pool.query<{ count: string }>(
      "SELECT count(*) FROM models WHERE model_type = 'text_to_video' AND is_default",
    );
    expect(Number(rows[0]!.count)).toBe(1);
  });
});

describe('GET /admin/models, GET, PUT and DELETE /admin/models/{model_id}: security', () => {
  it('no token → 401 / 2000; a malformed or forged token → 403 / 2003; a user with no role → 403 / 3000', async () => {
    const one = '/admin/models/00000000-0000-4000-8000-000000000000';
    const noRole = await harness.createUser({ name: 'norole', roles: [] });
    const { answers, expected } = await routeSecurity(
      harness.request,
      [
        ['GET', '/admin/models'],
        ['GET', one],
        ['PUT', one, { name: 'x' }],
        ['DELETE', one],
      ],
      noRole.token,
    );
    expect(answers).toEqual(expected);
  });
});
