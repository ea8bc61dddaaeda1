import type { Pool } from '@platform/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finishRun } from '../../src/data/run-finish.js';
import { postgresRunJournal } from '../../src/data/run-journal.js';
import { findRunById } from '../../src/data/runs-repository.js';
import { LeaseLostError, OutputNotStorableError } from '../../src/domain/runs/engine/contract.js';
import { linear } from '../support/definitions.js';
import { insertHeldRun } from '../support/held-run.js';
import { startWorkflowsHarness, type WorkflowsHarness } from '../support/harness.js';

// The journal's batching (issue 21): instant nodes (no effect outside the run) are held and written
// with the run's next write, in order, fenced like every write; the finish is one statement. What
// must hold: the log stays gapless and ordered, a worker that lost its lease writes nothing (held
// rows included), and an output Postgres refuses is the refusing node's failure, at once.
let harness: WorkflowsHarness;
let pool: Pool;
let workflowId: string;
let userId: string;

beforeAll(async () => {
  harness = await startWorkflowsHarness();
  pool = harness.workflows.dependencies.pool;
  const owner = await harness.createUser({ name: 'journaler' });
  userId = owner.id;
  const created = await harness.request('POST', '/workflows', {
    token: owner.token,
    json: { name: 'journal', definition: linear() },
  });
  workflowId = String(created.body.data.id);
}, 120_000);

afterAll(async () => {
  await harness?.stop();
});

const INSTANT = new Set(['start', 'end', 'template']);
const journalOf = (runId: string, owner = 'test-writer') =>
  postgresRunJournal(pool, runId, owner, { instant: (type) => INSTANT.has(type), firstClaim: true });
const at = new Date();
const ref = (nodeId: string, nodeType: string, position: number) => ({ nodeId, nodeType, position });
const success = (outputs: Record<string, unknown>) => ({ status: 'success' as const, outputs });

/** The start node ran to success (held by the journal until its next write). */
async function startNodeRan(journal: ReturnType<typeof journalOf>, outputs: Record<string, unknown> = {}) {
  await journal.nodeStarted({ ...ref('start', 'start', 0), startedAt: at });
  await journal.nodeFinished({
    ...ref('start', 'start', 0),
    outcome: success(outputs),
    startedAt: at,
    durationMs: 1,
  });
}

async function rows(runId: string) {
  const { rows: nodes } = await pool.query<{ node_id: string; status: string; attempts: number }>(
    'SELECT node_id, status, attempts FROM workflow_node_executions WHERE run_id = $1 ORDER BY position',
    [runId],
  );
  const { rows: events } = await pool.query<{ seq: string; type: string; data: { node_id?: string } }>(
    'SELECT seq, type, data FROM workflow_run_events WHERE run_id = $1 ORDER BY seq',
    [runId],
  );
  return { nodes, events: events.map((e) => `${e.seq}:${e.type}:${e.data.node_id ?? ''}`) };
}

describe('run journal: instant nodes held, one statement per write', () => {
  it('writes held instant nodes with the next write, in order, before that write', async () => {
    const runId = await insertHeldRun(pool, workflowId, userId);
    const journal = journalOf(runId);
    await startNodeRan(journal, { a: 1 });
    await journal.nodeSkipped(ref('other', 'template', 1));
    expect(await rows(runId)).toEqual({ nodes: [], events: [] });

    await journal.nodeStarted({ ...ref('fetch', 'http_request', 2), startedAt: at });
    expect(await rows(runId)).toEqual({
      nodes: [
        { node_id: 'start', status: 'success', attempts: 1 },
        { node_id: 'other', status: 'skipped', attempts: 0 },
        { node_id: 'fetch', status: 'running', attempts: 1 },
      ],
      events: [
        '1:node_started:start',
        '2:node_finished:start',
        '3:node_finished:other',
        '4:node_started:fetch',
      ],
    });
  });

  it('ends a run in one statement: held rows, run_finished last, the fact listing every node', async () => {
    const runId = await insertHeldRun(pool, workflowId, userId);
    const journal = journalOf(runId);
    for (const [position, [id, type]] of [
      ['start', 'start'],
      ['end', 'end'],
    ].entries()) {
      await journal.nodeStarted({ ...ref(id!, type!, position), startedAt: at });
      await journal.nodeFinished({
        ...ref(id!, type!, position),
        outcome: success({ id }),
        startedAt: at,
        durationMs: 2,
      });
    }
    const run = (await findRunById(pool, runId))!;
    await finishRun(
      pool,
      run,
      { owner: 'test-writer' },
      { status: 'success', outputs: { id: 'end' }, totalTokens: 0 },
      new Date(),
      journal.takeForFinish(),
    );
    const written = await rows(runId);
    expect(written.nodes.map((n) => `${n.node_id}:${n.status}`)).toEqual(['start:success', 'end:success']);
    expect(written.events).toEqual([
      '1:node_started:start',
      '2:node_finished:start',
      '3:node_started:end',
      '4:node_finished:end',
      '5:run_finished:',
    ]);
    expect((await findRunById(pool, runId))!).toMatchObject({
      status: 'success',
      outputs: { id: 'end' },
      lease_owner: null,
    });
    const { rows: outbox } = await pool.query<{
      type: string;
      value: { nodes?: Array<{ node_id: string; duration_ms: number }> };
    }>(`SELECT type, value FROM outbox WHERE event_id IN ($1, $2) ORDER BY seq`, [
      `workflow-run:${runId}`,
      `workflow.run_success:${runId}`,
    ]);
    // The relay may already have published them; when still there, the fact lists both nodes.
    const fact = outbox.find((row) => row.type === 'workflow.run_finished');
    if (fact)
      expect(fact.value.nodes?.map((n) => [n.node_id, n.duration_ms])).toEqual([
        ['start', 2],
        ['end', 2],
      ]);
  });

  it('a worker that lost its lease writes nothing, held rows included, at the next write and at the finish', async () => {
    const runId = await insertHeldRun(pool, workflowId, userId);
    const journal = journalOf(runId);
    await startNodeRan(journal);
    await pool.query(`UPDATE workflow_runs SET lease_owner = 'another-worker' WHERE id = $1`, [runId]);
    await expect(
      journal.nodeStarted({ ...ref('fetch', 'http_request', 1), startedAt: at }),
    ).rejects.toBeInstanceOf(LeaseLostError);
    const run = (await findRunById(pool, runId))!;
    await expect(
      finishRun(
        pool,
        run,
        { owner: 'test-writer' },
        { status: 'success', outputs: {}, totalTokens: 0 },
        new Date(),
        journal.takeForFinish(),
      ),
    ).rejects.toBeInstanceOf(LeaseLostError);
    expect(await rows(runId)).toEqual({ nodes: [], events: [] });
    expect((await findRunById(pool, runId))!.status).toBe('running');
  });

  it('an instant node whose output Postgres refuses fails at its own finish; what was held stays and is written next', async () => {
    const runId = await insertHeldRun(pool, workflowId, userId);
    const journal = journalOf(runId);
    await startNodeRan(journal);
    await journal.nodeStarted({ ...ref('render', 'template', 1), startedAt: at });
    const refused = { ...ref('render', 'template', 1), startedAt: at, durationMs: 1 };
    await expect(
      journal.nodeFinished({ ...refused, outcome: success({ text: 'a\u0000b' }) }),
    ).rejects.toBeInstanceOf(OutputNotStorableError);
    // The engine then records the node failed (execute-run.ts recordFinished): held rows go with it.
    await journal.nodeFinished({
      ...refused,
      outcome: {
        status: 'failed',
        outputs: {},
        error: { code: 1002, message: 'not storable', data: { reason: 'output_not_storable' } },
      },
    });
    await journal.nodeStarted({ ...ref('fetch', 'http_request', 2), startedAt: at });
    const written = await rows(runId);
    expect(written.nodes.map((n) => `${n.node_id}:${n.status}`)).toEqual([
      'start:success',
      'render:failed',
      'fetch:running',
    ]);
    expect(written.events.map((e) => e.split(':')[0])).toEqual(['1', '2', '3', '4', '5']);
  });
});
