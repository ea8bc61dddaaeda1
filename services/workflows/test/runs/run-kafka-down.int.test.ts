import { freshDatabase, waitUntil, type FreshDatabase } from '@platform/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { linear } from '../support/definitions.js';
import { startWorkflowsHarness, type WorkflowsHarness } from '../support/harness.js';

// Nothing is lost when Kafka is down: a replica whose broker is unreachable (a dead local port, so
// the shared broker keeps serving everyone else) still answers a run request at once, with the run
// row and its `workflow.run` task committed together in Postgres; a replica with Kafka on the same
// database later relays the task and a worker runs it.
let down: WorkflowsHarness | undefined;
let up: WorkflowsHarness | undefined;
let database: FreshDatabase | undefined;

afterAll(async () => {
  await up?.stop();
  await down?.stop();
  await database?.drop();
});

describe('runs while Kafka is down', () => {
  it('answers queued at once, keeps the task in the outbox, and runs once Kafka is back', async () => {
    database = await freshDatabase('workflows_kafka_down');
    down = await startWorkflowsHarness({ DATABASE_URL: database.url, KAFKA_BROKERS: '127.0.0.1:1' });
    const owner = await down.createUser({ name: 'kafkadown' });
    const created = await down.request('POST', '/workflows', {
      token: owner.token,
      json: { name: 'offline', definition: linear() },
    });
    const id = String(created.body.data.id);
    await down.request('POST', `/workflows/${id}/publish`, {
      token: owner.token,
      json: { presentation_mode: 'simple' },
    });

    const started = await down.request('POST', `/workflows/${id}/run`, {
      token: owner.token,
      json: { inputs: { name: 'Kay' } },
    });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect(started.body.data.status).toBe('queued');
    const runId = String(started.body.data.run_id);
    const { rows: outbox } = await down.workflows.dependencies.pool.query<{
      topic: string;
      type: string;
      value: { args: unknown };
    }>('SELECT topic, type, value FROM outbox');
    expect(outbox).toHaveLength(1);
    expect(outbox[0]).toMatchObject({
      topic: `${down.config.QUEUE_TOPIC_PREFIX}queue.workflow`,
      type: 'workflow.run',
    });
    expect(outbox[0]!.value.args).toEqual({ run_id: runId });

    // Kafka "is back": the replica restarts with the broker reachable, on the same database.
    const prefix = down.config.QUEUE_TOPIC_PREFIX;
    await down.stop();
    down = undefined;
    up = await startWorkflowsHarness({
      DATABASE_URL: database.url,
      QUEUE_TOPIC_PREFIX: prefix,
      RUN_WORKER_ENABLED: 'true',
    });
    const pool = up.workflows.dependencies.pool;
    const done = await waitUntil(
      async () => {
        const { rows } = await pool.query<{ status: string; outputs: unknown }>(
          'SELECT status, outputs FROM workflow_runs WHERE id = $1',
          [runId],
        );
        return rows[0]?.status === 'success' ? rows[0] : undefined;
      },
      60_000,
      'the run never ran',
      200,
    );
    expect(done.outputs).toEqual({ greeting: 'Hello Kay' });
    // Its fact and notification event follow the same way: the outbox drains completely.
    await waitUntil(
      async () => ((await pool.query('SELECT 1 FROM outbox')).rowCount === 0 ? true : undefined),
      30_000,
      'the outbox never drained',
      200,
    );
  });
});
