import { createLogger } from '@platform/logger';
import {
  extractTraceContext,
  initTracing,
  metricsRegistry,
  NOOP_SPAN,
  setTelemetryEnabled,
} from '@platform/telemetry';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  addTraceHeaders,
  consumerSpan,
  countConsumed,
  countProduced,
  producerSpan,
} from '../src/message-telemetry.js';

const topic = `switch-test-${Date.now()}`;
const PARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

async function total(name: string): Promise<number> {
  const metric = metricsRegistry.getSingleMetric(name);
  if (!metric) return 0;
  const { values } = await metric.get();
  return values.filter((v) => v.labels.topic === topic).reduce((sum, v) => sum + v.value, 0);
}

describe('Kafka message telemetry and TELEMETRY_ENABLED', () => {
  // W3C propagation installed (no exporter), so a traceparent can be written at all.
  beforeAll(() =>
    initTracing({ service: 'switch-test', sampleRatio: 1, logger: createLogger('t', 'silent') }),
  );
  afterEach(() => setTelemetryEnabled(true));

  it('on: counters move and the sender’s trace context goes into the headers', async () => {
    countProduced(topic, 'ok', 2);
    countConsumed(topic, 'group', 'handled');
    expect(await total('kafka_messages_produced_total')).toBe(2);
    expect(await total('kafka_messages_consumed_total')).toBe(1);
    const headers: Record<string, string> = {};
    addTraceHeaders(headers, extractTraceContext({ traceparent: PARENT }));
    expect(headers.traceparent).toBe(PARENT);
  });

  it('off: no counter moves, spans are NOOP_SPAN and no traceparent is added', async () => {
    setTelemetryEnabled(false);
    const [produced, consumed] = [
      await total('kafka_messages_produced_total'),
      await total('kafka_messages_consumed_total'),
    ];
    countProduced(topic, 'ok', 2);
    countConsumed(topic, 'group', 'handled');
    expect(await total('kafka_messages_produced_total')).toBe(produced);
    expect(await total('kafka_messages_consumed_total')).toBe(consumed);
    expect(producerSpan(topic)).toBe(NOOP_SPAN);
    const message = { topic, partition: 0, offset: '0', headers: { traceparent: PARENT } };
    expect(consumerSpan(message, 'group').span).toBe(NOOP_SPAN);
    const headers: Record<string, string> = {};
    addTraceHeaders(headers, extractTraceContext({ traceparent: PARENT }));
    expect(headers).toEqual({});
  });
});
