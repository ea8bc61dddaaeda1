import { type Server, type ServerResponse } from 'node:http';
import { startServiceProcess, waitUntil, type ServiceProcess } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { definition, edge, node } from '../support/definitions.js';
import { startWorkflowsHarness, type TestUser, type WorkflowsHarness } from '../support/harness.js';
import { startAllowedSink, workflowsChildEnv } from '../support/child-processes.js';

// The run metrics as a worker process serves them on its /metrics port: a held run and a queued
// one move the in-flight and queue gauges; the ends move the duration histograms; a worker killed
// mid-run makes the other one take its lease over and resume the run.
let harness: WorkflowsHarness;
let owner: TestUser;
let sink: Server;
let sinkOrigin: string;
let holding = true;
const held: ServerResponse[] = [];
let workflowId: string;
let workerEnv: Record<string, string>;
const workers: ServiceProcess[] = [];

const LEASE_MS = 1_500;

beforeAll(async () => {
  harness = await startWorkflowsHarness();
  owner = await harness.createUser({ name: 'metricsowner' });
  const admin = await harness.createUser({ superuser: true, name: 'metricsadmin' });
  ({ server: sink, origin: sinkOrigin } = await startAllowedSink(harness, admin.token, (req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' });
    if (holding) held.push(res);
    else res.end('{"ok":true}');
  }));
  workerEnv = workflowsChildEnv(harness, {
    RUN_WORKER_ENABLED: 'true',
    RUN_WORKER_CONCURRENCY: '1',
    RUN_LEASE_MS: String(LEASE_MS),
    RUN_RECONCILE_INTERVAL_MS: '300',
    RUN_CLAIM_POLL_MS: '200',
  });
  workers.push(await startServiceProcess('workflows', { env: workerEnv }));
  const created = await harness.request('POST', '/workflows', {
    token: owner.token,
    json: {
      name: 'metrics',
      definition: definition(
        [
          node('start', 'start'),
          node('call', 'http_request', { method: 'POST', url: `${sinkOrigin}/hook` }),
          node('end', 'end', { outputs: [{ name: 'status', value: '{{call.status}}' }] }),
        ],
        [edge('start', 'call'), edge('call', 'end')],
      ),
    },
  });
  workflowId = String(created.body.data.id);
  await harness.request('POST', `/workflows/${workflowId}/publish`, {
    token: owner.token,
    json: { presentation_mode: 'simple' },
  });
}, 180_000);

afterAll(async () => {
  holding = false;
  for (const res of held.splice(0)) res.end('{}');
  await Promise.all(workers.map((w) => w.stop().catch(() => undefined)));
  sink?.closeAllConnections();
  await new Promise((resolve) => sink?.close(resolve));
  await harness?.stop();
});

/** The value of the series `name` whose labels include `labels` (0 when the worker has none yet). */
async function sample(
  worker: ServiceProcess,
  name: string,
  labels: Record<string, string> = {},
): Promise<number> {
  const text = await (await fetch(worker.metricsUrl)).text();
  for (const line of text.split('\n')) {
    const match = /^([a-z_]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) return Number(match[3]);
  }
  return 0;
}

async function startRun(): Promise<string> {
  const answer = await harness.request('POST', `/workflows/${workflowId}/run`, {
    token: owner.token,
    json: {},
  });
  expect(answer.body.code, JSON.stringify(answer.body)).toBe(0);
  return String(answer.body.data.run_id);
}

async function statusOf(id: string): Promise<string> {
  const { rows } = await harness.workflows.dependencies.pool.query<{ status: string }>(
    'SELECT status FROM workflow_runs WHERE id = $1',
    [id],
  );
  return rows[0]!.status;
}

describe('run metrics on a worker /metrics port', () => {
  it('in flight, queued and the oldest queued age; then queue wait, run and node durations', async () => {
    const [worker] = workers as [ServiceProcess];
    expect(await sample(worker, 'workflow_runs_in_flight')).toBe(0);
    const first = await startRun();
    await waitUntil(() => (held.length === 1 ? true : undefined), 20_000, 'the first run did not call out');
    const second = await startRun();
    // Concurrency 1: the second run waits queued while the first is held in its http node. The wait
    // is the point: the worker had time to (wrongly) claim it, and the oldest-queued age is > 0.2 s.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await statusOf(second)).toBe('queued');
    expect(await sample(worker, 'workflow_runs_in_flight')).toBe(1);
    // The queue gauges are read at most every 5 s (one query for any number of scrapers).
    await waitUntil(
      async () => ((await sample(worker, 'workflow_runs_queued')) === 1 ? true : undefined),
      8_000,
      'the queued run was not counted',
    );
    expect(await sample(worker, 'workflow_oldest_queued_run_age_seconds')).toBeGreaterThan(0.2);

    holding = false;
    for (const res of held.splice(0)) res.end('{"ok":true}');
    await waitUntil(
      async () =>
        (await statusOf(first)) === 'success' && (await statusOf(second)) === 'success' ? true : undefined,
      20_000,
      'the runs did not finish',
    );
    await waitUntil(
      async () => ((await sample(worker, 'workflow_runs_in_flight')) === 0 ? true : undefined),
      5_000,
      'in flight did not drop to 0',
    );
    expect(await sample(worker, 'workflow_run_queue_seconds_count')).toBe(2);
    // The second run waited for the first one's slot: its queue wait passed the held time.
    expect(await sample(worker, 'workflow_run_queue_seconds_bucket', { le: '0.1' })).toBeLessThan(2);
    expect(await sample(worker, 'workflow_run_duration_seconds_count', { status: 'success' })).toBe(2);
    expect(
      await sample(worker, 'workflow_node_duration_seconds_count', {
        node_type: 'http_request',
        outcome: 'success',
      }),
    ).toBe(2);
    expect(
      await sample(worker, 'workflow_node_duration_seconds_count', { node_type: 'end', outcome: 'success' }),
    ).toBe(2);
    expect(
      await sample(worker, 'outbound_http_request_duration_seconds_count', {
        purpose: 'http_request',
        outcome: 'ok',
      }),
    ).toBe(2);
  });

  it('a worker killed mid-run: the other takes its lease over and resumes the run', async () => {
    holding = true;
    const [victim] = workers as [ServiceProcess];
    const run = await startRun();
    await waitUntil(() => (held.length === 1 ? true : undefined), 20_000, 'the run did not call out');
    const rescuer = await startServiceProcess('workflows', { env: workerEnv });
    workers.push(rescuer);
    holding = false;
    await victim.kill('SIGKILL');
    held.splice(0);
    await waitUntil(
      async () => ((await statusOf(run)) === 'success' ? true : undefined),
      30_000,
      'not resumed',
    );
    expect(await sample(rescuer, 'workflow_run_lease_takeovers_total')).toBe(1);
    expect(await sample(rescuer, 'workflow_run_resumes_total')).toBe(1);
    expect(await sample(rescuer, 'workflow_run_duration_seconds_count', { status: 'success' })).toBe(1);
    // Its queue wait was measured by the first claim (the victim's), not again on the resume.
    expect(await sample(rescuer, 'workflow_run_queue_seconds_count')).toBe(0);
  });
});
