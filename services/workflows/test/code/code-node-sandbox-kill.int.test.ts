import { readdirSync, readFileSync } from 'node:fs';
import { metricsRegistry } from '@platform/telemetry';
import type { ServiceProcess } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeDefinition, startSandboxWorker, type RunRecord } from '../support/code-workflows.js';
import { startWorkflowsHarness, type TestUser, type WorkflowsHarness } from '../support/harness.js';

// A sandbox worker that dies mid-task (SIGKILL: what an OOM kill or a lost node looks like) never
// takes the run with it (issue 24): the run worker sends the node once more, to whichever sandbox
// worker takes it, and with none left the node fails `sandbox_unavailable` in bounded time.
let harness: WorkflowsHarness;
let owner: TestUser;
const workers: ServiceProcess[] = [];

beforeAll(async () => {
  harness = await startWorkflowsHarness({ RUN_WORKER_ENABLED: 'true', SANDBOX_LOST_AFTER_MS: '1500' });
  owner = await harness.createUser({ name: 'killowner' });
}, 180_000);

afterAll(async () => {
  for (const worker of workers) await worker.stop().catch(() => undefined);
  await harness?.stop();
});

async function sandboxWorker(): Promise<ServiceProcess> {
  const worker = await startSandboxWorker(harness, { SANDBOX_CONCURRENCY: '1' });
  workers.push(worker);
  return worker;
}

/** `sandbox_tasks_in_flight` of a sandbox worker, from its /metrics. */
async function inFlight(worker: ServiceProcess): Promise<number> {
  const text = await (await fetch(worker.metricsUrl)).text();
  return Number(/^sandbox_tasks_in_flight(?:\{[^}]*\})? (\d+)/m.exec(text)?.[1] ?? 0);
}

/** The processes whose parent is `pid` (the sandbox worker's isolate children). */
function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
      } catch {
        return false;
      }
    })
    .map(Number);
}
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function startBusyRun(
  busyMs: number,
  timeoutMs: number,
): Promise<{ workflowId: string; runId: string }> {
  const code = `function main() { const end = Date.now() + ${busyMs}; while (Date.now() < end) {} return { done: true } }`;
  const created = await harness.request('POST', '/workflows', {
    token: owner.token,
    json: { name: `busy-${busyMs}`, definition: codeDefinition({ code, timeout_ms: timeoutMs }) },
  });
  const workflowId = String((created.body.data as { id: string }).id);
  const started = await harness.request('POST', `/workflows/${workflowId}/run`, {
    token: owner.token,
    json: { inputs: {}, mode: 'debug' },
  });
  expect(started.body.code, JSON.stringify(started.body)).toBe(0);
  return { workflowId, runId: String((started.body.data as { run_id: string }).run_id) };
}

async function finishedRun(workflowId: string, runId: string, withinMs: number): Promise<RunRecord> {
  let run: RunRecord | undefined;
  await expect
    .poll(
      async () => {
        const res = await harness.request('GET', `/workflows/${workflowId}/runs/${runId}`, {
          token: owner.token,
        });
        run = res.body.data as RunRecord;
        return ['success', 'failed', 'timeout'].includes(run.status);
      },
      { timeout: withinMs, interval: 250 },
    )
    .toBe(true);
  return run!;
}

async function retriesCounted(outcome: string): Promise<number> {
  const metric = await metricsRegistry.getSingleMetric('workflow_code_node_sandbox_retries_total')?.get();
  return metric?.values.find((v) => v.labels.outcome === outcome)?.value ?? 0;
}

describe('SIGKILL of the sandbox worker mid-task', () => {
  it('the node is sent once more, another sandbox worker runs it, and the run succeeds', async () => {
    const first = await sandboxWorker();
    const { workflowId, runId } = await startBusyRun(3_000, 6_000);
    await expect.poll(() => inFlight(first), { timeout: 20_000, interval: 100 }).toBe(1);
    const isolates = childrenOf(first.pid);
    expect(isolates.length).toBeGreaterThan(0);
    await sandboxWorker();
    const answeredBefore = await retriesCounted('answered');
    await first.kill('SIGKILL');

    // Attempt 1 is given up after 6 s + 1.5 s; attempt 2 waits up to 17.5 s more (a rebalance).
    const run = await finishedRun(workflowId, runId, 40_000);
    expect(run.status, JSON.stringify(run)).toBe('success');
    expect(run.outputs).toEqual({ result: { done: true } });
    expect(await retriesCounted('answered')).toBe(answeredBefore + 1);
    // The killed worker's isolate children went with it (they exit when their parent's IPC closes).
    await expect.poll(() => isolates.filter(alive), { timeout: 5_000 }).toEqual([]);
  }, 90_000);

  it('with no sandbox worker left, the node fails sandbox_unavailable after two attempts: nothing hangs', async () => {
    const last = workers.at(-1)!;
    const { workflowId, runId } = await startBusyRun(2_000, 3_000);
    await expect.poll(() => inFlight(last), { timeout: 20_000, interval: 100 }).toBe(1);
    await last.kill('SIGKILL');

    // Bounded: 2 × (3 s + 1.5 s) + 10 s from the first send (the engine would cut it 2 s later).
    const run = await finishedRun(workflowId, runId, 40_000);
    expect(run.status).toBe('failed');
    expect(run.error).toMatchObject({
      node_id: 'calc',
      data: { reason: 'sandbox_unavailable', attempts: 2 },
    });
    const calc = run.node_executions.find((n) => n.node_id === 'calc');
    expect(calc?.status).toBe('failed');
  }, 90_000);
});
