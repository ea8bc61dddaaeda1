// POST /workflow-versions/{workflow_id}/version/{version_id}/publish and …/archive, POST
// /workflow-versions/{workflow_id}/rollback and …/fork (gateway routes/workflow-versions-routes.ts):
// the changes of state, their bad bodies, and the security cases. Who may (404 on every version
// route, a team's roles): get-workflow-versions-history-version-diff-stats ("access").
import { describe, expect, it } from 'vitest';
import { chainDefinition } from '../support/harness.js';
import { describeRouteSecurity } from '../support/route-security.js';
import { fieldRefusal, useVersionRoutes, type VersionRoutes } from '../support/version-routes.js';

let { harness, user, client, wf, version, alice, a } = {} as VersionRoutes;
useVersionRoutes((state) => ({ harness, user, client, wf, version, alice, a } = state));

const UUID = '11111111-1111-4111-8111-111111111111';
const expect422 = fieldRefusal(() => ({ harness, user }));
const workflowOf = async (id: string) => (await a.call('GET', `/workflows/${id}`)).body.data;

describe('POST …/version/{version_id}/publish and …/archive', () => {
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
describe('POST /workflow-versions/{workflow_id}/rollback and …/fork', () => {
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

describe('rollback and fork bodies', () => {
  it.each([
    [{}, 'version_id'],
    [{ version_id: 'nope' }, 'version_id'],
    [{ version_id: UUID, create_backup: 'yes' }, 'create_backup'],
    [{ version_id: UUID, extra: 1 }, '_'],
  ])('rollback %j → 422 / 1001 on %s', async (json, field) => {
    await expect422('POST', `/workflow-versions/${wf}/rollback`, json, field);
  });

  it.each([
    [{ new_workflow_id: UUID }, 'version_id'],
    [{ version_id: UUID }, 'new_workflow_id'],
    [{ version_id: UUID, new_workflow_id: 'x' }, 'new_workflow_id'],
    [{ version_id: UUID, new_workflow_id: UUID, new_name: 5 }, 'new_name'],
    [{ version_id: UUID, new_workflow_id: UUID, new_name: 'n'.repeat(2001) }, 'new_name'],
  ])('fork %j → 422 / 1001 on %s', async (json, field) => {
    await expect422('POST', `/workflow-versions/${wf}/fork`, json, field);
  });

  it('nothing of the above changed the store', async () => {
    expect((await client.stats(wf)).body.data).toMatchObject({ total: 1, draft: 1 });
  });
});

describeRouteSecurity('the /workflow-versions routes that change state', () => ({
  harness,
  routes: [
    ['POST', `/workflow-versions/${wf}/version/${version}/publish`],
    ['POST', `/workflow-versions/${wf}/version/${version}/archive`],
    ['POST', `/workflow-versions/${wf}/rollback`, { version_id: version }],
    ['POST', `/workflow-versions/${wf}/fork`, { version_id: version, new_workflow_id: wf }],
  ],
}));
