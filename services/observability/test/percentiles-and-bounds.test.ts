import { stackEnv } from '@platform/testing';
import { describe, expect, it } from 'vitest';
import { loadObservabilityConfig } from '../src/config.js';
import { AggregateGate } from '../src/data/aggregate-gate.js';
import { timeRangeOf, windowOf } from '../src/domain/analytics/parameters.js';
import { bucketOf, bucketRange } from '../src/data/duration-buckets.js';
import { interpolate } from '../src/data/percentiles.js';

const env = {
  DATABASE_URL: 'postgres://u:p@127.0.0.1:5432/db',
  REDIS_URL: 'redis://127.0.0.1:6379/0',
  KAFKA_BROKERS: '127.0.0.1:9092',
  WORKFLOWS_GRPC_ADDR: '127.0.0.1:1',
  MODELS_GRPC_ADDR: '127.0.0.1:2',
  ...stackEnv.serviceTrustEnv('observability'),
};

describe('DB_AGGREGATE_CONCURRENCY', () => {
  it('refuses anything but an integer > 0 at start, with the variable named', () => {
    // An empty value is unset (the default 4), as for every variable (packages/config).
    for (const value of ['0', '-1', '1.5', 'four', '1e9999']) {
      expect(() => loadObservabilityConfig({ ...env, DB_AGGREGATE_CONCURRENCY: value }), value).toThrow(
        /DB_AGGREGATE_CONCURRENCY/,
      );
    }
    expect(() => new AggregateGate(0)).toThrow(/DB_AGGREGATE_CONCURRENCY/);
  });

  it('a parallel burst never runs more than the bound at once', async () => {
    const gate = new AggregateGate(3);
    let peak = 0;
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        gate.run(async () => {
          peak = Math.max(peak, gate.active);
          // Hold the slot a moment (the point): without it no two jobs would ever overlap.
          await new Promise((resolve) => setTimeout(resolve, 2));
          return i;
        }),
      ),
    );
    expect(results).toEqual(Array.from({ length: 40 }, (_, i) => i));
    expect(peak).toBe(3);
    expect(gate.active).toBe(0);
  });
});

describe('percentiles from the histogram ranks', () => {
  it("interpolates like percentile_cont between the ranks' values", () => {
    // values 10, 20, 30, 50: p50 rank 1.5, p90 2.7, p95 2.85, p99 2.97
    const row = { lo0: 20, hi0: 30, lo1: 30, hi1: 50, lo2: 30, hi2: 50, lo3: 30, hi3: 50 };
    const p = interpolate(row, 4);
    expect(p.p50_ms).toBe(25);
    expect(p.p90_ms).toBeCloseTo(44, 9);
    expect(p.p99_ms).toBeCloseTo(49.4, 9);
    expect(
      interpolate({ lo0: 7, hi0: null, lo1: 7, hi1: null, lo2: 7, hi2: null, lo3: 7, hi3: null }, 1),
    ).toEqual({
      p50_ms: 7,
      p90_ms: 7,
      p95_ms: 7,
      p99_ms: 7,
    });
    expect(interpolate({}, 0)).toEqual({ p50_ms: 0, p90_ms: 0, p95_ms: 0, p99_ms: 0 });
  });

  it('ranges are whole hours; anything unknown is 30d', () => {
    expect(timeRangeOf('x')).toBe('30d');
    expect(timeRangeOf(undefined)).toBe('30d');
    const window = windowOf('7d', new Date('2026-11-23T22:47:12Z'));
    expect(window.from?.toISOString()).toBe('2026-11-16T22:00:00.000Z');
    expect(window.win).toBe(1);
    expect(windowOf('30d', new Date()).win).toBe(2);
    expect(windowOf('90d', new Date()).win).toBe(3);
    expect(windowOf('all', new Date())).toEqual({ win: 4, from: null });
  });

  it('duration buckets: every millisecond lies in its bucket, buckets ascend with the value, at most 1/32 wide', () => {
    let previous = -1;
    for (const ms of [...Array.from({ length: 70_000 }, (_, i) => i), 2 ** 31 - 1, 2 ** 30, 123_456_789]) {
      const bucket = bucketOf(ms);
      const { lo, hi } = bucketRange(bucket);
      expect(ms >= lo && ms < hi, `${ms} in [${lo}, ${hi})`).toBe(true);
      if (ms < 70_000) {
        expect(bucket).toBeGreaterThanOrEqual(previous);
        previous = bucket;
      }
      if (ms >= 64) expect(hi - lo).toBeLessThanOrEqual(Math.ceil(lo / 32));
    }
  });
});
