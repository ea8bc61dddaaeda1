import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitUntil } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_DEFINITION_NODES } from '../../src/domain/definition-rules.js';
import { definition, edge, linear, node } from '../support/definitions.js';
import { startWorkflowsHarness, type TestUser, type WorkflowsHarness } from '../support/harness.js';

// A run never outgrows its worker (issue 20), through the gateway with a worker of the in-process
// service: a binary body is stored (base64) after ONE request, a body Postgres refuses fails the
// node instead of looping, an amplifying template fails before it is built and the workflow's
// runs stay readable, a node that keeps losing its worker is resumed a bounded number of times.
let harness: WorkflowsHarness;
let owner: TestUser;
let api: Server;
let apiOrigin: string;
const hits = new Map<string, number>();
/** Called with the run id when /hang is requested (the test takes the worker's lease away). */
let onHang: (runId: string) => void = () => undefined;

const BINARY = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00, 0xff, 0xfe, 0x00, 0x01, 0x02]);

beforeAll(async () => {
  harness = await startWorkflowsHarness({
    RUN_WORKER_ENABLED: 'true',
    RUN_WAIT_LIMIT_MS: '15000',
    RUN_LEASE_MS: '900',
    RUN_RECONCILE_INTERVAL_MS: '200',
  });
  owner = await harness.createUser({ name: 'limitowner' });
  const admin = await harness.createUser({ superuser: true, name: 'limitadmin' });
  api = createServer((req, res) => {
    const path = req.url ?? '';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    req.resume();
    if (path === '/binary') return void res.writeHead(200, { 'content-type': 'image/png' }).end(BINARY);
    if (path === '/nul-json')
      return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"name":"a\\u0000b"}');
    if (path === '/hang') return void onHang(String(req.headers['idempotency-key']).split(':')[0] ?? '');
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  apiOrigin = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
  const saved = await harness.request('PUT', '/admin/site-settings', {
    token: admin.token,
    json: { workflow_http_allowlist: [apiOrigin] },
  });
  expect(saved.body.code, JSON.stringify(saved.body)).toBe(0);
}, 120_000);

afterAll(async () => {
  api?.closeAllConnections();
  await new Promise((resolve) => api?.close(resolve));
  await harness?.stop();
});

async function createWorkflow(def: Record<string, unknown>): Promise<string> {
  const created = await harness.request('POST', '/workflows', {
    token: owner.token,
    json: { name: 'limits', definition: def },
  });
  expect(created.body.code, JSON.stringify(created.body)).toBe(0);
  return String(created.body.data.id);
}

const runDebug = (id: string, inputs: Record<string, unknown>, wait = true) =>
  harness.request('POST', `/workflows/${id}/run`, {
    token: owner.token,
    json: { inputs, mode: 'debug', wait },
  });

/** start → http_request GET <path> → end with the body and its encoding. */
const fetching = (path: string, extra: Record<string, unknown> = {}) =>
  definition(
    [
      node('start', 'start'),
      node('call', 'http_request', { method: 'GET', url: `${apiOrigin}${path}`, ...extra }),
      node('end', 'end', {
        outputs: [
          { name: 'body', value: '{{call.body}}' },
          { name: 'encoding', value: '{{call.body_encoding}}' },
        ],
      }),
    ],
    [edge('start', 'call'), edge('call', 'end')],
    { timeout_seconds: 60 },
  );

describe('run limits through the gateway', () => {
  it('a binary body (NUL bytes) is stored as base64 with a flag after ONE request', async () => {
    const id = await createWorkflow(fetching('/binary'));
    const started = await runDebug(id, {});
    expect(started.body.data, JSON.stringify(started.body)).toMatchObject({
      status: 'success',
      outputs: { body: BINARY.toString('base64'), encoding: 'base64' },
    });
    expect(hits.get('/binary')).toBe(1);
  });

  it('a body Postgres cannot store (a NUL in JSON text) fails the node output_not_storable, not retried', async () => {
    const id = await createWorkflow(fetching('/nul-json'));
    const started = await runDebug(id, {});
    expect(started.body.data, JSON.stringify(started.body)).toMatchObject({
      status: 'failed',
      error: { code: 1002, node_id: 'call', data: { reason: 'output_not_storable' } },
    });
    expect(hits.get('/nul-json')).toBe(1);
    const record = await harness.request('GET', `/workflows/${id}/runs/${started.body.data.run_id}`, {
      token: owner.token,
    });
    expect(record.body.data.node_executions).toMatchObject([
      { node_id: 'start', status: 'success' },
      { node_id: 'call', status: 'failed', error: { data: { reason: 'output_not_storable' } } },
    ]);
  });

  it('1 KiB × 200 × 200 fails output_too_large; the run and the list stay readable', async () => {
    const id = await createWorkflow(
      definition(
        [
          node('start', 'start', { inputs: [{ name: 'x', type: 'string', required: true }] }),
          node('t1', 'template', { template: '{{inputs.x}}'.repeat(200) }),
          node('t2', 'template', { template: '{{t1.text}}'.repeat(200) }),
          node('end', 'end', { outputs: [{ name: 'out', value: '{{t2.text}}' }] }),
        ],
        [edge('start', 't1'), edge('t1', 't2'), edge('t2', 'end')],
      ),
    );
    const started = await runDebug(id, { x: 'x'.repeat(1024) });
    expect(started.body.data, JSON.stringify(started.body).slice(0, 500)).toMatchObject({
      status: 'failed',
      error: { code: 1002, node_id: 't2', data: { reason: 'output_too_large', scope: 'value' } },
    });
    const runId = String(started.body.data.run_id);
    const one = await harness.request('GET', `/workflows/${id}/runs/${runId}`, { token: owner.token });
    expect(one.status).toBe(200);
    expect(one.body.data).toMatchObject({ id: runId, status: 'failed', outputs_truncated: false });
    const list = await harness.request('GET', `/workflows/${id}/runs`, { token: owner.token });
    expect(list.status).toBe(200);
    expect(list.body.data.items).toHaveLength(1);
  });

  it('a run stored with outputs too large for one answer is still readable, flagged truncated', async () => {
    const id = await createWorkflow(linear());
    const small = await runDebug(id, { name: 'Ada' });
    const big = await runDebug(id, { name: 'Bob' });
    expect([small.body.data.status, big.body.data.status]).toEqual(['success', 'success']);
    // As a run written before the limits (or with larger ones) would have left it: 9 MiB.
    await harness.workflows.dependencies.pool.query(
      `UPDATE workflow_runs SET outputs = jsonb_build_object('greeting', repeat('x', 9 * 1024 * 1024)) WHERE id = $1`,
      [big.body.data.run_id],
    );
    const one = await harness.request('GET', `/workflows/${id}/runs/${big.body.data.run_id}`, {
      token: owner.token,
    });
    expect(one.status, JSON.stringify(one.body).slice(0, 300)).toBe(200);
    expect(one.body.data).toMatchObject({ outputs: null, outputs_truncated: true, inputs: { name: 'Bob' } });
    const list = await harness.request('GET', `/workflows/${id}/runs`, { token: owner.token });
    expect(list.status, JSON.stringify(list.body).slice(0, 300)).toBe(200);
    const byId = new Map(list.body.data.items.map((item: { id: string }) => [item.id, item]));
    expect(byId.get(big.body.data.run_id)).toMatchObject({ outputs: null, outputs_truncated: true });
    expect(byId.get(small.body.data.run_id)).toMatchObject({
      outputs: { greeting: 'Hello Ada' },
      outputs_truncated: false,
    });
  });

  it('a node in flight whose worker keeps stopping is resumed 3 times, then the run fails node_resume_limit', async () => {
    const pool = harness.workflows.dependencies.pool;
    // Each time the node's request arrives, its worker "dies": the lease is taken away and
    // expired, as when a worker is killed mid-request; the reconciler then hands the run over.
    onHang = (runId) =>
      void pool.query(
        `UPDATE workflow_runs SET lease_owner = 'killed-worker', lease_expires_at = now() - interval '1 second'
          WHERE id = $1 AND status = 'running'`,
        [runId],
      );
    try {
      const id = await createWorkflow(fetching('/hang', { timeout_ms: 60_000 }));
      const started = await runDebug(id, {}, false);
      const runId = String(started.body.data.run_id);
      const ended = await waitUntil(
        async () => {
          const res = await harness.request('GET', `/workflows/${id}/runs/${runId}`, { token: owner.token });
          return ['success', 'failed', 'timeout'].includes(res.body.data?.status) ? res.body.data : undefined;
        },
        30_000,
        'the run never ended',
        200,
      );
      expect(ended).toMatchObject({
        status: 'failed',
        error: { code: 1002, node_id: 'call', data: { reason: 'node_resume_limit', attempts: 4, limit: 3 } },
      });
      expect(hits.get('/hang')).toBe(4);
    } finally {
      onHang = () => undefined;
    }
  }, 45_000);

  it('a definition with more nodes than the cap is refused with 1001 on save and on run', async () => {
    const many = (count: number) =>
      definition(
        [
          node('start', 'start'),
          ...Array.from({ length: count - 2 }, (_, i) => node(`t${i}`, 'template', { template: 'x' })),
          node('end', 'end'),
        ],
        [edge('start', 'end')],
      );
    const refused = await harness.request('POST', '/workflows', {
      token: owner.token,
      json: { name: 'too many', definition: many(MAX_DEFINITION_NODES + 1) },
    });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: 1001 });
    expect(Object.keys(refused.body.data.errors)).toEqual(['definition.nodes']);
    // Stored around the rule (an older release): running it is refused the same way.
    const id = await createWorkflow(linear());
    await harness.workflows.dependencies.pool.query(
      'UPDATE workflows SET definition = $2::json WHERE id = $1',
      [id, JSON.stringify(many(MAX_DEFINITION_NODES + 1))],
    );
    const run = await runDebug(id, { name: 'x' }, false);
    expect(run.status).toBe(422);
    expect(run.body).toMatchObject({ code: 1001 });
    expect(Object.keys(run.body.data.errors)).toEqual(['definition.nodes']);
  });
});
