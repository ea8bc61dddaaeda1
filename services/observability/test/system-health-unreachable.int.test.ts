import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSystemHarness, type SystemHarness } from './support/system-harness.js';

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
