import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeRun } from '../../src/domain/runs/engine/execute-run.js';
import { planRun } from '../../src/domain/runs/engine/plan.js';
import { definition, edge, node } from '../support/definitions.js';
import { startFakeOpenAi, type FakeOpenAi } from '@platform/testing';
import { MemoryJournal, runContext } from '../support/memory-journal.js';
import { startNodeStack, type NodeStack } from '../support/node-stack.js';

// The reference workflow, start → template → condition → http_request → llm → end, walked
// by the engine over the real node set (identity's settings, the real models service, local fakes).
let stack: NodeStack;
let fake: FakeOpenAi;
let api: Server;
let apiOrigin: string;
const apiRequests: { url: string; headers: IncomingMessage['headers']; body: string }[] = [];
let modelId: string;
let teamId: string;

async function ok(res: { body: { code: number; data: unknown } }, what: string) {
  if (res.body.code !== 0) throw new Error(`${what}: ${JSON.stringify(res.body)}`);
  return res.body.data as Record<string, unknown>;
}

beforeAll(async () => {
  stack = await startNodeStack({ withModels: true });
  fake = await startFakeOpenAi({
    apiKey: 'sk-chain',
    model: 'chain-chat',
    deltas: ['Sunny', ' and warm'],
    usage: { prompt_tokens: 20, completion_tokens: 4, total_tokens: 24 },
  });
  api = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      apiRequests.push({ url: req.url ?? '', headers: req.headers, body });
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ temp: 28, sky: 'clear' }));
    });
  });
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  apiOrigin = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
  await stack.putSettings({ model_endpoint_allowlist: [fake.origin], workflow_http_allowlist: [apiOrigin] });
  const token = stack.admin.token;
  const model = await ok(
    await stack.request('POST', '/admin/models', {
      token,
      json: {
        name: 'chain',
        provider: 'custom',
        model_id: 'chain-chat',
        model_type: 'chat',
        base_url: fake.baseUrl,
        api_key: 'sk-chain',
      },
    }),
    'model',
  );
  modelId = String(model.id);
  teamId = String(
    (await ok(await stack.request('POST', '/teams', { token, json: { name: 'chain-team' } }), 'team')).id,
  );
  await ok(
    await stack.request('POST', `/admin/teams/${teamId}/models`, { token, json: { model_id: modelId } }),
    'grant',
  );
}, 120_000);

afterAll(async () => {
  api?.closeAllConnections();
  await new Promise((resolve) => api?.close(resolve));
  await fake?.close();
  await stack?.stop();
});

const chain = () =>
  definition(
    [
      node('start', 'start', {
        inputs: [
          { name: 'city', type: 'string', required: true },
          { name: 'detail', type: 'boolean', default: true },
        ],
      }),
      node('query', 'template', { template: 'forecast for {{inputs.city}}' }),
      node('wants', 'condition', {
        conditions: [{ left: '{{inputs.detail}}', operator: 'eq', right: 'true' }],
      }),
      node('fetch', 'http_request', {
        method: 'POST',
        url: `${apiOrigin}/forecast`,
        body: { q: '{{query.text}}' },
      }),
      node('ask', 'llm', { model_id: modelId, prompt: 'Summarize {{fetch.body}} for {{inputs.city}}' }),
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

describe('start → template → condition → http_request → llm → end', () => {
  it('runs every node in order, with the outputs, tokens and model of each', async () => {
    const modules = stack.modules;
    const plan = planRun(chain(), modules);
    expect(plan.nodes.map((n) => n.id)).toEqual(['start', 'query', 'wants', 'fetch', 'ask', 'end']);
    const journal = new MemoryJournal('run-c1');
    const outcome = await executeRun({
      plan,
      run: runContext({ runId: 'run-c1', teamId, inputs: { city: 'Rome' } }),
      journal,
      modules,
      signal: new AbortController().signal,
    });
    expect(outcome).toEqual({
      status: 'success',
      outputs: { summary: 'Sunny and warm', temp: 28 },
      totalTokens: 24,
    });
    expect(journal.started()).toEqual(['start', 'query', 'wants', 'fetch', 'ask', 'end']);
    expect(apiRequests.at(-1)).toMatchObject({ url: '/forecast', body: '{"q":"forecast for Rome"}' });
    expect(apiRequests.at(-1)?.headers['idempotency-key']).toBe('run-c1:fetch');
    expect(fake.requests.at(-1)?.body.messages).toEqual([
      { role: 'user', content: 'Summarize {"temp":28,"sky":"clear"} for Rome' },
    ]);
    expect(journal.outcomes.get('ask')).toMatchObject({ tokens: 24, model: modelId });
    expect(journal.outcomes.get('wants')).toMatchObject({ branch: 'true' });
  });

  it('the false branch skips http_request and llm and still reaches end', async () => {
    const journal = new MemoryJournal('run-c2');
    const before = apiRequests.length;
    const outcome = await executeRun({
      plan: planRun(chain(), stack.modules),
      run: runContext({ runId: 'run-c2', teamId, inputs: { city: 'Rome', detail: false } }),
      journal,
      modules: stack.modules,
      signal: new AbortController().signal,
    });
    expect(outcome).toEqual({ status: 'success', outputs: { summary: null, temp: null }, totalTokens: 0 });
    expect(journal.statuses()).toEqual({
      start: 'success',
      query: 'success',
      wants: 'success',
      fetch: 'skipped',
      ask: 'skipped',
      end: 'success',
    });
    expect(apiRequests.length).toBe(before);
  });
});
