import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  chainDefinition,
  startWorkflowsHarness,
  type TestUser,
  type WorkflowsHarness,
} from '../support/harness.js';
import { versionBody, versionKeys, versionsClient } from '../support/versions.js';

let harness: WorkflowsHarness;
let alice: TestUser;
let a: ReturnType<typeof versionsClient>;

beforeAll(async () => {
  harness = await startWorkflowsHarness();
}, 60_000);
beforeEach(async () => {
  alice = await harness.createUser();
  a = versionsClient(harness.request, alice);
});
afterAll(async () => {
  await harness?.stop();
});

const workflowOf = async (id: string) => (await a.call('GET', `/workflows/${id}`)).body.data;

describe('rollback and fork', () => {
  it('rollback with a backup: the published version is archived, a copy of the target published', async () => {
    const wf = await a.workflow();
    const [v1, v2] = [await a.create(wf.id, 2, 'one'), await a.create(wf.id, 5, 'two')];
    await a.publish(wf.id, v1.id);
    await a.publish(wf.id, v2.id);
    const res = await a.rollback(wf.id, { version_id: v1.id });
    expect([res.status, res.body.code]).toEqual([200, 0]);
    const copy = res.body.data;
    expect(copy).toMatchObject({
      status: 'published',
      source_version_id: v1.id,
      nodes: v1.nodes,
      edges: v1.edges,
      backup_version_id: v2.id,
      workflow_version: 4,
    });
    expect(copy.id).not.toBe(v1.id);
    expect((await a.read(wf.id, v2.id)).body.data.status).toBe('archived');
    expect((await workflowOf(wf.id)).definition.nodes).toEqual(v1.nodes);
    expect((await a.history(wf.id)).body.data.items[0].id).toBe(copy.id);
    expect((await a.stats(wf.id)).body.data).toMatchObject({ total: 3, published: 1 });
  });

  it('rollback with nothing published keeps the workflow as it was as an archived backup', async () => {
    const wf = await a.workflow(chainDefinition(3, 2, 'original'));
    const v1 = await a.create(wf.id, 2, 'one');
    const res = await a.rollback(wf.id, { version_id: v1.id, create_backup: true });
    const backup = await a.read(wf.id, res.body.data.backup_version_id);
    expect(backup.body.data).toMatchObject({ status: 'archived', config: { schema_version: 2 } });
    expect(backup.body.data.nodes).toEqual(wf.definition.nodes);
  });

  it('rollback without a backup: the previously published version returns to draft, none archived', async () => {
    const wf = await a.workflow();
    const [v1, v2] = [await a.create(wf.id, 2, 'one'), await a.create(wf.id, 3, 'two')];
    await a.publish(wf.id, v2.id);
    const res = await a.rollback(wf.id, { version_id: v1.id, create_backup: false });
    expect(res.body.data).toMatchObject({ status: 'published', backup_version_id: null });
    expect((await a.read(wf.id, v2.id)).body.data.status).toBe('draft');
    expect((await a.stats(wf.id)).body.data).toMatchObject({ total: 3, published: 1, draft: 2, archived: 0 });
  });

  it('fork copies a version as a draft into a workflow the caller may change; neither workflow changes', async () => {
    const source = await a.workflow();
    const target = await a.workflow();
    const v1 = await a.create(source.id, 4, 'src', { metadata: { m: 1 } });
    const res = await a.fork(source.id, {
      version_id: v1.id,
      new_workflow_id: target.id,
      new_name: 'Forked',
    });
    expect([res.status, res.body.code]).toEqual([200, 0]);
    expect(res.body.data).toMatchObject({
      workflow_id: target.id,
      status: 'draft',
      description: 'Forked',
      source_version_id: v1.id,
      nodes: v1.nodes,
      config: { metadata: { m: 1 } },
      created_by: alice.id,
    });
    expect((await a.stats(target.id)).body.data.total).toBe(1);
    expect((await a.stats(source.id)).body.data.total).toBe(1);
    expect((await workflowOf(target.id)).version).toBe(1);
    const unnamed = await a.fork(source.id, { version_id: v1.id, new_workflow_id: source.id });
    expect(unnamed.body.data).toMatchObject({ workflow_id: source.id, description: v1.description });
  });
});

describe('diff', () => {
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

describe('deleting the workflow', () => {
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
