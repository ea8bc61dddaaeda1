import { checkHealth } from '@platform/grpc';
import { startServiceProcess, waitUntil, type ServiceProcess } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_NAME } from '../src/grpc/workflows-grpc.js';
import { linear } from './support/definitions.js';
import { startWorkflowsHarness, type TestUser, type WorkflowsHarness } from './support/harness.js';
import { workflowsChildEnv } from './support/child-processes.js';

// PROCESS_ROLE (deploy/README.md "API and workers apart"): the BUILT service as child processes on
// the harness's database and queue. `api` serves the API and runs no run; `worker` runs them and
// serves only grpc.health.v1; on SIGTERM readiness goes NOT_SERVING before the process stops.
let harness: WorkflowsHarness;
let owner: TestUser;
const processes: ServiceProcess[] = [];

const start = async (env: Record<string, string>) => {
  const started = await startServiceProcess('workflows', {
    env: workflowsChildEnv(harness, { RUN_CLAIM_POLL_MS: '50', ...env }),
  });
  processes.push(started);
  return started;
};

beforeAll(async () => {
  harness = await startWorkflowsHarness();
  owner = await harness.createUser({ name: 'roleowner' });
}, 180_000);

afterAll(async () => {
  await Promise.all(processes.map((p) => p.stop().catch(() => undefined)));
  await harness?.stop();
});

const grpcCode = (error: unknown) => (error as { code?: number }).code;

describe('workflows PROCESS_ROLE', () => {
  it('api claims no run (a worker started later does); worker serves health and no domain RPC', async () => {
    const api = await start({ PROCESS_ROLE: 'api' });
    expect(await checkHealth(api.address, SERVICE_NAME)).toBe('SERVING');
    const created = await harness.request('POST', '/workflows', {
      token: owner.token,
      json: { name: 'roles', definition: linear() },
    });
    const workflowId = String(created.body.data.id);
    await harness.request('POST', `/workflows/${workflowId}/publish`, {
      token: owner.token,
      json: { presentation_mode: 'simple' },
    });
    const started = await harness.request('POST', `/workflows/${workflowId}/run`, {
      token: owner.token,
      json: { inputs: { name: 'x' } },
    });
    expect(started.body.code, JSON.stringify(started.body)).toBe(0);
    const runId = String(started.body.data.run_id);
    // The api process polls for claimable runs every 50 ms if it claimed at all; the worker's
    // start-up below gives it dozens of chances.
    const worker = await start({ PROCESS_ROLE: 'worker' });
    expect(await checkHealth(worker.address, '')).toBe('SERVING');
    await expect(checkHealth(worker.address, SERVICE_NAME)).rejects.toSatisfy(
      (error) => grpcCode(error) === 5, // NOT_FOUND: the domain services are not served here
    );
    const claimedBy = await waitUntil(
      async () => {
        const { rows } = await harness.workflows.dependencies.pool.query<{ worker: string; status: string }>(
          `SELECT e.data->>'worker' AS worker, r.status FROM workflow_runs r
             JOIN workflow_run_events e ON e.run_id = r.id AND e.type = 'run_started' WHERE r.id = $1`,
          [runId],
        );
        return rows[0]?.status === 'success' ? rows : undefined;
      },
      30_000,
      'the worker did not run the run',
      50,
    );
    expect(claimedBy.map((row) => Number(row.worker.split('-')[0]))).toEqual([worker.pid]);
  });

  it('on SIGTERM every health status goes NOT_SERVING first, while the server still answers', async () => {
    const api = await start({ PROCESS_ROLE: 'api', SHUTDOWN_DELAY_MS: '1500' });
    expect(await checkHealth(api.address, '')).toBe('SERVING');
    const sentAt = Date.now();
    const exit = api.kill('SIGTERM');
    await expect
      .poll(() => checkHealth(api.address, ''), { timeout: 1_000, interval: 20 })
      .toBe('NOT_SERVING');
    expect(await checkHealth(api.address, SERVICE_NAME)).toBe('NOT_SERVING');
    await exit;
    const exitMs = Date.now() - sentAt;
    expect(exitMs).toBeGreaterThanOrEqual(1_500);
    process.stdout.write(
      `workflows api SIGTERM idle with SHUTDOWN_DELAY_MS=1500: exited after ${exitMs} ms\n`,
    );
  });
});
