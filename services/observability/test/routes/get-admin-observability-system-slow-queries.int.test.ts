// GET /admin/observability/system/slow-queries (gateway routes/observability-system-routes.ts): the
// list, its threshold and paging, bad input, the reasons it is unavailable (real databases and
// roles, read through the use case the route calls), and the security cases.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, withDatabase } from '@platform/db';
import { routeSecurity, stackEnv, type IdentityUser } from '@platform/testing';
import { listSlowQueries } from '../../src/domain/system/list-slow-queries.js';
import { startScratchPostgres } from '../support/scratch-postgres.js';
import { asAdmin, startSystemHarness, type SystemHarness } from '../support/system-harness.js';

const run = randomUUID().slice(0, 8);
const alias = `obsys_slow_${run}`;
let harness: SystemHarness;
let admin: IdentityUser;

beforeAll(async () => {
  harness = await startSystemHarness({ SLOW_QUERY_DATABASES: '*' });
  admin = await harness.createUser({ roles: ['Admin'] });
  // Two runs of one slow statement in this service's database (the stack tracks every statement).
  const pool = createPool(harness.database.url, { max: 1 });
  await pool.query(`SELECT pg_sleep(0.3) AS ${alias}`);
  await pool.query(`SELECT pg_sleep(0.3) AS ${alias}`);
  await pool.end();
}, 120_000);

afterAll(async () => {
  await harness?.stop();
});

interface Item {
  query: string;
  mean_ms: number;
  total_ms: number;
  calls: number;
  rows: number;
  database: string;
}

/** Pages through the list until the statement shows up (other suites' statements share the view). */
async function findOurs(thresholdMs: number): Promise<{ item: Item | undefined; pages: Item[][] }> {
  const pages: Item[][] = [];
  for (let page = 1; page <= 50; page += 1) {
    const { status, body } = await harness.request(
      'GET',
      `/admin/observability/system/slow-queries?threshold_ms=${thresholdMs}&page=${page}&page_size=100`,
      { token: admin.token },
    );
    expect([status, body.code, body.data.available]).toEqual([200, 0, true]);
    const items = body.data.items as Item[];
    pages.push(items);
    const item = items.find((i) => i.query.includes(alias));
    if (item || items.length < 100) return { item, pages };
  }
  return { item: undefined, pages };
}

describe('GET /admin/observability/system/slow-queries', () => {
  it('lists normalized statements over the threshold with mean, total, calls, rows and database', async () => {
    const { item, pages } = await findOurs(200);
    expect(item).toMatchObject({
      query: `SELECT pg_sleep($1) AS ${alias}`,
      calls: 2,
      rows: 2,
      database: harness.database.name,
    });
    expect(item!.mean_ms).toBeGreaterThanOrEqual(300);
    expect(item!.total_ms).toBeCloseTo(item!.mean_ms * 2, 3);
    const means = pages.flat().map((i) => i.mean_ms);
    expect(means).toEqual([...means].sort((a, b) => b - a));
    expect(means.every((m) => m >= 200)).toBe(true);
  });

  it('leaves out statements under the threshold and pages the rest', async () => {
    expect((await findOurs(60_000)).item).toBeUndefined();
    const { body } = await harness.request(
      'GET',
      '/admin/observability/system/slow-queries?threshold_ms=200&page_size=1',
      { token: admin.token },
    );
    expect(body.data).toMatchObject({ available: true, page: 1, page_size: 1, threshold_ms: 200 });
    expect(body.data.items).toHaveLength(1);
    expect(body.data.total).toBeGreaterThanOrEqual(1);
    expect(body.data).not.toHaveProperty('reason');
  });

  it('refuses bad parameters with 422 / 1001, never a 5xx', async () => {
    for (const query of [
      'threshold_ms=0',
      'threshold_ms=-5',
      'threshold_ms=abc',
      'threshold_ms=1.5',
      'threshold_ms=99999999999',
      'page=0',
      'page_size=0',
      'page_size=101',
    ]) {
      const { status, body } = await harness.request(
        'GET',
        `/admin/observability/system/slow-queries?${query}`,
        {
          token: admin.token,
        },
      );
      expect([query, status, body.code]).toEqual([query, 422, 1001]);
    }
  });

  it('security: no token → 401 / 2000; a malformed or forged token → 403 / 2003; a plain user → 403 / 3000', async () => {
    const plain = await harness.createUser({ roles: ['User'] });
    const route = ['GET', '/admin/observability/system/slow-queries?threshold_ms=200'] as const;
    const { answers, expected } = await routeSecurity(harness.request, [route], plain.token);
    expect(answers).toEqual(expected);
  });
});

describe('slow queries unavailable (real databases and roles)', () => {
  it('says extension_missing in a database where pg_stat_statements was never created', async () => {
    const name = `obsys_noext_${run}`;
    await asAdmin('postgres', `CREATE DATABASE ${name} TEMPLATE template0`);
    const pool = createPool(withDatabase(stackEnv.postgresAdminUrl, name), { max: 1 });
    try {
      expect(await listSlowQueries(pool, [], {})).toMatchObject({
        available: false,
        reason: 'extension_missing',
        items: [],
      });
    } finally {
      await pool.end();
      await asAdmin('postgres', `DROP DATABASE ${name}`);
    }
  });

  it('says permission_denied for a role without pg_read_all_stats, and lists once it is granted', async () => {
    const role = `obsys_reader_${run}`;
    await asAdmin('postgres', `CREATE ROLE ${role} LOGIN PASSWORD 'reader-${run}'`);
    const url = new URL(harness.database.url);
    url.username = role;
    url.password = `reader-${run}`;
    try {
      const pool = createPool(url.toString(), { max: 1 });
      expect(await listSlowQueries(pool, [], {})).toMatchObject({
        available: false,
        reason: 'permission_denied',
      });
      await asAdmin('postgres', `GRANT pg_read_all_stats TO ${role}`);
      const granted = await listSlowQueries(pool, [harness.database.name], {
        threshold_ms: 200,
        page_size: 100,
      });
      expect(granted.available).toBe(true);
      expect(granted.items.some((i) => i.query.includes(alias))).toBe(true);
      await pool.end();
    } finally {
      await asAdmin('postgres', `DROP ROLE ${role}`);
    }
  });

  it('says not_preloaded on a server started without the library, even with the extension created', async () => {
    const scratch = await startScratchPostgres();
    const pool = createPool(scratch.url, { max: 1 });
    try {
      // CREATE EXTENSION works without the preload; only reading the view fails.
      await pool.query('CREATE EXTENSION pg_stat_statements');
      expect(await listSlowQueries(pool, [], {})).toMatchObject({
        available: false,
        reason: 'not_preloaded',
      });
    } finally {
      await pool.end();
      scratch.stop();
    }
  }, 60_000);
});
