import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeRun } from '../../src/domain/runs/engine/execute-run.js';
import { planRun } from '../../src/domain/runs/engine/plan.js';
import { definition, edge, node } from '../support/definitions.js';
import { startFakeOpenAi, type FakeOpenAi } from '@platform/testing';
import { MemoryJournal, runContext } from '../support/memory-journal.js';
import { startNodeStack, type NodeStack } from '../support/node-stack.js';

const API_KEY = 'sk-workflow-test';
const UPSTREAM = 'fake-chat';
const DELTAS = ['Hel', 'lo ', 'Oslo'];
const USAGE = { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 };

let stack: NodeStack;
let fake: FakeOpenAi;
let modelId: string;
let teamId: string;

async function ok(res: { body: { code: number; data: unknown } }, what: string) {
  if (res.body.code !== 0) throw new Error(`${what}: ${JSON.stringify(res.body)}`);
  return res.body.data as Record<string, unknown>;
}

beforeAll(async () => {
  stack = await startNodeStack({ withModels: true });
  fake = await startFakeOpenAi({ apiKey: API_KEY, model: UPSTREAM, deltas: DELTAS, usage: USAGE });
  await stack.putSettings({ model_endpoint_allowlist: [fake.origin] });
  const token = stack.admin.token;
  const model = await ok(
    await stack.request('POST', '/admin/models', {
      token,
      json: {
        name: 'wf-fake',
        provider: 'custom',
        model_id: UPSTREAM,
        model_type: 'chat',
        base_url: fake.baseUrl,
        api_key: API_KEY,
      },
    }),
    'model',
  );
  modelId = String(model.id);
  const team = await ok(
    await stack.request('POST', '/teams', { token, json: { name: 'wf-llm-team' } }),
    'team',
  );
  teamId = String(team.id);
  await ok(
    await stack.request('POST', `/admin/teams/${teamId}/models`, {
      token,
      json: { model_id: modelId, token_quota: 100 },
    }),
    'grant',
  );
}, 120_000);

afterAll(async () => {
  await fake?.close();
  await stack?.stop();
});

const llmPlan = () =>
  planRun(
    definition(
      [
        node('s', 'start', { inputs: [{ name: 'city', type: 'string', required: true }] }),
        node('ask', 'llm', {
          model_id: modelId,
          messages: [
            { role: 'system', content: 'Be brief.' },
            { role: 'user', content: 'Greet {{inputs.city}}' },
          ],
          temperature: 0.2,
          max_tokens: 50,
        }),
        node('e', 'end', { outputs: [{ name: 'answer', value: '{{ask.text}}' }] }),
      ],
      [edge('s', 'ask'), edge('ask', 'e')],
    ),
    stack.modules,
  );

const execute = (journal: MemoryJournal, runId: string) =>
  executeRun({
    plan: llmPlan(),
    run: runContext({ runId, teamId, inputs: { city: 'Oslo' } }),
    journal,
    modules: stack.modules,
    signal: new AbortController().signal,
  });

async function teamUsage(): Promise<{ tokens: number; requests: number }> {
  const data = await ok(
    await stack.request('GET', `/admin/teams/${teamId}/models`, { token: stack.admin.token }),
    'grants',
  );
  const grant = (data.items as { model_id: string; usage: { tokens: number; requests: number } }[]).find(
    (g) => g.model_id === modelId,
  );
  return { tokens: grant?.usage.tokens ?? -1, requests: grant?.usage.requests ?? -1 };
}

describe('llm node through the real models service', () => {
  it('streams each delta as a text chunk, in order, while the answer is still open; records usage', async () => {
    fake.lockstep(true);
    const journal = new MemoryJournal('run-l1');
    const text = journal.text.bind(journal);
    // The fake sends each next delta (and at last usage and [DONE]) only after the previous one
    // reached the journal: a node that waited for the whole answer before emitting never finishes.
    journal.text = async (nodeId, chunk) => {
      await text(nodeId, chunk);
      fake.advance();
    };
    const outcome = await execute(journal, 'run-l1').finally(() => fake.lockstep(false));
    expect(outcome).toEqual({ status: 'success', outputs: { answer: 'Hello Oslo' }, totalTokens: 15 });
    expect(journal.events.filter((e) => e.type === 'text_chunk')).toEqual(
      DELTAS.map((chunk) => ({ type: 'text_chunk', nodeId: 'ask', chunk })),
    );
    expect(journal.outcomes.get('ask')).toMatchObject({
      status: 'success',
      tokens: 15,
      model: modelId,
      outputs: { text: 'Hello Oslo', usage: USAGE },
    });
    const sent = fake.requests.at(-1)?.body;
    expect(sent).toMatchObject({
      model: UPSTREAM,
      stream: true,
      stream_options: { include_usage: true },
      temperature: 0.2,
      max_tokens: 50,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Greet Oslo' },
      ],
    });
    expect(await teamUsage()).toEqual({ tokens: 15, requests: 1 });
  });

  it('a node retried after a crash calls the model again but its usage is recorded once', async () => {
    const before = fake.requests.length;
    const journal = new MemoryJournal('run-l1', [
      {
        nodeId: 's',
        nodeType: 'start',
        position: 0,
        status: 'success',
        outputs: { city: 'Oslo' },
        branch: null,
        tokens: 0,
      },
      {
        nodeId: 'ask',
        nodeType: 'llm',
        position: 1,
        status: 'running',
        outputs: null,
        branch: null,
        tokens: 0,
      },
    ]);
    const outcome = await execute(journal, 'run-l1');
    expect(outcome).toMatchObject({ status: 'success', outputs: { answer: 'Hello Oslo' } });
    expect(fake.requests.length).toBe(before + 1);
    expect(await teamUsage()).toEqual({ tokens: 15, requests: 1 });
  });

  it('a used-up token quota fails the node and the run with 6103, without calling the model', async () => {
    await ok(
      await stack.request('PUT', `/admin/teams/${teamId}/models/${modelId}`, {
        token: stack.admin.token,
        json: { token_quota: 15 },
      }),
      'quota',
    );
    const before = fake.requests.length;
    const journal = new MemoryJournal('run-l2');
    const outcome = await execute(journal, 'run-l2');
    expect(outcome).toMatchObject({
      status: 'failed',
      error: { code: 6103, node_id: 'ask', data: { tokens_used: 15, token_quota: 15 } },
    });
    expect(journal.statuses()).toMatchObject({ s: 'success', ask: 'failed' });
    expect(fake.requests.length).toBe(before);
  });

  it('an upstream error answer fails the node; a stalled stream passes timeout_ms as `timeout`', async () => {
    await ok(
      await stack.request('PUT', `/admin/teams/${teamId}/models/${modelId}`, {
        token: stack.admin.token,
        json: { token_quota: null },
      }),
      'quota',
    );
    const wrongKey = await ok(
      await stack.request('POST', '/admin/models', {
        token: stack.admin.token,
        json: {
          name: 'wf-wrong-key',
          provider: 'custom',
          model_id: UPSTREAM,
          model_type: 'chat',
          base_url: fake.baseUrl,
          api_key: 'sk-wrong',
        },
      }),
      'model',
    );
    await ok(
      await stack.request('POST', `/admin/teams/${teamId}/models`, {
        token: stack.admin.token,
        json: { model_id: wrongKey.id },
      }),
      'grant',
    );
    const single = (data: Record<string, unknown>) =>
      planRun(
        definition(
          [node('s', 'start'), node('ask', 'llm', data), node('e', 'end')],
          [edge('s', 'ask'), edge('ask', 'e')],
        ),
        stack.modules,
      );
    const run = (plan: ReturnType<typeof single>) =>
      executeRun({
        plan,
        run: runContext({ runId: 'run-l4', teamId }),
        journal: new MemoryJournal('run-l4'),
        modules: stack.modules,
        signal: new AbortController().signal,
      });
    expect(await run(single({ model_id: wrongKey.id, prompt: 'hi' }))).toMatchObject({
      status: 'failed',
      error: { code: 1002, node_id: 'ask', data: { reason: 'model_upstream_error', status: 400 } },
    });
    fake.hold();
    try {
      expect(await run(single({ model_id: modelId, prompt: 'hi', timeout_ms: 300 }))).toMatchObject({
        status: 'failed',
        error: { node_id: 'ask', data: { reason: 'node_timeout' } },
      });
    } finally {
      fake.release();
    }
  });

  it('a team without a grant is 6104', async () => {
    const outcome = await executeRun({
      plan: llmPlan(),
      run: runContext({
        runId: 'run-l3',
        teamId: '00000000-0000-4000-8000-000000000001',
        inputs: { city: 'Oslo' },
      }),
      journal: new MemoryJournal('run-l3'),
      modules: stack.modules,
      signal: new AbortController().signal,
    });
    expect(outcome).toMatchObject({ status: 'failed', error: { code: 6104, node_id: 'ask' } });
  });
});
