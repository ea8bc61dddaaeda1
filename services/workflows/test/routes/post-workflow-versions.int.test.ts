import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkflowsHarness, type TestUser, type WorkflowsHarness } from '../support/harness.js';
import { versionBody, versionsClient } from '../support/versions.js';

let harness: WorkflowsHarness;
let user: TestUser;
let wf: string;
let version: string;
let client: ReturnType<typeof versionsClient>;

beforeAll(async () => {
  harness = await startWorkflowsHarness();
  user = await harness.createUser();
  client = versionsClient(harness.request, user);
  wf = (await client.workflow()).id;
  version = (await client.create(wf)).id;
}, 60_000);
afterAll(async () => {
  await harness?.stop();
});

const UUID = '11111111-1111-4111-8111-111111111111';

async function expect422(method: string, path: string, json: unknown, field: string) {
  const res = await harness.request(method, path, { token: user.token, json });
  const label = `${method} ${path} ${JSON.stringify(json)?.slice(0, 120)}`;
  expect([label, res.status, res.body.code]).toEqual([label, 422, 1001]);
  expect([label, Object.keys(res.body.data.errors)]).toEqual([label, expect.arrayContaining([field])]);
}

const body = (patch: Record<string, unknown>) => ({ ...versionBody(wf), ...patch });
const node = (id: string, extra: Record<string, unknown> = {}) => ({ id, type: 'llm', data: {}, ...extra });

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
});

describe('path, query and body parameters of the other routes', () => {
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

  it('a request without a token is 401, never reaching the store', async () => {
    const res = await harness.request('GET', `/workflow-versions/${wf}/history`);
    expect(res.status).toBe(401);
  });

  it('nothing of the above changed the store', async () => {
    expect((await client.stats(wf)).body.data).toMatchObject({ total: 1, draft: 1 });
  });
});
