import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metricsRegistry, withSpan } from '@platform/telemetry';
import { captureSpans } from '@platform/testing';
import { OutboundBlockedError, outboundRequest } from '../src/index.js';
import { startServer, type LoopbackServer } from './support/loopback-server.js';

const capture = captureSpans();
const spans = { finished: () => capture.spans() };
const policy = { allowlist: [] as string[], requireAllowlisted: false, resolve: undefined };
const open = { ...policy, allowlist: () => [server.origin] };
let server: LoopbackServer;

async function sampleCount(purpose: string, outcome: string): Promise<number> {
  const metric = await metricsRegistry.getSingleMetric('outbound_http_request_duration_seconds')!.get();
  const count = (
    metric.values as { metricName?: string; labels: Record<string, unknown>; value: number }[]
  ).find(
    (v) =>
      v.metricName === 'outbound_http_request_duration_seconds_count' &&
      v.labels.purpose === purpose &&
      v.labels.outcome === outcome,
  );
  return count?.value ?? 0;
}

const lastSpan = () => spans.finished().at(-1)!;

beforeAll(async () => {
  server = await startServer((req, res) => {
    res.statusCode = req.url?.startsWith('/missing') ? 404 : 200;
    res.end('answer');
  });
});
afterAll(() => server.close());

describe('outbound requests: a CLIENT span and a duration sample by purpose and outcome', () => {
  it('a success: span with method, host, port and status, no path or query; no traceparent sent', async () => {
    const before = await sampleCount('llm', 'ok');
    await withSpan('caller', {}, () =>
      outboundRequest(`http://user:pw@127.0.0.1:${server.port}/v1/chat?key=secret`, { purpose: 'llm' }, open),
    );
    expect(await sampleCount('llm', 'ok')).toBe(before + 1);
    const span = spans.finished().find((s) => s.name === 'GET')!;
    expect(span.attributes).toMatchObject({
      'http.request.method': 'GET',
      'server.address': '127.0.0.1',
      'server.port': server.port,
      'http.response.status_code': 200,
      'outbound.purpose': 'llm',
      'outbound.outcome': 'ok',
    });
    // A child of the active span; nothing names the path, the query or the credentials.
    const caller = spans.finished().find((s) => s.name === 'caller')!;
    expect(span.parentSpanContext?.spanId).toBe(caller.spanContext().spanId);
    expect(JSON.stringify(span.attributes)).not.toMatch(/secret|chat|pw/);
    expect(server.requests.at(-1)!.headers.traceparent).toBeUndefined();
  });

  it('propagateTrace sends the span own traceparent (for servers we run)', async () => {
    await withSpan('caller', {}, () =>
      outboundRequest(`${server.origin}/ours`, { purpose: 'other', propagateTrace: true }, open),
    );
    const span = spans.finished().at(-2)!;
    expect(span.name).toBe('GET');
    expect(server.requests.at(-1)!.headers.traceparent).toBe(
      `00-${span.spanContext().traceId}-${span.spanContext().spanId}-01`,
    );
  });

  it('an error status is http_error; a refused target is refused; a closed port is network_error', async () => {
    const httpBefore = await sampleCount('http_request', 'http_error');
    await outboundRequest(`${server.origin}/missing`, { purpose: 'http_request' }, open);
    expect(await sampleCount('http_request', 'http_error')).toBe(httpBefore + 1);
    expect(lastSpan().status.code).toBe(2);

    const refusedBefore = await sampleCount('webhook', 'refused');
    await expect(
      outboundRequest('http://169.254.169.254/latest?token=x', { purpose: 'webhook' }, policy),
    ).rejects.toBeInstanceOf(OutboundBlockedError);
    expect(await sampleCount('webhook', 'refused')).toBe(refusedBefore + 1);
    expect(lastSpan().status.message).toBe('outbound request failed: metadata_address');

    const closed = await startServer();
    const address = closed.origin;
    await closed.close();
    const networkBefore = await sampleCount('slack', 'network_error');
    await expect(
      outboundRequest(`${address}/x`, { purpose: 'slack' }, { ...policy, allowlist: () => [address] }),
    ).rejects.toThrow();
    expect(await sampleCount('slack', 'network_error')).toBe(networkBefore + 1);
  });

  it('a timeout is timeout', async () => {
    const slow = await startServer((_req, res) => setTimeout(() => res.end('late'), 1_000));
    const before = await sampleCount('model_check', 'timeout');
    await expect(
      outboundRequest(
        `${slow.origin}/slow`,
        { purpose: 'model_check' },
        { ...policy, allowlist: () => [slow.origin], timeoutMs: 100 },
      ),
    ).rejects.toMatchObject({ reason: 'timeout' });
    expect(await sampleCount('model_check', 'timeout')).toBe(before + 1);
    await slow.close();
  });
});
