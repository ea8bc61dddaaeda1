import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  chainDefinition,
  startWorkflowsHarness,
  type TestUser,
  type WorkflowsHarness,
} from '../support/harness.js';

let harness: WorkflowsHarness;
let alice: TestUser;
let bob: TestUser;
const MISSING = '00000000-0000-4000-8000-000000000000';

beforeAll(async () => {
  harness = await startWorkflowsHarness();
}, 60_000);
beforeEach(async () => {
  alice = await harness.createUser();
  bob = await harness.createUser();
});
afterAll(async () => {
  await harness?.stop();
});

const create = (user: TestUser, json: Record<string, unknown>) =>
  harness.request('POST', '/workflows', { token: user.token, json });
const put = (user: TestUser, id: string, json: Record<string, unknown>) =>
  harness.request('PUT', `/workflows/${id}`, { token: user.token, json });
const get = (user: TestUser, id: string) => harness.request('GET', `/workflows/${id}`, { token: user.token });

async function newWorkflow(user: TestUser, extra: Record<string, unknown> = {}) {
  const res = await create(user, { name: 'flow', definition: chainDefinition(), ...extra });
  expect([res.status, res.body.code]).toEqual([200, 0]);
  return res.body.data as { id: string; version: number } & Record<string, unknown>;
}

describe('create and read', () => {
  it('creates a draft at version 1 owned by the caller, with every pinned field', async () => {
    const definition = { ...chainDefinition(3), metadata: { author: 'a' }, viewport: { zoom: 1 } };
    const res = await create(alice, {
      name: ' Invoice flow ',
      description: 'd',
      icon: '🧾',
      definition,
      variables: { x: 1 },
      trigger_type: 'webhook',
      trigger_config: { path: '/in' },
    });
    expect([res.status, res.body.code]).toEqual([200, 0]);
    const data = res.body.data;
    expect(data).toMatchObject({
      name: 'Invoice flow',
      description: 'd',
      icon: '🧾',
      visibility: 'private',
      team_id: null,
      owner_id: alice.id,
      definition,
      variables: { x: 1 },
      trigger_type: 'webhook',
      trigger_config: { path: '/in' },
      version: 1,
      status: 'draft',
      presentation_mode: null,
      published_at: null,
    });
    for (const field of ['id', 'created_at', 'updated_at']) expect(data).toHaveProperty(field);
    const read = await get(alice, data.id);
    expect(read.body.data).toEqual(data);
  });

  it('keeps a legacy definition (schema_version below 2) exactly as given, key order included', async () => {
    const legacy = {
      nodes: [{ data: { z: 1, a: 2 }, type: 'start', id: 'a' }],
      schema_version: 1,
      edges: [],
      zeta: { b: [1, 'x', null], a: true },
    };
    const { id } = await newWorkflow(alice, { definition: legacy });
    const read = await get(alice, id);
    expect(JSON.stringify(read.body.data.definition)).toBe(JSON.stringify(legacy));
  });

  it('another user gets 404 / 4000 for a workflow they cannot reach, as for one that does not exist', async () => {
    const { id } = await newWorkflow(alice);
    for (const res of [
      await get(bob, id),
      await get(bob, MISSING),
      await put(bob, id, { name: 'x' }),
      await harness.request('DELETE', `/workflows/${id}`, { token: bob.token }),
    ]) {
      expect([res.status, res.body.code]).toEqual([404, 4000]);
    }
    expect((await get(alice, id)).body.data.name).toBe('flow');
  });

  it('a superuser reads, changes and lists every workflow', async () => {
    const root = await harness.createUser({ superuser: true });
    const { id } = await newWorkflow(alice);
    expect((await get(root, id)).status).toBe(200);
    expect((await put(root, id, { name: 'renamed by root' })).body.data.name).toBe('renamed by root');
    const list = await harness.request('GET', `/workflows?search=renamed%20by%20root`, { token: root.token });
    expect(list.body.data.items.map((w: { id: string }) => w.id)).toContain(id);
  });

  it('without workflow permissions the gateway refuses with 403', async () => {
    const nobody = await harness.createUser({ roles: [] });
    const res = await create(nobody, { name: 'x', definition: chainDefinition() });
    expect(res.status).toBe(403);
  });
});

describe('list', () => {
  it('pages own workflows, filters by search and status, and never shows others', async () => {
    const tag = `tag${Date.now()}`;
    for (let i = 0; i < 3; i += 1) await newWorkflow(alice, { name: `${tag} A${i}` });
    await newWorkflow(alice, { name: 'other name' });
    await newWorkflow(bob, { name: `${tag} bob` });
    const page1 = await harness.request('GET', `/workflows?search=${tag}&page=1&page_size=2`, {
      token: alice.token,
    });
    expect(page1.body.data).toMatchObject({ total: 3, page: 1, page_size: 2 });
    expect(page1.body.data.items).toHaveLength(2);
    expect(page1.body.data.items[0]).not.toHaveProperty('definition');
    const page2 = await harness.request('GET', `/workflows?search=${tag}&page=2&page_size=2`, {
      token: alice.token,
    });
    expect(page2.body.data.items).toHaveLength(1);
    const all = await harness.request('GET', '/workflows?page_size=100', { token: alice.token });
    expect(all.body.data.total).toBe(4);
    expect(all.body.data.items.every((w: { owner_id: string }) => w.owner_id === alice.id)).toBe(true);
    const published = await harness.request('GET', '/workflows?status=published', { token: alice.token });
    expect(published.body.data.total).toBe(0);
    const pct = await harness.request('GET', '/workflows?search=%25', { token: alice.token });
    expect(pct.body.data.total).toBe(0);
  });

  it('refuses out-of-range paging and bad filters with 422 / 1001', async () => {
    for (const query of ['page_size=0', 'page_size=101', 'page=0', 'status=gone', 'team_id=nope']) {
      const res = await harness.request('GET', `/workflows?${query}`, { token: alice.token });
      expect([query, res.status, res.body.code]).toEqual([query, 422, 1001]);
    }
  });
});

describe('update and versioning', () => {
  it('bumps version only when the definition differs', async () => {
    const { id } = await newWorkflow(alice);
    const same = await put(alice, id, { definition: chainDefinition() });
    expect(same.body.data.version).toBe(1);
    const meta = await put(alice, id, {
      name: 'n2',
      description: 'd2',
      icon: 'i',
      visibility: 'team',
      trigger_config: { cron: '* * * * *' },
      trigger_type: 'schedule',
    });
    expect(meta.body.data).toMatchObject({
      version: 1,
      name: 'n2',
      visibility: 'team',
      trigger_type: 'schedule',
    });
    const changed = await put(alice, id, { definition: chainDefinition(3) });
    expect(changed.body.data.version).toBe(2);
    // Same JSON, other key order: no change.
    const reordered = chainDefinition(3);
    const flipped = { edges: reordered.edges, nodes: reordered.nodes, schema_version: 2 };
    expect((await put(alice, id, { definition: flipped })).body.data.version).toBe(2);
    const cleared = await put(alice, id, { icon: null });
    expect(cleared.body.data.icon).toBeNull();
  });

  it('concurrent PUTs with distinct definitions never lose an increment (burst of 20)', async () => {
    const { id } = await newWorkflow(alice);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => put(alice, id, { definition: chainDefinition(2, 2, `w${i}`) })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    const versions = results.map((r) => r.body.data.version as number).sort((a, b) => a - b);
    expect(versions).toEqual(Array.from({ length: 20 }, (_, i) => i + 2));
    expect((await get(alice, id)).body.data.version).toBe(21);
  });
});

describe('bad input', () => {
  it('names the malformed definition field with 422 / 1001', async () => {
    const cases: [unknown, string][] = [
      [[], 'definition'],
      [{ nodes: [], edges: [] }, 'definition.schema_version'],
      [{ schema_version: 1.5, nodes: [], edges: [] }, 'definition.schema_version'],
      [{ schema_version: 2, nodes: {}, edges: [] }, 'definition.nodes'],
      [{ schema_version: 2, nodes: [{ id: 'a', type: 't' }], edges: [] }, 'definition.nodes.0.data'],
      [{ schema_version: 2, nodes: [{ id: '', type: 't', data: {} }], edges: [] }, 'definition.nodes.0.id'],
      [
        { schema_version: 2, nodes: [{ id: 'a', type: 't', data: {}, position: { x: 'l' } }], edges: [] },
        'definition.nodes.0.position',
      ],
      [
        {
          schema_version: 2,
          nodes: [
            { id: 'a', type: 't', data: {} },
            { id: 'a', type: 't', data: {} },
          ],
          edges: [],
        },
        'definition.nodes.1.id',
      ],
      [
        {
          schema_version: 2,
          nodes: [{ id: 'a', type: 't', data: {} }],
          edges: [{ id: 'e', source: 'a', target: 'b' }],
        },
        'definition.edges.0.target',
      ],
      [{ schema_version: 2, nodes: [], edges: [], metadata: 3 }, 'definition.metadata'],
    ];
    const { id } = await newWorkflow(alice);
    for (const [definition, field] of cases) {
      for (const res of [
        await create(alice, { name: 'bad', definition }),
        await put(alice, id, { definition }),
      ]) {
        expect([field, res.status, res.body.code]).toEqual([field, 422, 1001]);
        expect(Object.keys(res.body.data.errors)).toContain(field);
      }
    }
    expect((await get(alice, id)).body.data.version).toBe(1);
  });

  it('refuses a definition over the documented size limit (422 below the body limit, 413 above it)', async () => {
    const big = (bytes: number) => ({
      ...chainDefinition(1),
      metadata: { blob: 'x'.repeat(bytes) },
    });
    const overDefinitionLimit = await create(alice, {
      name: 'big',
      definition: big(harness.config.MAX_DEFINITION_BYTES),
    });
    expect([overDefinitionLimit.status, overDefinitionLimit.body.code]).toEqual([422, 1001]);
    expect(Object.keys(overDefinitionLimit.body.data.errors)).toEqual(['definition']);
    const overBodyLimit = await create(alice, { name: 'big', definition: big(2 * 1024 * 1024) });
    expect(overBodyLimit.status).toBe(413);
    const justUnder = await create(alice, {
      name: 'ok',
      definition: big(harness.config.MAX_DEFINITION_BYTES - 500),
    });
    expect(justUnder.status).toBe(200);
  });

  it('answers bad bodies and ids with an envelope, never a 5xx', async () => {
    const { id } = await newWorkflow(alice);
    const cases: [string, string, unknown, number][] = [
      ['POST', '/workflows', { definition: chainDefinition() }, 422],
      ['POST', '/workflows', { name: 'x' }, 422],
      ['POST', '/workflows', { name: 'x', definition: chainDefinition(), visibility: 'world' }, 422],
      ['POST', '/workflows', { name: 'x', definition: chainDefinition(), extra: 1 }, 422],
      ['POST', '/workflows', { name: 'x', definition: chainDefinition(), team_id: MISSING }, 404],
      ['POST', '/workflows', { name: 'x', definition: chainDefinition(), trigger_type: 'Bad Type' }, 422],
      ['PUT', `/workflows/${id}`, { variables: 'text' }, 422],
      ['PUT', `/workflows/${id}`, { trigger_config: [] }, 422],
      ['PUT', `/workflows/${id}`, { name: '' }, 422],
      ['GET', '/workflows/not-a-uuid', undefined, 422],
      ['PUT', '/workflows/not-a-uuid', { name: 'x' }, 422],
    ];
    for (const [method, path, json, status] of cases) {
      const res = await harness.request(method, path, { token: alice.token, json });
      expect([method, path, res.status]).toEqual([method, path, status]);
      expect(typeof res.body.code).toBe('number');
    }
  });
});
