// POST /workflows/{workflow_id}/run, GET /workflows/{workflow_id}/runs and GET
// /workflows/{workflow_id}/runs/{run_id} (gateway routes/workflow-runs-routes.ts): starting a run and
// reading it back, what cannot run, bad ids, another user, and the security cases. The event stream:
// get-workflows-id-runs-id-stream; API keys on these routes: ../runs/run-api-key-access and
// ../runs/run-e2e; limits and fairness: ../runs/run-followers, ../runs/run-fairness.
import { Topics } from '@platform/kafka';
import { captureEvents, waitUntil, type EventCapture } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { definition, edge, linear, node } from '../support/definitions.js';
import type { TestUser, WorkflowsHarness } from '../support/harness.js';
import { describeRouteSecurity } from '../support/route-security.js';
import { useWorkflowsHarness } from '../support/route-suite.js';

// A run end to end through the gateway: the run row and its task committed together, a worker of
// the in-process service claiming it, the journal's events, the terminal state, the fact and the
// owner's notification event (through the outbox).
let harness: WorkflowsHarness;
let owner: TestUser;
let capture: EventCapture;

useWorkflowsHarness(
  async (started) => {
    harness = started;
    owner = await harness.createUser({ name: 'runowner' });
    capture = await captureEvents(harness.workflows.dependencies.kafka, 'runs', [
      Topics.WORKFLOW_RUNS,
      Topics.NOTIFICATION_EVENTS,
    ]);
  },
  { RUN_WORKER_ENABLED: 'true', RUN_WAIT_LIMIT_MS: '20000' },
);
// Registered after the harness's: runs first (after-hooks run in reverse), while Kafka is still up.
afterAll(async () => {
  await capture?.stop();
});

async function createWorkflow(def: Record<string, unknown>, publish = true): Promise<string> {
  const created = await harness.request('POST', '/workflows', {
    token: owner.token,
    json: { name: 'runs', definition: def },
  });
  expect(created.body.code, JSON.stringify(created.body)).toBe(0);
  const id = String(created.body.data.id);
  if (publish) {
    const published = await harness.request('POST', `/workflows/${id}/publish`, {
      token: owner.token,
      json: { presentation_mode: 'simple' },
    });
    expect(published.body.code, JSON.stringify(published.body)).toBe(0);
  }
  return id;
}

const run = (id: string, json: Record<string, unknown>) =>
  harness.request('POST', `/workflows/${id}/run`, { token: owner.token, json });

describe('POST /workflows/{workflow_id}/run', () => {
  it('runs a published workflow to success: record, events, fact and notification agree', async () => {
    const id = await createWorkflow(linear());
    const started = await run(id, { inputs: { name: 'Ada' }, wait: true });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect(started.body.data).toMatchObject({
      status: 'success',
      outputs: { greeting: 'Hello Ada' },
      error: null,
      stream_url: `/workflows/${id}/runs/${started.body.data.run_id}/stream`,
    });
    const runId = String(started.body.data.run_id);
    const record = await harness.request('GET', `/workflows/${id}/runs/${runId}`, { token: owner.token });
    expect(record.body.data).toMatchObject({
      id: runId,
      status: 'success',
      mode: 'production',
      version: 1,
      inputs: { name: 'Ada' },
      outputs: { greeting: 'Hello Ada' },
      triggered_by: { type: 'user', id: owner.id },
    });
    expect(
      record.body.data.node_executions.map((n: { node_id: string; status: string }) => [n.node_id, n.status]),
    ).toEqual([
      ['start', 'success'],
      ['greet', 'success'],
      ['end', 'success'],
    ]);
    const { rows: events } = await harness.workflows.dependencies.pool.query<{ seq: string; type: string }>(
      'SELECT seq, type FROM workflow_run_events WHERE run_id = $1 ORDER BY seq',
      [runId],
    );
    expect(events.map((e) => Number(e.seq))).toEqual(events.map((_, i) => i + 1));
    expect(events.map((e) => e.type)).toEqual([
      'run_started',
      'node_started',
      'node_finished',
      'node_started',
      'node_finished',
      'node_started',
      'node_finished',
      'run_finished',
    ]);
    const fact = await capture.waitFor(
      (m) => m.topic === Topics.WORKFLOW_RUNS && (m.value as { id?: string }).id === runId,
      'no run fact',
    );
    expect(fact.value).toMatchObject({ workflow_id: id, status: 'success', mode: 'production', version: 1 });
    expect((fact.value as { nodes: unknown[] }).nodes).toHaveLength(3);
    const notice = await capture.waitFor(
      (m) =>
        m.topic === Topics.NOTIFICATION_EVENTS &&
        (m.value as { id?: string }).id === `workflow.run_success:${runId}`,
      'no run notification event',
    );
    expect(notice.value).toMatchObject({ type: 'workflow.run_success', scope: 'user', user_id: owner.id });
  });

  it('answers queued at once without wait, and the run still finishes', async () => {
    const id = await createWorkflow(linear());
    const started = await run(id, { inputs: { name: 'Bo' } });
    expect(started.body.data.status).toBe('queued');
    const runId = String(started.body.data.run_id);
    const done = await waitUntil(async () => {
      const res = await harness.request('GET', `/workflows/${id}/runs/${runId}`, { token: owner.token });
      return res.body.data.status === 'success' ? res.body.data : undefined;
    }, 20_000);
    expect(done.outputs).toEqual({ greeting: 'Hello Bo' });
    const list = await harness.request('GET', `/workflows/${id}/runs`, { token: owner.token });
    expect(list.body.data).toMatchObject({ total: 1, page: 1, page_size: 20 });
  });

  it('production needs a publish; debug runs the draft; a later publish never changes a pinned run', async () => {
    const id = await createWorkflow(linear(), false);
    const unpublished = await run(id, { inputs: { name: 'x' } });
    expect([unpublished.status, unpublished.body.code, unpublished.body.data?.error_key]).toEqual([
      400,
      1002,
      'workflow_not_published',
    ]);
    const debug = await run(id, { inputs: { name: 'Cy' }, mode: 'debug', wait: true });
    expect(debug.body.data).toMatchObject({ status: 'success', outputs: { greeting: 'Hello Cy' } });
    const runRecord = await harness.request('GET', `/workflows/${id}/runs/${debug.body.data.run_id}`, {
      token: owner.token,
    });
    expect(runRecord.body.data).toMatchObject({ mode: 'debug', version: 1 });
  });

  it('refuses what cannot run: an old schema, an unknown node, a missing required input, a bad mode', async () => {
    const old = await createWorkflow({ ...linear(), schema_version: 1 });
    const outdated = await run(old, { inputs: { name: 'x' } });
    expect([outdated.status, outdated.body.code, outdated.body.data?.error_key]).toEqual([
      400,
      1002,
      'workflow_schema_outdated',
    ]);
    const unknown = await createWorkflow(
      definition(
        [node('start', 'start'), node('x', 'teleport'), node('end', 'end')],
        [edge('start', 'x'), edge('x', 'end')],
      ),
    );
    const notRunnable = await run(unknown, {});
    expect([notRunnable.status, notRunnable.body.code, notRunnable.body.data?.node_id]).toEqual([
      400,
      1002,
      'x',
    ]);
    const id = await createWorkflow(linear());
    const missing = await run(id, { inputs: {} });
    expect([missing.status, missing.body.code]).toEqual([422, 1001]);
    expect(Object.keys(missing.body.data.errors)).toContain('inputs.name');
    const badMode = await run(id, { mode: 'turbo' });
    expect([badMode.status, badMode.body.code]).toEqual([422, 1001]);
  });
});

describe('GET /workflows/{workflow_id}/runs and /runs/{run_id}: errors', () => {
  let workflowId: string;
  let runId: string;
  beforeAll(async () => {
    workflowId = await createWorkflow(linear());
    runId = String((await run(workflowId, { inputs: { name: 'Di' }, wait: true })).body.data.run_id);
  });
  const outcome = async (user: TestUser, path: string) => {
    const res = await harness.request('GET', path, { token: user.token });
    return [path, res.status, res.body.code];
  };

  it('an unknown run is 404 / 4000; malformed ids and paging are 422 / 1001', async () => {
    const missing = '00000000-0000-4000-8000-000000000000';
    expect(await outcome(owner, `/workflows/${workflowId}/runs/${missing}`)).toEqual([
      `/workflows/${workflowId}/runs/${missing}`,
      404,
      4000,
    ]);
    for (const path of [
      `/workflows/${workflowId}/runs/nope`,
      `/workflows/nope/runs/${runId}`,
      '/workflows/nope/runs',
      `/workflows/${workflowId}/runs?page_size=101`,
      `/workflows/${workflowId}/runs?page=0`,
    ]) {
      expect(await outcome(owner, path)).toEqual([path, 422, 1001]);
    }
  });

  it("another user's runs are 404 / 4000, as for a workflow that does not exist", async () => {
    const stranger = await harness.createUser({ name: 'runstranger' });
    for (const path of [`/workflows/${workflowId}/runs`, `/workflows/${workflowId}/runs/${runId}`]) {
      expect(await outcome(stranger, path)).toEqual([path, 404, 4000]);
    }
    expect(
      (await harness.request('GET', `/workflows/${workflowId}/runs`, { token: owner.token })).body.data.total,
    ).toBe(1);
  });

  describeRouteSecurity('the run routes', () => ({
    harness,
    routes: [
      ['POST', `/workflows/${workflowId}/run`, { inputs: { name: 'refused' } }],
      ['GET', `/workflows/${workflowId}/runs`],
      ['GET', `/workflows/${workflowId}/runs/${runId}`],
    ],
  }));
});
