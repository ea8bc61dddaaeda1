import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  chainDefinition,
  startWorkflowsHarness,
  type TestUser,
  type WorkflowsHarness,
} from '../support/harness.js';
import { versionBody, versionsClient } from '../support/versions.js';

let harness: WorkflowsHarness;
let alice: TestUser;
let bob: TestUser;
let a: ReturnType<typeof versionsClient>;
let b: ReturnType<typeof versionsClient>;
const MISSING = '00000000-0000-4000-8000-000000000000';

beforeAll(async () => {
  harness = await startWorkflowsHarness();
}, 60_000);
beforeEach(async () => {
  alice = await harness.createUser();
  bob = await harness.createUser();
  a = versionsClient(harness.request, alice);
  b = versionsClient(harness.request, bob);
});
afterAll(async () => {
  await harness?.stop();
});

const workflowOf = async (id: string) => (await a.call('GET', `/workflows/${id}`)).body.data;

describe('create, read, history, stats', () => {
  it('creates a draft with every record field and leaves the workflow untouched', async () => {
    const wf = await a.workflow();
    const body = versionBody(wf.id, 3, 'v1', { schema_version: 2, metadata: { note: 'x' } });
    const res = await a.call('POST', '/workflow-versions', body);
    expect([res.status, res.body.code]).toEqual([200, 0]);
    const version = res.body.data;
    expect(version).toMatchObject({
      workflow_id: wf.id,
      nodes: body.nodes,
      edges: body.edges,
      config: body.config,
      description: 'v1 x3',
      status: 'draft',
      created_by: alice.id,
      node_count: 3,
      edge_count: 2,
      source_version_id: null,
    });
    expect(version.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(version.created_at).toBe(version.updated_at);
    expect((await a.read(wf.id, version.id)).body.data).toEqual(version);
    const after = await workflowOf(wf.id);
    expect([after.version, after.definition]).toEqual([1, wf.definition]);
    // Not in the persisted history.
    expect((await a.call('GET', `/workflows/${wf.id}/versions`)).body.data.total).toBe(0);
  });

  it('history is newest first with total, paged by limit/offset, filterable by status', async () => {
    const wf = await a.workflow();
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) ids.push((await a.create(wf.id, 2, `h${i}`)).id);
    await a.archive(wf.id, ids[1]!);
    await a.publish(wf.id, ids[3]!);
    const first = await a.history(wf.id, '?limit=2');
    expect(first.body.data).toMatchObject({ total: 5, limit: 2, offset: 0, page: 1, page_size: 2 });
    expect(first.body.data.items.map((v: { id: string }) => v.id)).toEqual([ids[4], ids[3]]);
    expect(first.body.data.items[0]).not.toHaveProperty('nodes');
    const rest = await a.history(wf.id, '?limit=2&offset=2');
    expect(rest.body.data.items.map((v: { id: string }) => v.id)).toEqual([ids[2], ids[1]]);
    const beyond = await a.history(wf.id, '?offset=50');
    expect(beyond.body.data).toMatchObject({ items: [], total: 5 });
    const defaults = await a.history(wf.id);
    expect(defaults.body.data).toMatchObject({ limit: 20, offset: 0 });
    const drafts = await a.history(wf.id, '?status=draft');
    expect(drafts.body.data.total).toBe(3);
    expect(drafts.body.data.items.map((v: { id: string }) => v.id)).toEqual([ids[4], ids[2], ids[0]]);
    expect((await a.history(wf.id, '?status=archived')).body.data.items[0].id).toBe(ids[1]);
    expect((await a.history(wf.id, '?status=published')).body.data.items[0].id).toBe(ids[3]);
    const stats = (await a.stats(wf.id)).body.data;
    expect(stats).toMatchObject({ total: 5, draft: 3, published: 1, archived: 1 });
    const all = (await a.history(wf.id)).body.data.items;
    expect(stats.first_version_at).toBe(all[4].created_at);
    expect(stats.latest_version_at).toBe(all[0].created_at);
  });

  it('stats of a workflow without versions: zeros and null timestamps', async () => {
    const wf = await a.workflow();
    expect((await a.stats(wf.id)).body.data).toEqual({
      total: 0,
      published: 0,
      draft: 0,
      archived: 0,
      first_version_at: null,
      latest_version_at: null,
    });
  });

  it('unknown versions, and versions of another workflow, are 404 / 4000', async () => {
    const wf = await a.workflow();
    const other = await a.workflow();
    const version = await a.create(other.id);
    for (const res of [
      await a.read(wf.id, MISSING),
      await a.read(wf.id, version.id),
      await a.publish(wf.id, version.id),
      await a.archive(wf.id, version.id),
      await a.diff(wf.id, version.id, version.id),
      await a.rollback(wf.id, { version_id: version.id }),
      await a.fork(wf.id, { version_id: version.id, new_workflow_id: other.id }),
    ]) {
      expect([res.status, res.body.code]).toEqual([404, 4000]);
    }
  });
});

describe('access', () => {
  it('a caller without access to the workflow gets 404 on every route, as for a missing workflow', async () => {
    const wf = await a.workflow();
    const version = await a.create(wf.id);
    const mine = await b.workflow();
    for (const id of [wf.id, MISSING]) {
      for (const res of [
        await b.call('POST', '/workflow-versions', versionBody(id)),
        await b.history(id),
        await b.read(id, version.id),
        await b.publish(id, version.id),
        await b.archive(id, version.id),
        await b.diff(id, version.id, version.id),
        await b.rollback(id, { version_id: version.id }),
        await b.fork(id, { version_id: version.id, new_workflow_id: mine.id }),
        await b.stats(id),
      ]) {
        expect([res.status, res.body.code]).toEqual([404, 4000]);
      }
    }
    // Fork INTO a workflow the caller may not change: 404 as well, nothing created there.
    const fork = await a.fork(wf.id, { version_id: version.id, new_workflow_id: mine.id });
    expect([fork.status, fork.body.code]).toEqual([404, 4000]);
    expect((await b.stats(mine.id)).body.data.total).toBe(0);
    expect((await a.read(wf.id, version.id)).body.data.status).toBe('draft');
  });

  it("a team's members read its versions and fork them out; only its OWNER/ADMIN change them", async () => {
    const team = await a.call('POST', '/teams', { name: `wfv-team-${Date.now()}-${Math.random()}` });
    const teamId = team.body.data.id as string;
    const carol = await harness.createUser();
    const c = versionsClient(harness.request, carol);
    for (const [user, role] of [
      [bob, 'MEMBER'],
      [carol, 'ADMIN'],
    ] as const) {
      const added = await a.call('POST', `/teams/${teamId}/members`, { user_id: user.id, role });
      expect(added.status).toBe(200);
    }
    const created = await a.call('POST', '/workflows', {
      name: 't',
      team_id: teamId,
      definition: chainDefinition(),
    });
    const wf = created.body.data.id as string;
    const version = await a.create(wf, 3);
    expect((await b.read(wf, version.id)).body.data.id).toBe(version.id);
    expect((await b.history(wf)).body.data.total).toBe(1);
    expect((await b.stats(wf)).body.data.total).toBe(1);
    expect((await b.diff(wf, version.id, version.id)).status).toBe(200);
    const own = await b.workflow();
    expect((await b.fork(wf, { version_id: version.id, new_workflow_id: own.id })).status).toBe(200);
    for (const res of [
      await b.call('POST', '/workflow-versions', versionBody(wf)),
      await b.publish(wf, version.id),
      await b.archive(wf, version.id),
      await b.rollback(wf, { version_id: version.id }),
    ]) {
      expect([res.status, res.body.code]).toEqual([404, 4000]);
    }
    expect((await c.publish(wf, version.id)).body.data.status).toBe('published');
    expect((await c.create(wf)).created_by).toBe(carol.id);
  });

  it('without the workflow permissions the gateway refuses with 403', async () => {
    const nobody = versionsClient(harness.request, await harness.createUser({ roles: [] }));
    const wf = await a.workflow();
    expect((await nobody.history(wf.id)).status).toBe(403);
    expect((await nobody.call('POST', '/workflow-versions', versionBody(wf.id))).status).toBe(403);
  });

  it('a superuser reaches every workflow', async () => {
    const root = versionsClient(harness.request, await harness.createUser({ superuser: true }));
    const wf = await a.workflow();
    const version = await root.create(wf.id);
    expect(version.created_by).not.toBe(alice.id);
    expect((await a.read(wf.id, version.id)).status).toBe(200);
  });
});

describe('publish and archive', () => {
  it('publish writes nodes, edges and config back through the update path; the previous one is archived', async () => {
    const wf = await a.workflow(chainDefinition(2, 3));
    const v1 = await a.create(wf.id, 3, 'one', { metadata: { tag: 'one' }, viewport: { zoom: 2 } });
    const v2 = await a.create(wf.id, 4, 'two');
    const p1 = await a.publish(wf.id, v1.id);
    expect([p1.status, p1.body.code]).toEqual([200, 0]);
    expect(p1.body.data).toMatchObject({
      id: v1.id,
      status: 'published',
      workflow_version: 2,
      backup_version_id: null,
    });
    const after1 = await workflowOf(wf.id);
    // schema_version kept from the workflow (the config carried none), config keys, nodes, edges.
    expect(after1.definition).toEqual({
      schema_version: 3,
      metadata: { tag: 'one' },
      viewport: { zoom: 2 },
      nodes: v1.nodes,
      edges: v1.edges,
    });
    expect(after1.version).toBe(2);
    const p2 = await a.publish(wf.id, v2.id);
    expect(p2.body.data.workflow_version).toBe(3);
    expect((await a.read(wf.id, v1.id)).body.data.status).toBe('archived');
    expect((await workflowOf(wf.id)).definition.nodes).toEqual(v2.nodes);
    // Publishing the published version again changes nothing: the definition is the same.
    const again = await a.publish(wf.id, v2.id);
    expect(again.body.data).toMatchObject({ status: 'published', workflow_version: 3 });
    // An archived version can be published again.
    expect((await a.publish(wf.id, v1.id)).body.data.workflow_version).toBe(4);
    expect((await a.stats(wf.id)).body.data).toMatchObject({ published: 1, archived: 1, draft: 0 });
  });

  it('archive leaves other versions and the workflow untouched; archiving twice is harmless', async () => {
    const wf = await a.workflow();
    const [v1, v2] = [await a.create(wf.id), await a.create(wf.id, 3)];
    await a.publish(wf.id, v2.id);
    const before = await workflowOf(wf.id);
    const res = await a.archive(wf.id, v2.id);
    expect(res.body.data).toMatchObject({ id: v2.id, status: 'archived' });
    expect(res.body.data.updated_at > res.body.data.created_at).toBe(true);
    expect((await a.archive(wf.id, v2.id)).body.data.status).toBe('archived');
    expect((await a.read(wf.id, v1.id)).body.data.status).toBe('draft');
    expect(await workflowOf(wf.id)).toEqual(before);
  });
});
