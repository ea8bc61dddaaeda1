import { Metadata, status } from '@grpc/grpc-js';
import { metricsRegistry, setTelemetryEnabled } from '@platform/telemetry';
import { afterEach, describe, expect, it } from 'vitest';
import { trackClientCall, trackServerCall } from '../src/call-telemetry.js';

async function observations(name: string, grpcService: string): Promise<number> {
  const metric = metricsRegistry.getSingleMetric(name);
  if (!metric) return 0;
  // A histogram's values name their series (`_bucket`, `_sum`, `_count`).
  const values = (await metric.get()).values as Array<{
    metricName?: string;
    labels: Record<string, string | number>;
    value: number;
  }>;
  return values
    .filter((v) => v.metricName === `${name}_count` && v.labels.grpc_service === grpcService)
    .reduce((sum, v) => sum + v.value, 0);
}

describe('gRPC call telemetry and TELEMETRY_ENABLED', () => {
  afterEach(() => setTelemetryEnabled(true));

  it('records both sides when on, and nothing (no histogram, no metadata) when off', async () => {
    const service = `switch.test.v1.S${Date.now()}`;
    trackClientCall(service, 'Get', new Metadata()).finish(status.OK);
    trackServerCall(`${service}/Get`, new Metadata()).finish(status.NOT_FOUND);
    expect(await observations('grpc_client_handling_seconds', service)).toBe(1);
    expect(await observations('grpc_server_handling_seconds', service)).toBe(1);

    setTelemetryEnabled(false);
    const metadata = new Metadata();
    const call = trackClientCall(service, 'Get', metadata);
    expect(call.run(() => 42)).toBe(42);
    call.finish(status.OK);
    trackServerCall(`${service}/Get`, new Metadata()).finish(status.OK);
    expect(metadata.get('traceparent')).toEqual([]);
    expect(call.span.isRecording()).toBe(false);
    expect(await observations('grpc_client_handling_seconds', service)).toBe(1);
    expect(await observations('grpc_server_handling_seconds', service)).toBe(1);
  });
});
