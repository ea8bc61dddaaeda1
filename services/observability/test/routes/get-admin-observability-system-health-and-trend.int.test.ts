// GET /admin/observability/system/health and /trend (gateway routes/observability-system-routes.ts):
// the monitors, the snapshots the trend keeps, the answer with the stores unreachable, and the
// security cases (the first test: all four system routes). /system/workers and /system/slow-queries:
// their own files beside this one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SNAPSHOT_LIMIT, SNAPSHOT_TTL_SECONDS } from '../../src/data/health-snapshots.js';
import { startSystemHarness, type SystemHarness } from '../support/system-harness.js';
import { routeSecurity, type IdentityUser } from '@platform/testing';

const WORDS = ['normal', 'warning', 'danger'];

let harness: SystemHarness;
let admin: IdentityUser;

beforeAll(async () => {
  harness = await startSystemHarness();
  admin = await harness.createUser({ roles: ['Admin'] });
}, 120_000);

afterAll(async () => {
  await harness?.stop();
});

describe('GET /admin/observability/system/health and /trend', () => {
  it('answer 401 / 2000 without a token and 403 / 3000 without admin:dashboard:access', async () => {
    const user = await harness.createUser({ roles: ['User'] });
    for (const path of ['health', 'trend', 'workers', 'slow-queries']) {
      const anonymous = await harness.request('GET', `/admin/observability/system/${path}`);
      expect([anonymous.status, anonymous.body.code]).toEqual([401, 2000]);
      const denied = await harness.request('GET', `/admin/observability/system/${path}`, {
        token: user.token,
      });
      expect([denied.status, denied.body.code]).toEqual([403, 3000]);
    }
  });

  it('reports every monitor with a status word, and a superuser may read it too', async () => {
    const superuser = await harness.createUser({ roles: [], superuser: true });
    const { status, body } = await harness.request('GET', '/admin/observability/system/health', {
      token: superuser.token,
    });
    expect([status, body.code]).toEqual([200, 0]);
    const health = body.data;
    for (const monitor of ['cpu', 'memory', 'disk', 'database', 'redis', 'workers']) {
      expect(WORDS).toContain(health[monitor].status);
    }
    expect(WORDS).toContain(health.status);
    expect(health.cpu.cores).toBeGreaterThan(0);
    expect(typeof health.cpu.architecture).toBe('string');
    expect(health.cpu.usage_percent).toBeGreaterThanOrEqual(0);
    expect(health.cpu.usage_percent).toBeLessThanOrEqual(100);
    expect(health.memory.total_bytes).toBeGreaterThan(health.memory.used_bytes);
    expect(health.disk.total_bytes).toBeGreaterThan(0);
    // The stack's Postgres: max_connections = 200, and this service's own pool is connected.
    expect(health.database).toMatchObject({ status: 'normal', max_connections: 200 });
    expect(health.database.active_connections).toBeGreaterThanOrEqual(1);
    expect(health.database.usage_percent).toBeCloseTo((health.database.active_connections / 200) * 100, 1);
    expect(health.redis.connected_clients).toBeGreaterThanOrEqual(1);
    expect(health.redis.used_memory).toBeGreaterThan(0);
    // This harness's queue topics are empty and nobody works on them.
    expect(health.workers).toEqual({ status: 'normal', worker_count: 0, active_tasks: 0, backlog: 0 });
    expect(Date.parse(health.checked_at)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('appends each snapshot; the trend reads them back oldest first, at most 120, expiring after 24 h', async () => {
    const taken: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const { body } = await harness.request('GET', '/admin/observability/system/health', {
        token: admin.token,
      });
      taken.push(body.data.checked_at as string);
    }
    const trend = await harness.request('GET', '/admin/observability/system/trend', { token: admin.token });
    expect([trend.status, trend.body.code]).toEqual([200, 0]);
    const times = (trend.body.data.snapshots as { checked_at: string }[]).map((s) => s.checked_at);
    expect(times.slice(-3)).toEqual(taken);

    // Fill the list up to the limit with older entries: the next snapshot pushes the oldest out.
    const key = `${harness.config.REDIS_KEY_PREFIX}health:snapshots`;
    const redis = harness.dependencies.redis;
    const filler = Array.from({ length: SNAPSHOT_LIMIT - 1 }, (_, i) =>
      JSON.stringify({ status: 'normal', checked_at: new Date(Date.UTC(2020, 0, 1, 0, i)).toISOString() }),
    );
    await redis.del(key);
    await redis.rpush(key, ...filler);
    await redis.persist(key);
    await harness.request('GET', '/admin/observability/system/health', { token: admin.token });
    await harness.request('GET', '/admin/observability/system/health', { token: admin.token });
    const full = await harness.request('GET', '/admin/observability/system/trend', { token: admin.token });
    const snapshots = full.body.data.snapshots as { checked_at: string }[];
    expect(snapshots).toHaveLength(SNAPSHOT_LIMIT);
    expect(snapshots[0]!.checked_at).toBe('2020-01-01T00:01:00.000Z');
    expect(Date.parse(snapshots.at(-1)!.checked_at)).toBeGreaterThan(Date.now() - 60_000);
    const ttl = await redis.ttl(key);
    expect(ttl).toBeGreaterThan(SNAPSHOT_TTL_SECONDS - 60);
    expect(ttl).toBeLessThanOrEqual(SNAPSHOT_TTL_SECONDS);
  });
});

describe('GET /admin/observability/system/health with the database and Redis unreachable', () => {
  // This describe's own harness, whose system monitors get stores on a closed port.
  let harness: SystemHarness;

  beforeAll(async () => {
    harness = await startSystemHarness({}, true);
  }, 120_000);

  afterAll(async () => {
    await harness?.stop();
  });

  it('still answers with the database and Redis monitors at danger when they are unreachable', async () => {
    const admin = await harness.createUser({ roles: ['Admin'] });
    const { status, body } = await harness.request('GET', '/admin/observability/system/health', {
      token: admin.token,
    });
    expect([status, body.code]).toEqual([200, 0]);
    expect(body.data.database).toEqual({
      status: 'danger',
      active_connections: 0,
      max_connections: 0,
      usage_percent: 0,
    });
    expect(body.data.redis).toEqual({
      status: 'danger',
      used_memory: 0,
      connected_clients: 0,
      ops_per_sec: 0,
      hit_rate: 0,
    });
    // Worker task reports live in the same Redis: without it the worker monitor cannot tell either.
    expect(body.data.workers.status).toBe('danger');
    expect(body.data.status).toBe('danger');
    expect(['normal', 'warning', 'danger']).toContain(body.data.cpu.status);
  });
});

describe('GET /admin/observability/system/health and /trend: security', () => {
  it('no token → 401 / 2000; a malformed or forged token → 403 / 2003; without admin:dashboard:access → 403 / 3000', async () => {
    const user = await harness.createUser({ roles: ['User'] });
    const health = ['GET', '/admin/observability/system/health'] as const;
    const trend = ['GET', '/admin/observability/system/trend'] as const;
    const { answers, expected } = await routeSecurity(harness.request, [health, trend], user.token);
    expect(answers).toEqual(expected);
  });
});
