import { withTransaction } from '@platform/db';
import {
  startFailoverProxy,
  startGatewayProcess,
  type FailoverProxy,
  type GatewayProcess,
} from '@platform/testing';
import { EventSource } from 'eventsource';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendEvent } from '../../src/data/run-events.js';
import { linear } from '../support/definitions.js';
import { insertHeldRun } from '../support/held-run.js';
import { startWorkflowsHarness, type TestUser, type WorkflowsHarness } from '../support/harness.js';

// Issue 23: a gateway replica that gets SIGTERM mid-stream. Two BUILT gateways (their own main.ts,
// signal handling included) behind a proxy that sends each new connection to the first replica
// that accepts it; a real EventSource client (the `eventsource` package) streams a live run
// through the proxy. The replica serving it answers not-ready at once, keeps serving through its
// drain window, then sends the stream away with a `retry:` hint and exits 0; the client comes back
// through the proxy to the other replica with Last-Event-ID and sees every event exactly once.
const DRAIN_MS = 3_000;
const TIMEOUT_MS = 2_000;
const RETRY_MS = 200;
/** Polls end as soon as they hold; the bound only matters on a loaded machine. */
const SOON = { timeout: 10_000 };

let harness: WorkflowsHarness;
let owner: TestUser;
let workflowId: string;
let replicas: GatewayProcess[] = [];
let proxy: FailoverProxy;

beforeAll(async () => {
  harness = await startWorkflowsHarness();
  owner = await harness.createUser({ name: 'drain-streamer' });
  const created = await harness.request('POST', '/workflows', {
    token: owner.token,
    json: { name: 'drain', definition: linear() },
  });
  workflowId = String(created.body.data.id);
  const env = {
    IDENTITY_GRPC_ADDR: harness.identity.address,
    WORKFLOWS_GRPC_ADDR: harness.workflowsAddress,
    APIKEYS_GRPC_ADDR: '127.0.0.1:50062',
    NOTIFICATIONS_GRPC_ADDR: '127.0.0.1:50063',
    MODELS_GRPC_ADDR: '127.0.0.1:50064',
    OBSERVABILITY_GRPC_ADDR: '127.0.0.1:50066',
    SHUTDOWN_DRAIN_MS: String(DRAIN_MS),
    SHUTDOWN_TIMEOUT_MS: String(TIMEOUT_MS),
    SSE_RETRY_MS: String(RETRY_MS),
  };
  replicas = await Promise.all([startGatewayProcess(env), startGatewayProcess(env)]);
  proxy = await startFailoverProxy(replicas.map((replica) => new URL(replica.baseUrl).host));
}, 120_000);

afterAll(async () => {
  await proxy?.close();
  await Promise.all(replicas.map((replica) => replica.stop()));
  await harness?.stop();
});

const append = (runId: string, type: string, data: Record<string, unknown> = {}) =>
  withTransaction(harness.workflows.dependencies.pool, (client) =>
    appendEvent(client, runId, { owner: 'test-writer' }, type, data),
  );

const EVENT_TYPES = ['run_started', 'node_started', 'text_chunk', 'node_finished', 'run_finished'];

/** An EventSource on `url` with the owner's token; what it received and each connection's Last-Event-ID. */
function followRun(url: string) {
  const received: { id: string; event: string }[] = [];
  const resumedFrom: (string | null)[] = [];
  const source = new EventSource(url, {
    fetch: (input, init) => {
      const headers = new Headers(init.headers);
      resumedFrom.push(headers.get('last-event-id'));
      headers.set('authorization', `Bearer ${owner.token}`);
      return fetch(input, { ...init, headers });
    },
  });
  for (const type of EVENT_TYPES) {
    source.addEventListener(type, (event) => {
      received.push({ id: event.lastEventId, event: type });
      // A finished run's stream ends for good; without close() the client would keep coming back.
      if (type === 'run_finished') source.close();
    });
  }
  return { source, received, resumedFrom };
}

async function get(baseUrl: string, path: string, token?: string) {
  const response = await fetch(`${baseUrl}/api/v1${path}`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  const body = (await response.json()) as { code: number; data: Record<string, unknown> | null };
  return { status: response.status, connection: response.headers.get('connection'), body };
}

describe('gateway SIGTERM mid-stream (two replicas behind a balancer)', () => {
  it('goes not-ready at once, serves through the drain window, sends the stream away; the client resumes on the other replica', async () => {
    const [first, second] = replicas as [GatewayProcess, GatewayProcess];
    for (const replica of replicas) {
      expect((await get(replica.baseUrl, '/health/ready')).body).toMatchObject({
        code: 0,
        data: { status: 'ready' },
      });
    }
    const runId = await insertHeldRun(harness.workflows.dependencies.pool, workflowId, owner.id);
    const streamPath = `/workflows/${workflowId}/runs/${runId}/stream`;
    const client = followRun(`${proxy.baseUrl}/api/v1${streamPath}`);
    await append(runId, 'run_started', { attempt: 1 });
    await append(runId, 'node_started', { node_id: 'a' });
    await expect.poll(() => client.received.length, SOON).toBe(2);
    expect(proxy.routed).toEqual([0]);

    const signalledAt = performance.now();
    first.kill('SIGTERM');
    // Readiness turns at once; liveness (the spec's /health) does not.
    await expect
      .poll(async () => (await get(first.baseUrl, '/health/ready')).status, { interval: 20, timeout: 2_000 })
      .toBe(503);
    const notReadyAfterMs = Math.round(performance.now() - signalledAt);
    expect((await get(first.baseUrl, '/health/ready')).body).toMatchObject({
      code: 1003,
      data: { error_key: 'shutting_down' },
    });
    expect(await get(first.baseUrl, '/health')).toMatchObject({
      status: 200,
      body: { data: { status: 'healthy' } },
    });
    // Ordinary requests are still served, each telling the client not to keep the connection.
    const during = await get(first.baseUrl, `/workflows/${workflowId}`, owner.token);
    expect([during.status, during.body.code, during.body.data?.id, during.connection]).toEqual([
      200,
      0,
      workflowId,
      'close',
    ]);
    // A new stream on the draining replica is accepted and sent away at once (not a 503, which
    // would end an EventSource for good).
    const bounced = await fetch(`${first.baseUrl}/api/v1${streamPath}`, {
      headers: { authorization: `Bearer ${owner.token}`, 'last-event-id': '2' },
    });
    expect([bounced.status, bounced.headers.get('content-type')]).toEqual([
      200,
      'text/event-stream; charset=utf-8',
    ]);
    expect(await bounced.text()).toMatch(/^retry: \d+\n: shutting down, reconnect\n\n$/);
    // The open stream still flows through the draining replica.
    await append(runId, 'text_chunk', { text: 'during the drain' });
    await expect.poll(() => client.received.length, { timeout: DRAIN_MS }).toBe(3);
    expect(proxy.routed).toEqual([0]);
    expect(performance.now() - signalledAt).toBeLessThan(DRAIN_MS);

    // Written while the client is between replicas: it must come with the resume, once.
    const exitCode = await first.exited;
    const exitedAfterMs = Math.round(performance.now() - signalledAt);
    await append(runId, 'node_finished', { node_id: 'a' });
    expect(exitCode).toBe(0);
    expect(exitedAfterMs).toBeGreaterThanOrEqual(DRAIN_MS);
    expect(exitedAfterMs).toBeLessThan(DRAIN_MS + TIMEOUT_MS);

    await expect.poll(() => proxy.routed, SOON).toEqual([0, 1]);
    expect(client.resumedFrom).toEqual([null, '3']);
    await expect.poll(() => client.received.length, SOON).toBe(4);
    await append(runId, 'text_chunk', { text: 'after' });
    await append(runId, 'run_finished', { status: 'success' });
    await expect.poll(() => client.received.length, SOON).toBe(6);
    expect(client.received).toEqual([
      { id: '1', event: 'run_started' },
      { id: '2', event: 'node_started' },
      { id: '3', event: 'text_chunk' },
      { id: '4', event: 'node_finished' },
      { id: '5', event: 'text_chunk' },
      { id: '6', event: 'run_finished' },
    ]);
    expect((await get(second.baseUrl, '/health/ready')).status).toBe(200);
    // What the k8s part sizes terminationGracePeriodSeconds from (the drain window plus this).
    process.stdout.write(
      `gateway drain: not ready after ${notReadyAfterMs} ms, exit 0 after ${exitedAfterMs} ms ` +
        `(SHUTDOWN_DRAIN_MS ${DRAIN_MS}: ${exitedAfterMs - DRAIN_MS} ms to close)\n`,
    );
  });
});
