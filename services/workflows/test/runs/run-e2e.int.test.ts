import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Topics } from '@platform/kafka';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { definition, edge, node } from '../support/definitions.js';
import {
  captureEvents,
  openSse,
  startFakeOpenAi,
  waitUntil,
  type EventCapture,
  type FakeOpenAi,
} from '@platform/testing';
import { startWorkflowsHarness, type TestUser, type WorkflowsHarness } from '../support/harness.js';

// The first behaviour through the gateway: a published start → template → condition →
// http_request → llm → end, run in production with an API key bound to it, against the real
// apikeys and models services, a local HTTP API and a local OpenAI-compatible fake; its answer,
// its run record, its SSE stream and its fact agree; debug runs the draft. Then every API-key state
// change applies to the run route on the very next request.
let harness: WorkflowsHarness;
let owner: TestUser;
let fake: FakeOpenAi;
let api: Server;
let apiOrigin: string;
let capture: EventCapture;
let workflowId: string;
let modelId: string;

async function ok(res: { body: { code: number; data: unknown } }, what: string) {
  if (res.body.code !== 0) throw new Error(`${what}: ${JSON.stringify(res.body)}`);
  return res.body.data as Record<string, unknown>;
}

const chain = (prompt: string) =>
  definition(
    [
      node('start', 'start', { inputs: [{ name: 'city', type: 'string', required: true }] }),
      node('query', 'template', { template: 'forecast for {{inputs.city}}' }),
      node('wants', 'condition', { conditions: [{ left: '{{inputs.city}}', operator: 'not_empty' }] }),
      node('fetch', 'http_request', {
        method: 'POST',
        url: `${apiOrigin}/forecast`,
        body: { q: '{{query.text}}' },
      }),
      node('ask', 'llm', { model_id: modelId, prompt }),
      node('end', 'end', {
        outputs: [
          { name: 'summary', value: '{{ask.text}}' },
          { name: 'temp', value: '{{fetch.body.temp}}' },
        ],
      }),
    ],
    [
      edge('start', 'query'),
      edge('query', 'wants'),
      edge('wants', 'fetch', 'true'),
      edge('wants', 'end', 'false'),
      edge('fetch', 'ask'),
      edge('ask', 'end'),
    ],
  );

beforeAll(async () => {
  harness = await startWorkflowsHarness(
    { RUN_WORKER_ENABLED: 'true' },
    { withApiKeys: true, withModels: true },
  );
  owner = await harness.createUser({ name: 'e2eowner' });
  const admin = await harness.createUser({ superuser: true, name: 'e2eadmin' });
  fake = await startFakeOpenAi({
    apiKey: 'sk-e2e',
    model: 'e2e-chat',
    deltas: ['Sunny', ' and', ' warm'],
    usage: { prompt_tokens: 20, completion_tokens: 4, total_tokens: 24 },
  });
  api = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"temp":28}'));
  });
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  apiOrigin = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
  await ok(
    await harness.request('PUT', '/admin/site-settings', {
      token: admin.token,
      json: { model_endpoint_allowlist: [fake.origin], workflow_http_allowlist: [apiOrigin] },
    }),
    'settings',
  );
  const model = await ok(
    await harness.request('POST', '/admin/models', {
      token: admin.token,
      json: {
        name: 'e2e',
        provider: 'custom',
        model_id: 'e2e-chat',
        model_type: 'chat',
        base_url: fake.baseUrl,
        api_key: 'sk-e2e',
      },
    }),
    'model',
  );
  modelId = String(model.id);
  const team = await ok(
    await harness.request('POST', '/teams', { token: owner.token, json: { name: 'e2e-team' } }),
    'team',
  );
  await ok(
    await harness.request('POST', `/admin/teams/${String(team.id)}/models`, {
      token: admin.token,
      json: { model_id: modelId },
    }),
    'grant',
  );
  const created = await ok(
    await harness.request('POST', '/workflows', {
      token: owner.token,
      json: {
        name: 'e2e',
        team_id: team.id,
        definition: chain('Summarize {{fetch.body}} for {{inputs.city}}'),
      },
    }),
    'workflow',
  );
  workflowId = String(created.id);
  await ok(
    await harness.request('POST', `/workflows/${workflowId}/publish`, {
      token: owner.token,
      json: { presentation_mode: 'simple' },
    }),
    'publish',
  );
  // The draft moves on after the publish: debug runs it, production keeps the snapshot.
  await ok(
    await harness.request('PUT', `/workflows/${workflowId}`, {
      token: owner.token,
      json: { definition: chain('DRAFT {{inputs.city}}') },
    }),
    'edit draft',
  );
  capture = await captureEvents(harness.workflows.dependencies.kafka, 'e2e', [Topics.WORKFLOW_RUNS]);
}, 180_000);

afterAll(async () => {
  await capture?.stop();
  api?.closeAllConnections();
  await new Promise((resolve) => api?.close(resolve));
  await fake?.close();
  await harness?.stop();
});

async function newKey(json: Record<string, unknown> = {}) {
  return ok(
    await harness.request('POST', '/api-keys', {
      token: owner.token,
      json: {
        name: `k-${Math.random().toString(36).slice(2, 8)}`,
        scopes: ['workflow:execute'],
        workflow_ids: [workflowId],
        ...json,
      },
    }),
    'key',
  ) as Promise<{ id: string; key: string }>;
}

const runWith = (key: string, json: Record<string, unknown>) =>
  harness.request('POST', `/workflows/${workflowId}/run`, {
    headers: { authorization: `Bearer ${key}` },
    json,
  });
const outcome = (res: { status: number; body: { code: number; data?: { error_key?: string } | null } }) => [
  res.status,
  res.body.code,
  res.body.data?.error_key,
];

describe('a workflow run end to end', () => {
  it('production with a bound API key: answer, record, stream and fact agree', async () => {
    const key = await newKey();
    const started = await runWith(key.key, { inputs: { city: 'Rome' }, wait: true });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect(started.body.data).toMatchObject({
      status: 'success',
      outputs: { summary: 'Sunny and warm', temp: 28 },
    });
    const runId = String(started.body.data.run_id);
    expect(fake.requests.at(-1)?.body.messages).toEqual([
      { role: 'user', content: 'Summarize {"temp":28} for Rome' },
    ]);

    const record = await harness.request('GET', `/workflows/${workflowId}/runs/${runId}`, {
      headers: { authorization: `Bearer ${key.key}` },
    });
    expect(record.body.data).toMatchObject({
      status: 'success',
      mode: 'production',
      version: 1,
      total_tokens: 24,
      triggered_by: { type: 'api_key', id: key.id },
      outputs: { summary: 'Sunny and warm', temp: 28 },
    });
    const nodes = record.body.data.node_executions as {
      node_id: string;
      status: string;
      tokens: number;
      model: string | null;
    }[];
    expect(nodes.map((n) => [n.node_id, n.status])).toEqual([
      ['start', 'success'],
      ['query', 'success'],
      ['wants', 'success'],
      ['fetch', 'success'],
      ['ask', 'success'],
      ['end', 'success'],
    ]);
    expect(nodes.find((n) => n.node_id === 'ask')).toMatchObject({ tokens: 24, model: modelId });

    const sse = await openSse(`${harness.baseUrl}/api/v1${started.body.data.stream_url}`, {
      authorization: `Bearer ${key.key}`,
    });
    await sse.ended;
    const text = sse.events
      .filter((e) => e.event === 'text_chunk')
      .map((e) => (JSON.parse(e.data) as { text: string }).text);
    expect(text.join('')).toBe('Sunny and warm');
    const finished = JSON.parse(sse.events.at(-1)!.data) as Record<string, unknown>;
    expect(finished).toMatchObject({
      status: 'success',
      outputs: record.body.data.outputs,
      total_tokens: 24,
    });

    const fact = await capture.waitFor((m) => (m.value as { id?: string }).id === runId, 'no fact');
    expect(fact.value).toMatchObject({
      workflow_id: workflowId,
      status: 'success',
      total_tokens: 24,
      mode: 'production',
      version: 1,
      trigger_type: 'api_key',
      trigger_id: key.id,
    });
    expect(
      (fact.value as { nodes: { node_id: string; tokens: number; model: string }[] }).nodes.find(
        (n) => n.node_id === 'ask',
      ),
    ).toMatchObject({
      tokens: 24,
      model: modelId,
    });
  });

  it('debug runs the draft', async () => {
    const key = await newKey();
    const started = await runWith(key.key, { inputs: { city: 'Oslo' }, mode: 'debug', wait: true });
    expect(started.body.data.status).toBe('success');
    expect(fake.requests.at(-1)?.body.messages).toEqual([{ role: 'user', content: 'DRAFT Oslo' }]);
    const record = await harness.request(
      'GET',
      `/workflows/${workflowId}/runs/${String(started.body.data.run_id)}`,
      {
        token: owner.token,
      },
    );
    expect(record.body.data).toMatchObject({ mode: 'debug', version: 2 });
  });
});

describe('API-key states on the run route apply to the very next request', () => {
  const run = (key: string) => runWith(key, { inputs: { city: 'x' } });

  it('inactive, then active again', async () => {
    const key = await newKey();
    expect((await run(key.key)).status).toBe(200);
    await harness.request('POST', `/api-keys/${key.id}/deactivate`, { token: owner.token });
    expect(outcome(await run(key.key))).toEqual([401, 2001, 'api_key_invalid']);
    await harness.request('POST', `/api-keys/${key.id}/activate`, { token: owner.token });
    expect((await run(key.key)).status).toBe(200);
  });

  it('deleted', async () => {
    const key = await newKey();
    expect((await run(key.key)).status).toBe(200);
    await harness.request('DELETE', `/api-keys/${key.id}`, { token: owner.token });
    expect(outcome(await run(key.key))).toEqual([401, 2001, 'api_key_invalid']);
  });

  it('expired', async () => {
    const key = await newKey({ expires_at: new Date(Date.now() + 2_500).toISOString() });
    expect((await run(key.key)).status).toBe(200);
    await waitUntil(
      async () => ((await run(key.key)).status === 401 ? true : undefined),
      10_000,
      'never expired',
      250,
    );
    expect(outcome(await run(key.key))).toEqual([401, 2002, 'api_key_expired']);
  });

  it('scope removed, binding changed', async () => {
    const key = await newKey();
    expect((await run(key.key)).status).toBe(200);
    await harness.request('PUT', `/api-keys/${key.id}`, { token: owner.token, json: { scopes: ['chat'] } });
    expect(outcome(await run(key.key))).toEqual([403, 3000, 'api_key_scope_missing']);
    await harness.request('PUT', `/api-keys/${key.id}`, {
      token: owner.token,
      json: { scopes: ['workflow:execute'], workflow_ids: ['00000000-0000-4000-8000-000000000001'] },
    });
    expect(outcome(await run(key.key))).toEqual([403, 3000, 'api_key_no_workflow_access']);
    await harness.request('PUT', `/api-keys/${key.id}`, {
      token: owner.token,
      json: { workflow_ids: [workflowId] },
    });
    expect((await run(key.key)).status).toBe(200);
  });
});
