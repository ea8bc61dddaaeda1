import { describe, expect, it } from 'vitest';
import { metricValue, parseMetrics } from '../src/metrics-scrape.js';

const TEXT = `# HELP x_total a counter
# TYPE x_total counter
x_total{channel="webhook",outcome="ok",service="notifications"} 3
x_total{channel="email",outcome="ok",service="notifications"} 2
x_total{channel="webhook",outcome="failed",service="notifications"} 1
h_seconds_bucket{le="+Inf",route="/a \\"b\\"",service="gateway"} 7
up 1
`;

describe('parseMetrics / metricValue', () => {
  it('reads names, labels (unescaped) and values', () => {
    const samples = parseMetrics(TEXT);
    expect(samples).toHaveLength(5);
    expect(samples[3]).toEqual({
      name: 'h_seconds_bucket',
      labels: { le: '+Inf', route: '/a "b"', service: 'gateway' },
      value: 7,
    });
    expect(samples[4]).toEqual({ name: 'up', labels: {}, value: 1 });
  });

  it('sums the samples whose labels include the given ones; 0 for none', () => {
    const samples = parseMetrics(TEXT);
    expect(metricValue(samples, 'x_total')).toBe(6);
    expect(metricValue(samples, 'x_total', { channel: 'webhook' })).toBe(4);
    expect(metricValue(samples, 'x_total', { channel: 'webhook', outcome: 'ok' })).toBe(3);
    expect(metricValue(samples, 'x_total', { channel: 'slack' })).toBe(0);
    expect(metricValue(samples, 'nope')).toBe(0);
  });
});
