import { queueTopic, Topics } from '@platform/kafka';
import { captureEvents, waitUntil, type EventCapture } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linear } from '../support/definitions.js';
import { insertHeldRun } from '../support/held-run.js';
import { startWorkflowsHarness, type TestUser, type WorkflowsHarness } from '../support/harness.js';

// StartRun claims in its own statement when this replica's worker has a free slot (issue 21): such
// a run needs no `workflow.run` task. What must hold: a run that could NOT be claimed there (its
// user at the running cap) still gets its task on the queue and starts once its place frees.
let harness: WorkflowsHarness;
let owner: TestUser;
let workflowId: string;
let tasks: EventCapture;
let facts: EventCapture;

beforeAll(async () => {
  harness = await startWorkflowsHarness({ RUN_WORKER_ENABLED: 'true', RUN_MAX_RUNNING_PER_USER: '1' });
  owner = await harness.createUser({ name: 'inplace' });
  const created = await harness.request('POST', '/workflows', {
    token: owner.token,
    json: { name: 'in place', definition: linear() },
  });
  workflowId = String(created.body.data.id);
  await harness.request('POST', `/workflows/${workflowId}/publish`, {
    token: owner.token,
    json: { presentation_mode: 'simple' },
  });
  tasks = await captureEvents(harness.workflows.dependencies.kafka, 'inplace', [
    queueTopic('workflow', harness.config.QUEUE_TOPIC_PREFIX),
  ]);
  facts = await captureEvents(harness.workflows.dependencies.kafka, 'inplace-facts', [Topics.WORKFLOW_RUNS]);
}, 120_000);

afterAll(async () => {
  await tasks?.stop();
  await facts?.stop();
  await harness?.stop();
});

const taskOf = (runId: string) => (message: { value: unknown }) =>
  (message.value as { args?: { run_id?: string } }).args?.run_id === runId;

describe('StartRun claims in place', () => {
  it('a run its user may not start yet keeps its task and starts when the place frees; one claimed in place has none', async () => {
    const pool = harness.workflows.dependencies.pool;
    const idle = await harness.request('POST', `/workflows/${workflowId}/run`, {
      token: owner.token,
      json: { inputs: { name: 'Ida' }, wait: true },
    });
    expect(idle.body.data.status, JSON.stringify(idle.body)).toBe('success');
    const claimedInPlace = String(idle.body.data.run_id);

    // The user's one running place is taken by a run another worker holds.
    const holder = await insertHeldRun(pool, workflowId, owner.id);
    const started = await harness.request('POST', `/workflows/${workflowId}/run`, {
      token: owner.token,
      json: { inputs: { name: 'Queued' } },
    });
    expect(started.body.data.status).toBe('queued');
    const queued = String(started.body.data.run_id);
    // Its task reaches the queue (the outbox publishes in order, so the earlier run's task, had
    // it had one, would have come first).
    await tasks.waitFor(taskOf(queued), 'the queued run got no workflow.run task');
    expect(tasks.messages.filter(taskOf(claimedInPlace))).toEqual([]);
    const { rows } = await pool.query<{ status: string }>('SELECT status FROM workflow_runs WHERE id = $1', [
      queued,
    ]);
    expect(rows[0]!.status).toBe('queued');

    // The place frees: the run starts (the worker's poll or the next prompt) and succeeds.
    await pool.query(`UPDATE workflow_runs SET status = 'success', finished_at = now() WHERE id = $1`, [
      holder,
    ]);
    await waitUntil(
      async () => {
        const { rows: now } = await pool.query<{ status: string }>(
          'SELECT status FROM workflow_runs WHERE id = $1',
          [queued],
        );
        return now[0]?.status === 'success' ? true : undefined;
      },
      15_000,
      'the queued run never ran',
      100,
    );
  });

  it("a run claimed by another request's prompt still runs, logs and reports under its own starter's request id", async () => {
    const pool = harness.workflows.dependencies.pool;
    // Both runs queue behind a run another worker holds (the user's one place); once it frees,
    // the poll claims the first and the first one's finish claims the second: neither claim is
    // made in its own starter's request.
    const holder = await insertHeldRun(pool, workflowId, owner.id);
    const startWith = async (requestId: string) => {
      const res = await harness.request('POST', `/workflows/${workflowId}/run`, {
        token: owner.token,
        json: { inputs: { name: requestId } },
        headers: { 'x-request-id': requestId },
      });
      expect(res.body.data.status, JSON.stringify(res.body)).toBe('queued');
      return String(res.body.data.run_id);
    };
    const first = await startWith('starter-of-first');
    const second = await startWith('starter-of-second');
    await pool.query(`UPDATE workflow_runs SET status = 'success', finished_at = now() WHERE id = $1`, [
      holder,
    ]);
    for (const [runId, requestId] of [
      [first, 'starter-of-first'],
      [second, 'starter-of-second'],
    ] as const) {
      const fact = await facts.waitFor(
        (message) => (message.value as { id?: string }).id === runId,
        `no fact for ${requestId}`,
      );
      expect(fact.requestId).toBe(requestId);
    }
  });
});
