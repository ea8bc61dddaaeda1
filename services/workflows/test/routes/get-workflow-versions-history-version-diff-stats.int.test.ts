// GET /workflow-versions/{workflow_id}/history, …/version/{version_id}, …/diff and …/stats (gateway
// routes/workflow-versions-routes.ts): reading the ephemeral versions; who may read (and be told
// 404 on every version route), bad path and query parameters, and the security cases. Creating:
// post-workflow-versions; publish, archive, rollback, fork: post-workflow-versions-publish-archive-
// rollback-fork.
import { beforeEach, describe, expect, it } from 'vitest';
import { chainDefinition, type TestUser } from '../support/harness.js';
import { describeRouteSecurity } from '../support/route-security.js';
import { fieldRefusal, useVersionRoutes, type VersionRoutes } from '../support/version-routes.js';
import { versionBody, versionsClient } from '../support/versions.js';

let { harness, user, client, wf, version, a } = {} as VersionRoutes;
useVersionRoutes((state) => ({ harness, user, client, wf, version, a } = state));
let bob: TestUser;
let b: ReturnType<typeof versionsClient>;
beforeEach(async () => {
  bob = await harness.createUser();
  b = versionsClient(harness.request, bob);
});

const UUID = '11111111-1111-4111-8111-111111111111';
const MISSING = '00000000-0000-4000-8000-000000000000';
const expect422 = fieldRefusal(() => ({ harness, user }));

describe('GET …/history, …/version/{version_id} and …/stats', () => {
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

describe('GET /workflow-versions/{workflow_id}/diff', () => {
  it('names added, removed and modified nodes (with the changed fields), edges and config changes', async () => {
    const wf = await a.workflow();
    const from = await a.create(wf.id, 3, 'same', { schema_version: 2, metadata: { a: 1 }, old: true });
    const body = versionBody(wf.id, 4, 'same', { schema_version: 2, metadata: { a: 2 } });
    const nodes = body.nodes as { id: string; position: unknown; data: Record<string, unknown> }[];
    nodes[1]!.data = { label: 'renamed', extra: 1 };
    nodes[2]!.position = { x: 1, y: 1 };
    const toRes = await a.call('POST', '/workflow-versions', {
      ...body,
      nodes: nodes.filter((n) => n.id !== 'n0'),
      edges: body.edges.slice(1),
    });
    const to = toRes.body.data;
    const res = await a.diff(wf.id, from.id, to.id);
    expect([res.status, res.body.code]).toEqual([200, 0]);
    const diff = res.body.data;
    expect(diff.added_nodes.map((n: { id: string }) => n.id)).toEqual(['n3']);
    expect(diff.removed_nodes.map((n: { id: string }) => n.id)).toEqual(['n0']);
    expect(diff.modified_nodes).toEqual([
      {
        id: 'n1',
        changes: [
          { field: 'data.label', from: 'same 1', to: 'renamed' },
          { field: 'data.extra', to: 1 },
        ],
      },
      { id: 'n2', changes: [{ field: 'position', from: { x: 400, y: 0 }, to: { x: 1, y: 1 } }] },
    ]);
    expect(diff.added_edges.map((e: { id: string }) => e.id)).toEqual(['e2']);
    expect(diff.removed_edges.map((e: { id: string }) => e.id)).toEqual(['e0']);
    expect(diff.config_changes).toEqual([
      { field: 'metadata', from: { a: 1 }, to: { a: 2 } },
      { field: 'old', from: true },
    ]);
    expect(diff).toMatchObject({ from_version: from.id, to_version: to.id });
    const none = (await a.diff(wf.id, from.id, from.id)).body.data;
    expect([none.added_nodes, none.modified_nodes, none.removed_edges, none.config_changes]).toEqual([
      [],
      [],
      [],
      [],
    ]);
  });
});

describe('access to every /workflow-versions route', () => {
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
});

describe('path and query parameters', () => {
  it.each([
    ['GET', '/workflow-versions/nope/history', 'workflow_id'],
    ['GET', '/workflow-versions/nope/stats', 'workflow_id'],
    ['GET', `/workflow-versions/nope/version/${UUID}`, 'workflow_id'],
    ['GET', '/workflow-versions/WF/version/nope', 'version_id'],
    ['POST', '/workflow-versions/WF/version/nope/publish', 'version_id'],
    ['POST', '/workflow-versions/WF/version/nope/archive', 'version_id'],
    ['GET', '/workflow-versions/WF/history?limit=0', 'limit'],
    ['GET', '/workflow-versions/WF/history?limit=101', 'limit'],
    ['GET', '/workflow-versions/WF/history?limit=abc', 'limit'],
    ['GET', '/workflow-versions/WF/history?limit=1.5', 'limit'],
    ['GET', '/workflow-versions/WF/history?offset=-1', 'offset'],
    ['GET', '/workflow-versions/WF/history?offset=99999999999', 'offset'],
    ['GET', '/workflow-versions/WF/history?status=gone', 'status'],
    ['GET', '/workflow-versions/WF/diff', 'from_version'],
    ['GET', '/workflow-versions/WF/diff?from_version=VER', 'to_version'],
    ['GET', '/workflow-versions/WF/diff?from_version=x&to_version=VER', 'from_version'],
  ])('%s %s → 422 / 1001 on %s', async (method, path, field) => {
    await expect422(method, path.replace('WF', wf).replace('VER', version), undefined, field);
  });

  it('a request without a token is 401, never reaching the store', async () => {
    const res = await harness.request('GET', `/workflow-versions/${wf}/history`);
    expect(res.status).toBe(401);
  });

  it('nothing of the above changed the store', async () => {
    expect((await client.stats(wf)).body.data).toMatchObject({ total: 1, draft: 1 });
  });
});

describeRouteSecurity('the reading /workflow-versions routes', () => ({
  harness,
  routes: [
    ['GET', `/workflow-versions/${wf}/history`],
    ['GET', `/workflow-versions/${wf}/version/${version}`],
    ['GET', `/workflow-versions/${wf}/diff?from_version=${version}&to_version=${version}`],
    ['GET', `/workflow-versions/${wf}/stats`],
  ],
}));
