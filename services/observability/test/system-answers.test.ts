import { MONITOR_STATUSES, SLOW_QUERY_UNAVAILABLE_REASONS } from '@platform/contracts';
import { describe, expect, it } from 'vitest';
import { encodeHealth, encodeSlowQueries } from '../src/grpc/encode-system.js';

// The system monitors' gRPC edge: names inside the service, proto enum values on the wire.
const base = { items: [], total: 0, page: 1, page_size: 20, threshold_ms: 1000 };

describe('encodeHealth', () => {
  it('encodes the overall status and every monitor status', () => {
    const reading = { status: 'warning' as const, usage_percent: 81, used_bytes: 8, total_bytes: 10 };
    const message = encodeHealth({
      status: 'danger',
      cpu: { status: 'normal', usage_percent: 1, cores: 2, architecture: 'x64' },
      memory: reading,
      disk: reading,
      database: { status: 'normal', active_connections: 1, max_connections: 200, usage_percent: 0.5 },
      redis: { status: 'normal', used_memory: 1, connected_clients: 1, ops_per_sec: 0, hit_rate: 100 },
      workers: { status: 'danger', worker_count: 0, active_tasks: 0, backlog: 9 },
      checked_at: '2026-11-27T00:00:00.000Z',
    });
    expect(message.status).toBe(MONITOR_STATUSES.toProto('danger'));
    expect(message.cpu).toEqual({
      status: MONITOR_STATUSES.toProto('normal'),
      usage_percent: 1,
      cores: 2,
      architecture: 'x64',
    });
    expect(message.memory?.status).toBe(MONITOR_STATUSES.toProto('warning'));
    expect(message.workers?.status).toBe(MONITOR_STATUSES.toProto('danger'));
  });

  it('takes a stored snapshot as it is: missing monitors stay absent, an unknown word is unspecified', () => {
    const stored = { status: 'on fire', checked_at: '2020-01-01T00:00:00.000Z' } as unknown as Parameters<
      typeof encodeHealth
    >[0];
    const message = encodeHealth(stored);
    expect(message).toMatchObject({ status: 0, checked_at: '2020-01-01T00:00:00.000Z' });
    expect(message.cpu).toBeUndefined();
    expect(message.workers).toBeUndefined();
  });
});

describe('encodeSlowQueries', () => {
  it('sends the reason only when statistics are unavailable', () => {
    expect(encodeSlowQueries({ ...base, available: true })).not.toHaveProperty('reason');
    expect(encodeSlowQueries({ ...base, available: false, reason: 'permission_denied' })).toMatchObject({
      available: false,
      reason: SLOW_QUERY_UNAVAILABLE_REASONS.toProto('permission_denied'),
    });
  });
});
