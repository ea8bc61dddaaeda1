import { type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { startServiceProcess, waitUntil, type ServiceProcess } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { definition, edge, node } from '../support/definitions.js';
import { startWorkflowsHarness, type TestUser, type WorkflowsHarness } from '../support/harness.js';
import { startAllowedSink, waitForQueueWorkers, workflowsChildEnv } from '../support/child-processes.js';

// A run worker stopped by SIGTERM (a rollout) drains: it claims nothing more, lets the node in
// flight finish (or cuts it after RUN_WORKER_DRAIN_MS) and hands its runs back at once, so another
// worker resumes them within a second or two instead of after the lease (15 s here), and no
// finished node runs again. The workers are the BUILT service as child processes
// (PROCESS_ROLE=worker) on the harness's database and queue; the harness serves the API only.
let harness: WorkflowsHarness;
let owner: TestUser;
const workers = new Set<ServiceProcess>();
let sink: Server;
let sinkOrigin: string;
/** Requests the sink received, by path, with their Idempotency-Key. */
const calls: Array<{ path: string; key: string }> = [];
/** `/hold`: the first request is answered only when the client gives up (a cut node). */
let holding: ServerResponse | undefined;

const LEASE_MS = 15_000;

function answerSink(req: IncomingMessage, res: ServerResponse): void {
  const path = req.url ?? '';
  calls.push({ path, key: String(req.headers['idempotency-key']) });
  req.resume();
  const ok = () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  if (path === '/slow') setTimeout(ok, 1_000);
  else if (path === '/hold' && calls.filter((c) => c.path === '/hold').length === 1) holding = res;
  else ok();
}

async function startWorkers(count: number, env: Record<string, string>): Promise<ServiceProcess[]> {
  const started = await Promise.all(
    Array.from({ length: count }, () =>
      startServiceProcess('workflows', {
        env: workflowsChildEnv(harness, { PROCESS_ROLE: 'worker', RUN_LEASE_MS: String(LEASE_MS), ...env }),
      }),
    ),
  );
  for (const worker of started) workers.add(worker);
  return started;
}

async function createWorkflow(name: string, slowPath: string): Promise<string> {
  const call = (id: string, path: string) =>
    node(id, 'http_request', { method: 'POST', url: `${sinkOrigin}${path}`, body: { n: '{{inputs.n}}' } });
  const created = await harness.request('POST', '/workflows', {
    token: owner.token,
    json: {
      name,
      definition: definition(
        [
          node('start', 'start', { inputs: [{ name: 'n', type: 'number', required: true }] }),
          call('first', slowPath),
          call('second', '/fast'),
          node('end', 'end', { outputs: [{ name: 'status', value: '{{second.status}}' }] }),
        ],
        [edge('start', 'first'), edge('first', 'second'), edge('second', 'end')],
      ),
    },
  });
  expect(created.body.code, JSON.stringify(created.body)).toBe(0);
  const id = String(created.body.data.id);
  await harness.request('POST', `/workflows/${id}/publish`, {
    token: owner.token,
    json: { presentation_mode: 'simple' },
  });
  return id;
}

beforeAll(async () => {
  harness = await startWorkflowsHarness();
  owner = await harness.createUser({ name: 'drainowner' });
  const admin = await harness.createUser({ superuser: true, name: 'drainadmin' });
  ({ server: sink, origin: sinkOrigin } = await startAllowedSink(harness, admin.token, answerSink));
}, 180_000);

afterAll(async () => {
  await Promise.all([...workers].map((w) => w.stop().catch(() => undefined)));
  holding?.destroy();
  sink?.closeAllConnections();
  await new Promise((resolve) => sink?.close(resolve));
  await harness?.stop();
});

const pool = () => harness.workflows.dependencies.pool;

async function startRun(workflowId: string): Promise<string> {
  const answer = await harness.request('POST', `/workflows/${workflowId}/run`, {
    token: owner.token,
    json: { inputs: { n: 1 } },
  });
  expect(answer.body.code, JSON.stringify(answer.body)).toBe(0);
  return String(answer.body.data.run_id);
}

async function finished(runId: string): Promise<string> {
  return waitUntil(
    async () => {
      const { rows } = await pool().query<{ status: string }>(
        'SELECT status FROM workflow_runs WHERE id = $1',
        [runId],
      );
      return ['success', 'failed', 'timeout'].includes(rows[0]!.status) ? rows[0]!.status : undefined;
    },
    30_000,
    'the run did not finish',
    50,
  );
}

async function runRecord(runId: string) {
  const events = await pool().query<{
    type: string;
    node: string | null;
    data: Record<string, unknown>;
    at: Date;
  }>(
    `SELECT type, data->>'node_id' AS node, data, created_at AS at FROM workflow_run_events
      WHERE run_id = $1 ORDER BY seq`,
    [runId],
  );
  const nodes = await pool().query<{ node_id: string; status: string; attempts: number }>(
    'SELECT node_id, status, attempts FROM workflow_node_executions WHERE run_id = $1 ORDER BY position',
    [runId],
  );
  const count = (type: string, nodeId = '') =>
    events.rows.filter((e) => e.type === type && (e.node ?? '') === nodeId).length;
  const claims = events.rows.filter((e) => e.type === 'run_started');
  return { events: events.rows, nodes: nodes.rows, count, claims };
}

/** The worker whose lease the run holds now (lease owner `<pid>-<random>`). */
async function holderOf(runId: string): Promise<ServiceProcess> {
  const { rows } = await pool().query<{ owner: string }>(
    'SELECT lease_owner AS owner FROM workflow_runs WHERE id = $1',
    [runId],
  );
  const pid = Number(rows[0]!.owner.split('-')[0]);
  const holder = [...workers].find((w) => w.pid === pid);
  if (!holder) throw new Error(`no worker process holds the run (owner ${rows[0]!.owner})`);
  return holder;
}

/** SIGTERM, then the exit; answers when the signal was sent and how long the exit took. */
async function terminate(worker: ServiceProcess): Promise<{ sentAt: number; exitMs: number }> {
  const sentAt = Date.now();
  await worker.kill('SIGTERM');
  workers.delete(worker);
  return { sentAt, exitMs: Date.now() - sentAt };
}

describe('run worker drain on SIGTERM', () => {
  it('the node in flight finishes, the run continues on the other worker within 2 s, no node runs twice', async () => {
    await startWorkers(2, { RUN_WORKER_DRAIN_MS: '10000' });
    await waitForQueueWorkers(harness, 2);
    const workflowId = await createWorkflow('drain', '/slow');
    calls.length = 0;
    const runId = await startRun(workflowId);
    // Mid-run: the slow node's request is at the sink (held ~1 s).
    await expect.poll(() => calls.length, { timeout: 20_000, interval: 20 }).toBe(1);
    const victim = await holderOf(runId);
    const { sentAt, exitMs } = await terminate(victim);
    expect(await finished(runId)).toBe('success');
    const record = await runRecord(runId);
    // Two claims: the victim's, then the other worker's, within 2 s of the SIGTERM (not the 15 s lease).
    expect(record.claims).toHaveLength(2);
    const [first, second] = record.claims as [(typeof record.claims)[0], (typeof record.claims)[0]];
    expect(second.data.worker).not.toBe(first.data.worker);
    expect(String(first.data.worker).startsWith(`${victim.pid}-`)).toBe(true);
    const resumedMs = second.at.getTime() - sentAt;
    expect(resumedMs).toBeLessThan(2_000);
    // The node in flight finished on the victim (before the hand-back), then never ran again.
    const firstFinished = record.events.findIndex((e) => e.type === 'node_finished' && e.node === 'first');
    expect(firstFinished).toBeLessThan(record.events.indexOf(second));
    for (const id of ['start', 'first', 'second', 'end']) {
      expect(record.count('node_started', id), id).toBe(1);
      expect(record.count('node_finished', id), id).toBe(1);
    }
    expect(record.nodes.map((n) => [n.node_id, n.status, n.attempts])).toEqual([
      ['start', 'success', 1],
      ['first', 'success', 1],
      ['second', 'success', 1],
      ['end', 'success', 1],
    ]);
    expect(calls.map((c) => c.path)).toEqual(['/slow', '/fast']);
    // Measurements for deploy/README.md (terminationGracePeriodSeconds), not assertions.
    process.stdout.write(
      `run worker SIGTERM mid-node: resumed on the other worker ${resumedMs} ms after the signal; the worker exited after ${exitMs} ms\n`,
    );
  });

  it('an idle worker exits promptly on SIGTERM', async () => {
    const [idle] = [...workers] as [ServiceProcess];
    // Its successors for the next case (a short drain bound), started before, as a rollout does.
    await startWorkers(2, { RUN_WORKER_DRAIN_MS: '300' });
    const { exitMs } = await terminate(idle);
    expect(exitMs).toBeLessThan(5_000);
    process.stdout.write(`run worker SIGTERM idle: exited after ${exitMs} ms\n`);
  });

  it('a node still in flight after RUN_WORKER_DRAIN_MS is cut; only that node runs again, on the other worker', async () => {
    await waitForQueueWorkers(harness, 2);
    const workflowId = await createWorkflow('drain-cut', '/hold');
    calls.length = 0;
    holding = undefined;
    const runId = await startRun(workflowId);
    await expect.poll(() => calls.length, { timeout: 20_000, interval: 20 }).toBe(1);
    const victim = await holderOf(runId);
    const { sentAt, exitMs } = await terminate(victim);
    expect(await finished(runId)).toBe('success');
    const record = await runRecord(runId);
    const [, second] = record.claims as [(typeof record.claims)[0], (typeof record.claims)[0]];
    expect(record.claims).toHaveLength(2);
    expect(second.at.getTime() - sentAt).toBeLessThan(2_000);
    // How the record shows a cut node: started twice (attempt 1 on the victim, 2 on the other
    // worker), finished once, its row's attempts 2; the run's second claim is attempt 2.
    expect(second.data.attempt).toBe(2);
    const starts = record.events.filter((e) => e.type === 'node_started' && e.node === 'first');
    expect(starts.map((e) => e.data.attempt)).toEqual([1, 2]);
    expect(record.count('node_finished', 'first')).toBe(1);
    expect(record.count('node_started', 'start')).toBe(1);
    expect(record.nodes.map((n) => [n.node_id, n.attempts])).toEqual([
      ['start', 1],
      ['first', 2],
      ['second', 1],
      ['end', 1],
    ]);
    // The cut call was sent again with its Idempotency-Key; the next node once.
    expect(calls.map((c) => c.path)).toEqual(['/hold', '/hold', '/fast']);
    expect(calls[1]!.key).toBe(calls[0]!.key);
    process.stdout.write(
      `run worker SIGTERM with a node past the drain bound (300 ms): exited after ${exitMs} ms, resumed ${second.at.getTime() - sentAt} ms after the signal\n`,
    );
  });
});
