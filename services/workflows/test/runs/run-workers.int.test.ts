import { type Server } from 'node:http';
import { startServiceProcess, waitUntil, type ServiceProcess } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { definition, edge, node } from '../support/definitions.js';
import { startWorkflowsHarness, type TestUser, type WorkflowsHarness } from '../support/harness.js';
import { startAllowedSink, waitForQueueWorkers, workflowsChildEnv } from '../support/child-processes.js';

// Runs executed by two worker replicas (the BUILT service as child processes, sharing the
// harness's database and queue): every run exactly once, and a worker killed with SIGKILL mid-run
// loses nothing — its runs resume on the other worker after the lease, the finished nodes never
// run again, the node in flight is retried with the same Idempotency-Key.
let harness: WorkflowsHarness;
let owner: TestUser;
let workers: ServiceProcess[] = [];
let sink: Server;
let sinkOrigin: string;
let delayMs = 50;
const received: string[] = [];
let workflowId: string;

const LEASE_MS = 2_000;

beforeAll(async () => {
  harness = await startWorkflowsHarness();
  owner = await harness.createUser({ name: 'workerowner' });
  const admin = await harness.createUser({ superuser: true, name: 'workeradmin' });
  ({ server: sink, origin: sinkOrigin } = await startAllowedSink(harness, admin.token, (req, res) => {
    received.push(String(req.headers['idempotency-key']));
    req.resume();
    setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'), delayMs);
  }));
  const env = workflowsChildEnv(harness, {
    RUN_WORKER_ENABLED: 'true',
    RUN_LEASE_MS: String(LEASE_MS),
    RUN_RECONCILE_INTERVAL_MS: '300',
  });
  workers = await Promise.all([
    startServiceProcess('workflows', { env }),
    startServiceProcess('workflows', { env }),
  ]);
  await waitForQueueWorkers(harness, 2);
  const created = await harness.request('POST', '/workflows', {
    token: owner.token,
    json: {
      name: 'workers',
      definition: definition(
        [
          node('start', 'start', { inputs: [{ name: 'n', type: 'number', required: true }] }),
          node('call', 'http_request', {
            method: 'POST',
            url: `${sinkOrigin}/hook`,
            body: { n: '{{inputs.n}}' },
          }),
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
  await Promise.all(workers.map((w) => w.stop().catch(() => undefined)));
  sink?.closeAllConnections();
  await new Promise((resolve) => sink?.close(resolve));
  await harness?.stop();
});

const pool = () => harness.workflows.dependencies.pool;

async function startRuns(count: number): Promise<string[]> {
  const answers = await Promise.all(
    Array.from({ length: count }, (_, n) =>
      harness.request('POST', `/workflows/${workflowId}/run`, {
        token: owner.token,
        json: { inputs: { n } },
      }),
    ),
  );
  for (const answer of answers) expect(answer.body.code, JSON.stringify(answer.body)).toBe(0);
  return answers.map((answer) => String(answer.body.data.run_id));
}

async function allFinished(ids: string[], timeoutMs: number) {
  return waitUntil(
    async () => {
      const { rows } = await pool().query<{ id: string; status: string }>(
        'SELECT id, status FROM workflow_runs WHERE id = ANY($1::uuid[])',
        [ids],
      );
      return rows.every((r) => ['success', 'failed', 'timeout'].includes(r.status)) ? rows : undefined;
    },
    timeoutMs,
    'runs did not finish',
    100,
  );
}

async function eventCounts(ids: string[]) {
  const { rows } = await pool().query<{ type: string; node: string | null; n: string }>(
    `SELECT type, data->>'node_id' AS node, count(*) AS n FROM workflow_run_events
      WHERE run_id = ANY($1::uuid[]) GROUP BY 1, 2`,
    [ids],
  );
  return new Map(rows.map((r) => [`${r.type}:${r.node ?? ''}`, Number(r.n)]));
}

describe('workflow workers', () => {
  it('50 concurrent runs over 2 workers: each runs exactly once', async () => {
    received.length = 0;
    delayMs = 50;
    const ids = await startRuns(50);
    const rows = await allFinished(ids, 60_000);
    expect(rows.map((r) => r.status)).toEqual(Array(50).fill('success'));
    const counts = await eventCounts(ids);
    expect(counts.get('run_started:')).toBe(50);
    expect(counts.get('node_started:call')).toBe(50);
    expect(counts.get('node_finished:call')).toBe(50);
    expect(counts.get('run_finished:')).toBe(50);
    expect(received).toHaveLength(50);
    expect(new Set(received).size).toBe(50);
    const { rows: byWorker } = await pool().query<{ worker: string }>(
      `SELECT DISTINCT data->>'worker' AS worker FROM workflow_run_events WHERE run_id = ANY($1::uuid[]) AND type = 'run_started'`,
      [ids],
    );
    expect(byWorker.length, JSON.stringify(byWorker)).toBe(2);
  });

  it('a worker killed mid-run: every run finishes, no finished node runs twice, the in-flight node is retried with its key', async () => {
    received.length = 0;
    delayMs = 3_000;
    const ids = await startRuns(8);
    // Wait until every run is inside its http_request node, then crash the worker holding most.
    await waitUntil(
      () => (received.length >= 8 ? true : undefined),
      30_000,
      'runs did not reach the http node',
    );
    const { rows: holders } = await pool().query<{ owner: string; n: string }>(
      `SELECT lease_owner AS owner, count(*) AS n FROM workflow_runs WHERE id = ANY($1::uuid[]) GROUP BY 1 ORDER BY 2 DESC`,
      [ids],
    );
    const victimPid = Number(holders[0]!.owner.split('-')[0]);
    const victim = workers.find((w) => w.pid === victimPid)!;
    const killedRuns = Number(holders[0]!.n);
    const killedAt = Date.now();
    await victim.kill('SIGKILL');
    delayMs = 50;
    const rows = await allFinished(ids, 60_000);
    expect(rows.map((r) => r.status)).toEqual(Array(8).fill('success'));
    const counts = await eventCounts(ids);
    // Every node finished exactly once; start never ran again; only `call` restarted.
    expect(counts.get('node_finished:start')).toBe(8);
    expect(counts.get('node_finished:call')).toBe(8);
    expect(counts.get('node_finished:end')).toBe(8);
    expect(counts.get('node_started:start')).toBe(8);
    expect(counts.get('node_started:call')).toBe(8 + killedRuns);
    expect(counts.get('run_started:')).toBe(8 + killedRuns);
    // The retried call carried the same Idempotency-Key as the attempt that was cut off.
    const repeated = received.filter((key, i) => received.indexOf(key) !== i);
    expect(repeated).toHaveLength(killedRuns);
    const { rows: resumed } = await pool().query<{ at: Date }>(
      `SELECT min(created_at) AS at FROM workflow_run_events
        WHERE run_id = ANY($1::uuid[]) AND type = 'run_started' AND (data->>'attempt')::int > 1`,
      [ids],
    );
    // A measurement for the benchmark notes, not an assertion (docs/benchmarks.md).
    process.stdout.write(
      `worker SIGKILL: ${killedRuns} runs resumed on the other worker ${resumed[0]!.at.getTime() - killedAt} ms after the kill (lease ${LEASE_MS} ms)\n`,
    );
  });
});
