// GET, PUT and DELETE /workflows/{id} (gateway routes/workflows-routes.ts): reading, updating and
// versioning, deleting; who may do which (another user, a superuser, a team's roles); the security
// cases. Bad definitions (POST and PUT): post-workflows; the list: get-workflows.
import { beforeEach, describe, expect, it } from 'vitest';
import { chainDefinition, type WorkflowsHarness } from '../support/harness.js';
import { describeRouteSecurity } from '../support/route-security.js';
import { useFreshUsers, useWorkflowsHarness, type FreshUsers } from '../support/route-suite.js';
import { useTeamCast, type TeamCast } from '../support/team-cast.js';
import { versionKeys, versionsClient } from '../support/versions.js';
import { workflowCalls } from '../support/workflow-calls.js';

let harness: WorkflowsHarness;
let { alice, bob } = {} as FreshUsers;
let someWorkflow: string;
const MISSING = '00000000-0000-4000-8000-000000000000';

useWorkflowsHarness(async (started) => {
  harness = started;
  someWorkflow = (await workflowCalls(() => started).newWorkflow(await started.createUser())).id;
});
useFreshUsers(
  () => harness,
  (users) => ({ alice, bob } = users),
);

const flows = workflowCalls(() => harness);
const { put, get, newWorkflow } = flows;

describe('GET /workflows/{id}, PUT and DELETE: who', () => {
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
});

describe('PUT /workflows/{id}: update and versioning', () => {
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

describe('team workflows', () => {
  let { owner, admin, author, member, outsider, teamId } = {} as TeamCast;
  const { call, teamWorkflow } = useTeamCast(
    () => harness,
    (cast) => ({ owner, admin, author, member, outsider, teamId } = cast),
  );

  it('members read it; the owner and the team OWNER/ADMIN change it; others get 404', async () => {
    const id = await teamWorkflow();
    for (const user of [owner, admin, author, member]) {
      expect((await call(user, 'GET', `/workflows/${id}`)).status).toBe(200);
      expect((await call(user, 'GET', `/workflows/${id}/versions`)).status).toBe(200);
    }
    const listed = await call(member, 'GET', `/workflows?team_id=${teamId}`);
    expect(listed.body.data.items.map((w: { id: string }) => w.id)).toEqual([id]);
    expect((await call(outsider, 'GET', `/workflows/${id}`)).status).toBe(404);
    expect((await call(outsider, 'GET', `/workflows?team_id=${teamId}`)).body.data.total).toBe(0);

    let version = 1;
    for (const user of [author, owner, admin]) {
      const res = await call(user, 'PUT', `/workflows/${id}`, { definition: chainDefinition(2, 2, user.id) });
      version += 1;
      expect([res.status, res.body.data.version]).toEqual([200, version]);
    }
    for (const user of [member, outsider]) {
      for (const [method, path, json] of [
        ['PUT', `/workflows/${id}`, { name: 'x' }],
        ['POST', `/workflows/${id}/versions`, { description: 'x' }],
        ['POST', `/workflows/${id}/publish`, { presentation_mode: 'simple' }],
        ['DELETE', `/workflows/${id}`, undefined],
      ] as const) {
        const res = await call(user, method, path, json);
        expect([path, res.status, res.body.code]).toEqual([path, 404, 4000]);
      }
    }
    expect(
      (await call(admin, 'POST', `/workflows/${id}/publish`, { presentation_mode: 'simple' })).status,
    ).toBe(200);
    expect((await call(owner, 'DELETE', `/workflows/${id}`)).status).toBe(200);
  });

  it('a demoted admin loses change rights on the next request', async () => {
    const id = await teamWorkflow();
    expect((await call(admin, 'PUT', `/workflows/${id}`, { name: 'by admin' })).status).toBe(200);
    const demoted = await call(owner, 'PUT', `/teams/${teamId}/members/${admin.id}`, { role: 'MEMBER' });
    expect(demoted.status).toBe(200);
    expect((await call(admin, 'PUT', `/workflows/${id}`, { name: 'again' })).status).toBe(404);
    expect((await call(admin, 'GET', `/workflows/${id}`)).body.data.name).toBe('by admin');
  });
});

describe('DELETE /workflows/{id}', () => {
  const call = (method: string, path: string, json?: unknown, user = alice) =>
    harness.request(method, path, { token: user.token, json });
  // This block's own helpers (alice by default; a workflow by its name), as its tests were written.
  const newWorkflow = async (name: string) => (await flows.newWorkflow(alice, { name })).id;
  let a: ReturnType<typeof versionsClient>;
  beforeEach(() => {
    a = versionsClient(harness.request, alice);
  });

  it('removes the workflow and its snapshots, keeps a tombstone, then answers 404', async () => {
    const id = await newWorkflow('doomed');
    await call('POST', `/workflows/${id}/versions`, { description: 'a' });
    await call('PUT', `/workflows/${id}`, { definition: chainDefinition(3) });
    await call('POST', `/workflows/${id}/publish`, { presentation_mode: 'simple' });
    const other = await harness.createUser();
    expect((await call('DELETE', `/workflows/${id}`, undefined, other)).status).toBe(404);
    const deleted = await call('DELETE', `/workflows/${id}`);
    expect([deleted.status, deleted.body.data]).toEqual([200, { id }]);
    const pool = harness.workflows.dependencies.pool;
    const snapshots = await pool.query('SELECT 1 FROM workflow_snapshots WHERE workflow_id = $1', [id]);
    expect(snapshots.rowCount).toBe(0);
    const tombstone = await pool.query('SELECT name FROM deleted_workflows WHERE id = $1', [id]);
    expect(tombstone.rows).toEqual([{ name: 'doomed' }]);
    for (const [method, path] of [
      ['GET', `/workflows/${id}`],
      ['GET', `/workflows/${id}/versions`],
      ['DELETE', `/workflows/${id}`],
    ]) {
      const res = await call(method!, path!);
      expect([path, res.status, res.body.code]).toEqual([path, 404, 4000]);
    }
  });

  it('removes its whole version key space from Redis', async () => {
    const wf = await a.workflow();
    await a.create(wf.id);
    const redis = harness.workflows.dependencies.redis;
    expect(await redis.exists(...versionKeys(wf.id))).toBeGreaterThan(0);
    expect((await a.call('DELETE', `/workflows/${wf.id}`)).body.code).toBe(0);
    expect(await redis.exists(...versionKeys(wf.id))).toBe(0);
    expect((await a.history(wf.id)).status).toBe(404);
  });
});

describeRouteSecurity('GET, PUT and DELETE /workflows/{id}', () => ({
  harness,
  routes: [
    ['GET', `/workflows/${someWorkflow}`],
    ['PUT', `/workflows/${someWorkflow}`, { name: 'refused' }],
    ['DELETE', `/workflows/${someWorkflow}`],
  ],
}));
