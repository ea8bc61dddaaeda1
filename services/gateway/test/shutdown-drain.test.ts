import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogger } from '@platform/logger';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createGatewayApp, defineRoute, drainAndClose, healthRoutes, ShutdownDrain } from '../src/index.js';
import type { SseEvent } from '../src/routes/route-definition.js';

// The SIGTERM sequence on a real HTTP server in-process: readiness first, requests served through
// the drain window, streams sent away with `retry:`, requests in flight finished (or cut at the
// bound), idle keep-alive connections closed. The two-replica EventSource test is
// services/workflows/test/runs/run-stream-gateway-drain.int.test.ts.
const logger = createLogger('shutdown-test', 'silent');

/** Events the test pushes into the one stream route; it never ends by itself. */
function eventFeed() {
  const waiting: ((event: SseEvent) => void)[] = [];
  const queued: SseEvent[] = [];
  return {
    push(event: SseEvent) {
      const taker = waiting.shift();
      if (taker) taker(event);
      else queued.push(event);
    },
    async *events(): AsyncIterable<SseEvent> {
      yield { open: true };
      for (;;) yield queued.shift() ?? (await new Promise<SseEvent>((resolve) => waiting.push(resolve)));
    },
  };
}

let release: () => void = () => undefined;
let arrived: () => void = () => undefined;
/** Resolves once the next `/slow` request is in its handler. */
const nextSlowArrival = () => new Promise<void>((resolve) => (arrived = resolve));
const feed = eventFeed();
const routes = [
  ...healthRoutes,
  defineRoute({
    method: 'get',
    path: '/feed',
    summary: 'test stream',
    tags: ['test'],
    auth: 'public',
    response: z.unknown(),
    invoke: () => Promise.reject(new Error('a stream')),
    events: () => feed.events(),
  }),
  defineRoute({
    method: 'get',
    path: '/slow',
    summary: 'answers when the test releases it',
    tags: ['test'],
    auth: 'public',
    response: z.object({ done: z.boolean() }),
    invoke: () =>
      new Promise<{ done: boolean }>((resolve) => {
        release = () => resolve({ done: true });
        arrived();
      }),
  }),
];

let server: Server | undefined;
const DRAIN_MS = 1_500;

async function start(drain: ShutdownDrain): Promise<string> {
  server = createServer(createGatewayApp({ logger, routes, clients: {}, drain }));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
}

afterEach(() => {
  server?.closeAllConnections();
  server?.close();
});

/** Reads a stream's text as it arrives (`text()`) and until it ends (`ended`). */
function reader(response: Response) {
  const chunks: string[] = [];
  const decoder = new TextDecoder();
  const ended = (async () => {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      chunks.push(decoder.decode(chunk));
    }
    return chunks.join('');
  })();
  return { text: () => chunks.join(''), ended };
}

describe('gateway shutdown drain', () => {
  it('answers not-ready at once, serves through the window, then sends the stream away and closes', async () => {
    const drain = new ShutdownDrain(500);
    const base = await start(drain);
    expect((await fetch(`${base}/health/ready`)).status).toBe(200);
    const stream = await fetch(`${base}/feed`);
    const streamed = reader(stream);
    feed.push({ id: 1, event: 'tick', data: '{}' });
    const slowArrived = nextSlowArrival();
    const inFlight = fetch(`${base}/slow`);
    await slowArrived;
    await expect.poll(() => drain.openStreams).toBe(1);

    const signalledAt = performance.now();
    const closing = drainAndClose(server!, drain, { drainMs: DRAIN_MS, timeoutMs: 5_000 });
    const ready = await fetch(`${base}/health/ready`);
    expect([ready.status, ready.headers.get('connection')]).toEqual([503, 'close']);
    expect(await ready.json()).toMatchObject({ code: 1003, data: { error_key: 'shutting_down' } });
    expect(await (await fetch(`${base}/health`)).json()).toMatchObject({
      code: 0,
      data: { status: 'healthy' },
    });
    // A new stream is accepted and sent away; the open one still flows until the window ends.
    const bounced = await fetch(`${base}/feed`, { headers: { 'last-event-id': '1' } });
    expect([bounced.status, bounced.headers.get('connection')]).toEqual([200, 'close']);
    expect(await reader(bounced).ended).toMatch(/^retry: (\d+)\n: shutting down, reconnect\n\n$/);
    feed.push({ id: 2, event: 'tick', data: '{}' });
    await expect.poll(() => streamed.text()).toContain('id: 2');
    expect(performance.now() - signalledAt).toBeLessThan(DRAIN_MS);

    const text = await streamed.ended;
    expect(text).toMatch(/^id: 1\nevent: tick\ndata: \{\}\n\nid: 2\nevent: tick\ndata: \{\}\n\nretry: \d+\n/);
    const hint = Number(/retry: (\d+)/.exec(text)![1]);
    expect(hint).toBeGreaterThanOrEqual(500);
    expect(hint).toBeLessThanOrEqual(1_000);
    // Begun before the signal: it still gets its answer after the window.
    release();
    expect(await (await inFlight).json()).toMatchObject({ code: 0, data: { done: true } });
    const report = await closing;
    expect(report).toMatchObject({ streamsSentAway: 1, connectionsCut: false });
    expect(report.elapsedMs).toBeGreaterThanOrEqual(DRAIN_MS);
    // Idle keep-alive connections (fetch keeps them) did not hold the close for their 65 s.
    expect(report.elapsedMs).toBeLessThan(DRAIN_MS + 2_000);
    expect(server!.listening).toBe(false);
  });

  it('cuts a request still in flight at SHUTDOWN_TIMEOUT_MS', async () => {
    const drain = new ShutdownDrain(100);
    const base = await start(drain);
    const slowArrived = nextSlowArrival();
    const stuck = fetch(`${base}/slow`).then(
      () => 'answered',
      () => 'cut',
    );
    await slowArrived;
    const report = await drainAndClose(server!, drain, { drainMs: 0, timeoutMs: 200 });
    expect(report.connectionsCut).toBe(true);
    expect(await stuck).toBe('cut');
    release();
  });

  it('ends the drain window at once on a second signal', async () => {
    const drain = new ShutdownDrain(100);
    await start(drain);
    const hurry = new AbortController();
    const closing = drainAndClose(server!, drain, { drainMs: 60_000, timeoutMs: 1_000, hurry: hurry.signal });
    hurry.abort();
    expect((await closing).elapsedMs).toBeLessThan(1_000);
  });
});
