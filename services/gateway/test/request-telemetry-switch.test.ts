import { createLogger } from '@platform/logger';
import { metricsRegistry, setTelemetryEnabled } from '@platform/telemetry';
import { listen, type RunningHttp } from '@platform/testing';
import { Writable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createGatewayApp, healthRoutes } from '../src/index.js';

// The access log, captured: it is written whether telemetry is on or off.
const lines: Array<Record<string, unknown>> = [];
const sink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const text of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(text));
    done();
  },
});
let http: RunningHttp;

beforeAll(async () => {
  const logger = createLogger('gateway-test', 'info', sink);
  http = await listen(createGatewayApp({ logger, routes: healthRoutes, clients: {}, bodyLimitBytes: 1024 }));
});
afterAll(() => http.close());
afterEach(() => setTelemetryEnabled(true));

/** Observations of the request histogram on the health route (the only route of this app). */
async function observed(): Promise<number> {
  const metric = metricsRegistry.getSingleMetric('http_server_request_duration_seconds');
  if (!metric) return 0;
  const values = (await metric.get()).values as Array<{
    metricName?: string;
    labels: Record<string, string | number>;
    value: number;
  }>;
  return values
    .filter((v) => v.metricName?.endsWith('_count') && v.labels.route === '/api/v1/health')
    .reduce((sum, v) => sum + v.value, 0);
}

async function healthRequest(requestId: string) {
  const response = await fetch(`${http.baseUrl}/api/v1/health`, { headers: { 'x-request-id': requestId } });
  expect(response.status).toBe(200);
  await response.arrayBuffer();
  // The access log and the histogram are written on 'finish', after the answer was sent: the
  // histogram first, in the same listener, so the log line's arrival means both are done.
  await expect.poll(() => logged(requestId)).toBeDefined();
}

function logged(requestId: string) {
  return lines.find((l) => l.request_id === requestId && l.msg === 'request');
}

describe('gateway request telemetry and TELEMETRY_ENABLED', () => {
  it('on: the request is observed in the histogram and logged', async () => {
    const before = await observed();
    await healthRequest('switch-on');
    expect(await observed()).toBe(before + 1);
    expect(logged('switch-on')).toMatchObject({ route: '/health', status: 200 });
  });

  it('off: no histogram observation, but the access log line is still written', async () => {
    setTelemetryEnabled(false);
    const before = await observed();
    await healthRequest('switch-off');
    expect(await observed()).toBe(before);
    expect(logged('switch-off')).toMatchObject({ route: '/health', status: 200 });
  });
});
