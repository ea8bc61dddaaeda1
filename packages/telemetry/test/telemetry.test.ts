import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createLogger } from '@platform/logger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  counter,
  currentTraceIds,
  extractTraceContext,
  histogram,
  initMetrics,
  initTracing,
  injectTraceContext,
  startMetricsServer,
  startSpan,
  withSpan,
  type MetricsServer,
  type Tracing,
} from '../src/index.js';

const logger = createLogger('telemetry-test', 'silent');

/** A stand-in OTLP/HTTP collector: records what the exporter posts to /v1/traces. */
function startCollector(): Promise<{ server: Server; url: string; bodies: Buffer[]; types: string[] }> {
  const bodies: Buffer[] = [];
  const types: string[] = [];
  const server = createServer((request: IncomingMessage, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.url === '/v1/traces') {
        bodies.push(Buffer.concat(chunks));
        types.push(String(request.headers['content-type']));
      }
      response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address() as { port: number };
      resolve({ server, url: `http://127.0.0.1:${address.port}`, bodies, types });
    }),
  );
}

describe('metrics', () => {
  let metrics: MetricsServer;
  beforeAll(async () => {
    initMetrics('telemetry-test');
    metrics = await startMetricsServer({ port: 0, host: '127.0.0.1', logger });
  });
  afterAll(() => metrics.close());

  it('serves the registry on its own port with the service label, and nothing else there', async () => {
    counter({ name: 'telemetry_test_things_total', help: 'test', labelNames: ['kind'] as const }).inc({
      kind: 'a',
    });
    const body = await (await fetch(`http://127.0.0.1:${metrics.port}/metrics`)).text();
    expect(body).toContain('telemetry_test_things_total{kind="a",service="telemetry-test"} 1');
    expect(body).toContain('nodejs_eventloop_lag_p99_seconds');
    expect((await fetch(`http://127.0.0.1:${metrics.port}/`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${metrics.port}/metrics`, { method: 'POST' })).status).toBe(404);
  });

  it('hands out the registered metric when asked twice (modules loaded twice share it)', () => {
    const first = histogram({ name: 'telemetry_test_seconds', help: 'test' });
    expect(histogram({ name: 'telemetry_test_seconds', help: 'test' })).toBe(first);
  });

  it('says clearly when its port is taken', async () => {
    await expect(startMetricsServer({ port: metrics.port, host: '127.0.0.1', logger })).rejects.toThrow(
      /METRICS_PORT/,
    );
  });
});

describe('tracing (parent-based ratio sampling, OTLP export)', () => {
  let collector: Awaited<ReturnType<typeof startCollector>>;
  let tracing: Tracing;
  beforeAll(async () => {
    collector = await startCollector();
    // Ratio 0: no new root is recorded, but a child of a sampled parent always is.
    tracing = initTracing({ service: 'telemetry-test', endpoint: collector.url, sampleRatio: 0, logger });
  });
  afterAll(async () => {
    await tracing.shutdown();
    collector.server.close();
  });

  it('records no new root at ratio 0, yet passes its ids on', async () => {
    await withSpan('unsampled-root', {}, async (span) => {
      expect(span.isRecording()).toBe(false);
      const carrier: Record<string, string> = {};
      injectTraceContext(carrier);
      expect(carrier.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-00$/);
      expect(currentTraceIds()?.traceId).toBe(span.spanContext().traceId);
    });
  });

  it('records and exports the child of a sampled remote parent, in the same trace', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const parent = extractTraceContext({ traceparent: `00-${traceId}-00f067aa0ba902b7-01` });
    const span = startSpan('sampled-child-of-remote', { parent });
    expect(span.isRecording()).toBe(true);
    expect(span.spanContext().traceId).toBe(traceId);
    span.end();
    await tracing.shutdown(); // flushes the batch
    const exported = Buffer.concat(collector.bodies);
    expect(collector.types[0]).toBe('application/x-protobuf');
    expect(exported.includes(Buffer.from('sampled-child-of-remote'))).toBe(true);
    expect(exported.includes(Buffer.from(traceId, 'hex'))).toBe(true);
    expect(exported.includes(Buffer.from('unsampled-root'))).toBe(false);
  });

  it('treats a broken traceparent as none', () => {
    const span = startSpan('after-garbage', { parent: extractTraceContext({ traceparent: 'garbage' }) });
    expect(span.spanContext().traceId).not.toMatch(/^0+$/);
    span.end();
  });
});
