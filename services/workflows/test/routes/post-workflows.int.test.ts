// POST /workflows (gateway routes/workflows-routes.ts): the happy path, creating in a team, bad input
// (the definition rules are the same for PUT /workflows/{id}, checked here for both), and the
// security cases. GET /workflows: get-workflows; GET, PUT and DELETE /workflows/{id}:
// get-put-delete-workflows-id.
import { describe, expect, it } from 'vitest';
import { chainDefinition, type WorkflowsHarness } from '../support/harness.js';
import { describeRouteSecurity } from '../support/route-security.js';
import { useFreshUsers, useWorkflowsHarness, type FreshUsers } from '../support/route-suite.js';
import { useTeamCast, type TeamCast } from '../support/team-cast.js';
import { workflowCalls } from '../support/workflow-calls.js';

let harness: WorkflowsHarness;
let { alice } = {} as FreshUsers;
const MISSING = '00000000-0000-4000-8000-000000000000';

useWorkflowsHarness((started) => {
  harness = started;
});
useFreshUsers(
  () => harness,
  (users) => ({ alice } = users),
);

const { create, put, get, newWorkflow } = workflowCalls(() => harness);

describe('POST /workflows', () => {
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

  it('without workflow permissions the gateway refuses with 403', async () => {
    const nobody = await harness.createUser({ roles: [] });
    const res = await create(nobody, { name: 'x', definition: chainDefinition() });
    expect(res.status).toBe(403);
  });
});

describe('POST /workflows in a team', () => {
  let { member, outsider, teamId } = {} as TeamCast;
  const { call, teamWorkflow } = useTeamCast(
    () => harness,
    (cast) => ({ member, outsider, teamId } = cast),
  );

  it('a superuser may create in any existing team, and reads and changes team workflows', async () => {
    const root = await harness.createUser({ superuser: true });
    const definition = chainDefinition();
    const made = await call(root, 'POST', '/workflows', { name: 'root flow', team_id: teamId, definition });
    expect([made.status, made.body.data.team_id]).toEqual([200, teamId]);
    const missing = '00000000-0000-4000-8000-000000000000';
    const unknown = await call(root, 'POST', '/workflows', { name: 'x', team_id: missing, definition });
    expect([unknown.status, unknown.body.code]).toEqual([404, 4004]);
    const id = await teamWorkflow();
    expect((await call(root, 'PUT', `/workflows/${id}`, { name: 'by root' })).status).toBe(200);
    expect((await call(member, 'GET', `/workflows/${made.body.data.id}`)).status).toBe(200);
  });

  it('creating in a team the caller is not in is 404 / 4004', async () => {
    const res = await call(outsider, 'POST', '/workflows', {
      name: 'x',
      team_id: teamId,
      definition: chainDefinition(),
    });
    expect([res.status, res.body.code]).toEqual([404, 4004]);
  });
});

describe('POST /workflows bad input', () => {
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

describeRouteSecurity('POST /workflows', () => ({
  harness,
  routes: [['POST', '/workflows', { name: 'refused', definition: chainDefinition() }]],
}));
