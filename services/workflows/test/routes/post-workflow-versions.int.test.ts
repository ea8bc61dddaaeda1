// POST /workflow-versions (gateway routes/workflow-versions-routes.ts): creating a draft version,
// who may, bad input, and the security cases. Another user (404 on every version route, this one
// too): get-workflow-versions-history-version-diff-stats, which holds the reading routes; the ones
// that change state: post-workflow-versions-publish-archive-rollback-fork; bursts and budgets:
// ../workflow-versions-concurrency, ../workflow-versions-limits.
import { describe, expect, it } from 'vitest';
import { describeRouteSecurity } from '../support/route-security.js';
import { fieldRefusal, useVersionRoutes, type VersionRoutes } from '../support/version-routes.js';
import { versionBody, versionsClient } from '../support/versions.js';

let { harness, user, client, wf, alice, a } = {} as VersionRoutes;
useVersionRoutes((state) => ({ harness, user, client, wf, alice, a } = state));

const expect422 = fieldRefusal(() => ({ harness, user }));
const workflowOf = async (id: string) => (await a.call('GET', `/workflows/${id}`)).body.data;
const body = (patch: Record<string, unknown>) => ({ ...versionBody(wf), ...patch });
const node = (id: string, extra: Record<string, unknown> = {}) => ({ id, type: 'llm', data: {}, ...extra });

describe('POST /workflow-versions', () => {
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

describe('POST /workflow-versions bad input', () => {
  it.each([
    [() => ({}), 'workflow_id'],
    [() => body({ workflow_id: 'nope' }), 'workflow_id'],
    [() => body({ nodes: undefined }), 'nodes'],
    [() => body({ nodes: {} }), 'nodes'],
    [() => body({ edges: 'x' }), 'edges'],
    [() => body({ nodes: [{ type: 'llm', data: {} }] }), 'nodes.0.id'],
    [() => body({ nodes: [node('a', { data: 'x' })] }), 'nodes.0.data'],
    [() => body({ nodes: [node('a', { position: { x: 'left' } })] }), 'nodes.0.position'],
    [() => body({ nodes: [node('a'), node('a')], edges: [] }), 'nodes.1.id'],
    [
      () => body({ nodes: [node('a')], edges: [{ id: 'e', source: 'a', target: 'ghost' }] }),
      'edges.0.target',
    ],
    [
      () => body({ nodes: [node('a')], edges: [{ id: 'e', source: 'a', target: 'a', sourceHandle: 1 }] }),
      'edges.0.sourceHandle',
    ],
    [() => body({ config: [] }), 'config'],
    [() => body({ config: { nodes: [] } }), 'config.nodes'],
    [() => body({ config: { schema_version: 'two' } }), 'config.schema_version'],
    [() => body({ config: { metadata: 5 } }), 'config.metadata'],
    [() => body({ description: 'd'.repeat(2001) }), 'description'],
    [() => body({ description: 'nul\u0000' }), 'description'],
    [() => body({ status: 'published' }), '_'],
  ])('%# → 422 / 1001', async (make, field) => {
    await expect422('POST', '/workflow-versions', make(), field);
  });

  it('refuses content over the definition size limit (422 naming nodes) and bodies over the gateway limit (413)', async () => {
    const big = 'x'.repeat(harness.config.MAX_DEFINITION_BYTES);
    await expect422(
      'POST',
      '/workflow-versions',
      body({ nodes: [node('a', { data: { big } })], edges: [] }),
      'nodes',
    );
    const huge = await harness.request('POST', '/workflow-versions', {
      token: user.token,
      json: body({ nodes: [node('a', { data: { big: big + big + big } })], edges: [] }),
    });
    expect([huge.status, huge.body.code]).toEqual([413, 1002]);
  });

  it('refuses malformed JSON, arrays and other content types', async () => {
    const malformed = await harness.request('POST', '/workflow-versions', {
      token: user.token,
      raw: { body: '{"workflow_id":', contentType: 'application/json' },
    });
    expect([malformed.status, malformed.body.code]).toEqual([400, 1002]);
    const array = await harness.request('POST', '/workflow-versions', {
      token: user.token,
      json: [body({})],
    });
    expect([array.status, array.body.code]).toEqual([422, 1001]);
    const form = await harness.request('POST', '/workflow-versions', {
      token: user.token,
      raw: { body: 'workflow_id=x', contentType: 'application/x-www-form-urlencoded' },
    });
    expect([form.status, form.body.code]).toEqual([415, 1002]);
  });

  it('nothing of the above changed the store', async () => {
    expect((await client.stats(wf)).body.data).toMatchObject({ total: 1, draft: 1 });
  });
});

describeRouteSecurity('POST /workflow-versions', () => ({
  harness,
  routes: [['POST', '/workflow-versions', versionBody(wf)]],
}));
