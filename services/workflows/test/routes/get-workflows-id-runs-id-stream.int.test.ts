// GET /workflows/{workflow_id}/runs/{run_id}/stream (gateway routes/workflow-runs-routes.ts): the
// run's events as SSE, replay, live tail, resume, the error event, refusals before streaming, and
// the security cases. Starting and reading runs: post-workflows-id-run-and-get-runs; streams under
// limits and revocation: ../runs/run-followers; a gateway draining mid-stream:
// ../runs/run-stream-gateway-drain.
import { withTransaction } from '@platform/db';
import { openSse } from '@platform/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { appendEvent } from '../../src/data/run-events.js';
import { linear } from '../support/definitions.js';
import { insertHeldRun } from '../support/held-run.js';
import type { TestUser, WorkflowsHarness } from '../support/harness.js';
import { describeRouteSecurity } from '../support/route-security.js';
import { useWorkflowsHarness } from '../support/route-suite.js';
import { publishedWorkflow } from '../support/workflow-calls.js';

// The SSE route: the gateway authenticates, then streams the workflows service's gRPC server
// stream through. Resuming with Last-Event-ID is exact (no gap, no duplicate), across gateways.
let harness: WorkflowsHarness;
let { owner, stranger } = {} as Record<'owner' | 'stranger', TestUser>;
let workflowId: string;

useWorkflowsHarness(
  async (started) => {
    harness = started;
    [owner, stranger] = await Promise.all([
      harness.createUser({ name: 'streamer' }),
      harness.createUser({ name: 'stranger' }),
    ]);
    workflowId = await publishedWorkflow(harness, owner, 'stream', linear());
  },
  { RUN_WORKER_ENABLED: 'true' },
);

const auth = (user: TestUser) => ({ authorization: `Bearer ${user.token}` });
const streamUrl = (base: string, runId: string) =>
  `${base}/api/v1/workflows/${workflowId}/runs/${runId}/stream`;

/** A run row held by a fake worker `test-writer`, so the test appends events itself, live. */
const heldRun = () => insertHeldRun(harness.workflows.dependencies.pool, workflowId, owner.id);

const append = (runId: string, type: string, data: Record<string, unknown> = {}) =>
  withTransaction(harness.workflows.dependencies.pool, (client) =>
    appendEvent(client, runId, { owner: 'test-writer' }, type, data),
  );

describe('GET /workflows/{workflow_id}/runs/{run_id}/stream (SSE)', () => {
  it('replays a finished run from the start and closes', async () => {
    const started = await harness.request('POST', `/workflows/${workflowId}/run`, {
      token: owner.token,
      json: { inputs: { name: 'Eve' }, wait: true },
    });
    expect(started.body.data.status).toBe('success');
    const sse = await openSse(`${harness.baseUrl}/api/v1${started.body.data.stream_url}`, auth(owner));
    expect([sse.status, sse.contentType]).toEqual([200, 'text/event-stream; charset=utf-8']);
    await sse.ended;
    expect(sse.events.map((e) => e.id)).toEqual(sse.events.map((_, i) => String(i + 1)));
    expect(sse.events.map((e) => e.event)).toEqual([
      'run_started',
      'node_started',
      'node_finished',
      'node_started',
      'node_finished',
      'node_started',
      'node_finished',
      'run_finished',
    ]);
    expect(JSON.parse(sse.events.at(-1)!.data)).toMatchObject({
      status: 'success',
      outputs: { greeting: 'Hello Eve' },
    });
    // Resuming after event 5 gives exactly 6..8.
    const resumed = await openSse(`${harness.baseUrl}/api/v1${started.body.data.stream_url}`, {
      ...auth(owner),
      'last-event-id': '5',
    });
    await resumed.ended;
    expect(resumed.events.map((e) => e.id)).toEqual(['6', '7', '8']);
  });

  it('tails a live run, and a reconnect through another gateway resumes with no gap and no duplicate', async () => {
    const runId = await heldRun();
    const other = await harness.startGateway();
    const first = await openSse(streamUrl(other.baseUrl, runId), auth(owner));
    await append(runId, 'run_started', { attempt: 1 });
    await append(runId, 'node_started', { node_id: 'a' });
    await first.waitFor(2);
    // The gateway the client was on goes away mid-stream; meanwhile the run goes on.
    await other.close();
    await first.ended;
    const lastId = first.events.at(-1)!.id!;
    await append(runId, 'node_finished', { node_id: 'a' });
    await append(runId, 'text_chunk', { node_id: 'a', text: 'hi' });
    const second = await openSse(streamUrl(harness.baseUrl, runId), {
      ...auth(owner),
      'last-event-id': lastId,
    });
    await second.waitFor(2);
    // Concurrent writes while connected arrive live, in order.
    await Promise.all([append(runId, 'text_chunk', { text: 'x' }), second.waitFor(3)]);
    await append(runId, 'run_finished', { status: 'success' });
    await second.ended;
    const seen = [...first.events, ...second.events].map((e) => Number(e.id));
    expect(seen).toEqual([1, 2, 3, 4, 5, 6]);
    expect(second.events.at(-1)!.event).toBe('run_finished');
  });

  it('ends with an error event (no id) when the service behind it fails mid-stream; a reconnect resumes', async () => {
    const runId = await heldRun();
    const sse = await openSse(streamUrl(harness.baseUrl, runId), auth(owner));
    await append(runId, 'run_started', {});
    await sse.waitFor(1);
    // Postgres refuses the stream's next read: the service's handler fails after headers went out.
    await harness.workflows.dependencies.pool.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid() AND query LIKE 'LISTEN%'`,
    );
    await harness.workflows.dependencies.pool.query(
      `ALTER TABLE workflow_run_events RENAME TO workflow_run_events_x`,
    );
    try {
      await append(runId, 'node_started', {}).catch(() => undefined);
      await sse.ended;
    } finally {
      await harness.workflows.dependencies.pool.query(
        `ALTER TABLE workflow_run_events_x RENAME TO workflow_run_events`,
      );
    }
    const error = sse.events.at(-1)!;
    expect(error.event).toBe('error');
    expect(error.id).toBeUndefined();
    expect(JSON.parse(error.data)).toMatchObject({ code: expect.any(Number), msg: expect.any(String) });
    await append(runId, 'run_finished', {});
    const again = await openSse(streamUrl(harness.baseUrl, runId), { ...auth(owner), 'last-event-id': '1' });
    await again.ended;
    expect(again.events.map((e) => [e.id, e.event])).toEqual([['2', 'run_finished']]);
  });

  it('refuses before streaming: bad Last-Event-ID, unknown run, another user, bad ids', async () => {
    const runId = await heldRun();
    const badId = await openSse(streamUrl(harness.baseUrl, runId), {
      ...auth(owner),
      'last-event-id': 'abc',
    });
    expect([badId.status, (badId.body as { code: number }).code]).toEqual([422, 1001]);
    const badQuery = await openSse(`${streamUrl(harness.baseUrl, runId)}?last_event_id=-1`, auth(owner));
    expect([badQuery.status, (badQuery.body as { code: number }).code]).toEqual([422, 1001]);
    const unknown = await openSse(
      streamUrl(harness.baseUrl, '00000000-0000-4000-8000-000000000000'),
      auth(owner),
    );
    expect([unknown.status, (unknown.body as { code: number }).code]).toEqual([404, 4000]);
    const foreign = await openSse(streamUrl(harness.baseUrl, runId), auth(stranger));
    expect([foreign.status, (foreign.body as { code: number }).code]).toEqual([404, 4000]);
    const malformed = await openSse(
      `${harness.baseUrl}/api/v1/workflows/${workflowId}/runs/nope/stream`,
      auth(owner),
    );
    expect([malformed.status, (malformed.body as { code: number }).code]).toEqual([422, 1001]);
    const anonymous = await openSse(streamUrl(harness.baseUrl, runId));
    expect(anonymous.status).toBe(401);
  });
});

describe('the stream of a finished run', () => {
  let finishedRun: string;
  beforeAll(async () => {
    finishedRun = await heldRun();
    await append(finishedRun, 'run_finished', { status: 'success' });
  });

  // Were a refused caller let through, the stream would answer (and end: the run is finished) with
  // events, not an envelope, and the table would fail.
  describeRouteSecurity('GET /workflows/{workflow_id}/runs/{run_id}/stream', () => ({
    harness,
    routes: [['GET', `/workflows/${workflowId}/runs/${finishedRun}/stream`]],
  }));
});
