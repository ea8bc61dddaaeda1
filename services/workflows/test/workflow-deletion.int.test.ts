// What deleting a workflow does beyond the route: the version key space, the names apikeys reads,
// the API keys bound to it. DELETE /workflows/{id} itself: routes/get-put-delete-workflows-id.
import { apikeysV1, workflowsV1 } from '@platform/contracts';
import { createOutgoingTrust, createServiceClient } from '@platform/grpc';
import { stackEnv } from '@platform/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  chainDefinition,
  startWorkflowsHarness,
  type TestUser,
  type WorkflowsHarness,
} from './support/harness.js';

let harness: WorkflowsHarness;
let alice: TestUser;
const MISSING = '00000000-0000-4000-8000-000000000000';

beforeAll(async () => {
  harness = await startWorkflowsHarness({}, { withApiKeys: true });
}, 90_000);
beforeEach(async () => {
  alice = await harness.createUser();
});
afterAll(async () => {
  await harness?.stop();
});

const call = (method: string, path: string, json?: unknown, user = alice) =>
  harness.request(method, path, { token: user.token, json });

async function newWorkflow(name: string) {
  const res = await call('POST', '/workflows', { name, definition: chainDefinition() });
  expect(res.status).toBe(200);
  return res.body.data.id as string;
}

/** Clients as the named service would call: its service token for the target. */
function clientAs(service: string) {
  const trust = createOutgoingTrust({ service, serviceSigningKey: stackEnv.serviceSigningKey(service) });
  return {
    apikeys: createServiceClient(
      apikeysV1.ApiKeysServiceService,
      'platform.apikeys.v1.ApiKeysService',
      harness.apikeys!.address,
      { defaultTimeoutMs: 5_000, credentials: trust.to('apikeys') },
    ),
    workflows: createServiceClient(
      workflowsV1.WorkflowsServiceService,
      'platform.workflows.v1.WorkflowsService',
      harness.workflowsAddress,
      { defaultTimeoutMs: 5_000, credentials: trust.to('workflows') },
    ),
  };
}

describe('delete and the ephemeral versions', () => {
  it('removes the workflow-versions key space of the workflow from Redis', async () => {
    const id = await newWorkflow('with versions');
    for (const description of ['one', 'two']) {
      const created = await call('POST', '/workflow-versions', {
        workflow_id: id,
        nodes: chainDefinition().nodes,
        edges: chainDefinition().edges,
        config: {},
        description,
      });
      expect(created.status).toBe(200);
    }
    const redis = harness.workflows.dependencies.redis;
    const keys = ['meta', 'body', 'all', 'draft'].map((name) => `workflows:versions:{${id}}:${name}`);
    expect(await redis.exists(...keys)).toBe(keys.length);
    expect((await call('DELETE', `/workflows/${id}`)).status).toBe(200);
    expect(await redis.exists(...keys)).toBe(0);
    const history = await call('GET', `/workflow-versions/${id}/history`);
    expect([history.status, history.body.code]).toEqual([404, 4000]);
  });
});

describe('GetWorkflowNames (internal, apikeys only)', () => {
  it('names live workflows, flags deleted ones and leaves unknown ids out', async () => {
    const live = await newWorkflow('live one');
    const gone = await newWorkflow('gone one');
    await call('DELETE', `/workflows/${gone}`);
    const { workflows } = clientAs('apikeys');
    const answer = await workflows.call('getWorkflowNames', { ids: [live, gone, MISSING, 'not-a-uuid'] });
    expect(answer.workflows.sort((a, b) => Number(a.deleted) - Number(b.deleted))).toEqual([
      { id: live, name: 'live one', deleted: false },
      { id: gone, name: '', deleted: true },
    ]);
    workflows.close();
  });

  it('refuses other callers', async () => {
    // workflows holds keys of its declared callers only: anyone else is unauthenticated (401 / 2001).
    const { workflows } = clientAs('notifications');
    await expect(workflows.call('getWorkflowNames', { ids: [MISSING] })).rejects.toMatchObject({
      code: 2001,
    });
    workflows.close();
  });
});

describe('API keys bound to workflows', () => {
  it('show workflow names, and a deleted workflow as name null, deleted true, still bound', async () => {
    const kept = await newWorkflow('kept flow');
    const gone = await newWorkflow('gone flow');
    const onlyGone = await newWorkflow('only gone');
    await call('DELETE', `/workflows/${gone}`);
    await call('DELETE', `/workflows/${onlyGone}`);
    const key = await call('POST', '/api-keys', {
      name: 'runner',
      scopes: ['workflow:execute'],
      workflow_ids: [kept, gone, MISSING],
    });
    expect(key.status).toBe(200);
    const narrow = await call('POST', '/api-keys', {
      name: 'narrow',
      scopes: ['workflow:execute'],
      workflow_ids: [onlyGone],
    });
    const detail = await call('GET', `/api-keys/${key.body.data.id}`);
    const byId = (list: { id: string }[]) => new Map(list.map((w) => [w.id, w]));
    const bound = byId(detail.body.data.workflows);
    expect(bound.get(kept)).toEqual({ id: kept, name: 'kept flow', deleted: false });
    expect(bound.get(gone)).toEqual({ id: gone, name: null, deleted: true });
    expect(bound.get(MISSING)).toEqual({ id: MISSING, name: null, deleted: false });
    const list = await call('GET', '/api-keys?page_size=100');
    const listed = list.body.data.items.find((k: { id: string }) => k.id === narrow.body.data.id);
    expect(listed.workflows).toEqual([{ id: onlyGone, name: null, deleted: true }]);

    // The binding to a deleted workflow never widens the key: it runs none of the others.
    const { apikeys } = clientAs('gateway');
    const verify = (secret: string, workflowId: string) =>
      apikeys.call('verifyKey', {
        key: secret,
        scope: apikeysV1.ApiKeyScope.API_KEY_SCOPE_WORKFLOW_EXECUTE,
        agent_id: '',
        workflow_id: workflowId,
      });
    await expect(verify(key.body.data.key, kept)).resolves.toMatchObject({ user_id: alice.id });
    const other = await newWorkflow('other');
    await expect(verify(narrow.body.data.key, other)).rejects.toMatchObject({ code: 3000 });
    await expect(verify(narrow.body.data.key, onlyGone)).resolves.toMatchObject({ user_id: alice.id });
    apikeys.close();
  });
});
