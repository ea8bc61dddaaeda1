// The local store serves equality filters from an index. FerretDB 1.24 pushes `{field: value}` down
// to Postgres as jsonb containment, which its btree indexes cannot serve, so without the GIN twins
// that deploy/local/ferretdb-gin-twins.sql adds to every index's leading field, each inbox query is a
// scan of the whole collection (9 s at 1 M notifications). These tests use the service's own models
// on a fresh database, and read the index usage from Postgres' statistics.
import { spawnSync } from 'node:child_process';
import mongoose from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stackEnv, uniqueName } from '@platform/testing';
import { notificationModels } from '../src/data/models.js';

const ferretdbSql = new URL(stackEnv.postgresAdminUrl);
ferretdbSql.pathname = '/ferretdb';

function sql(query: string): string[] {
  const out = spawnSync('psql', [ferretdbSql.toString(), '-X', '-At', '-v', 'ON_ERROR_STOP=1', '-c', query], {
    encoding: 'utf8',
  });
  if (out.status !== 0) throw new Error(`psql: ${out.stderr}`);
  return out.stdout.split('\n').filter((line) => line !== '');
}

const database = uniqueName('gin_twins').replace(/-/g, '_');
const url = new URL(stackEnv.mongoUrl);
url.pathname = `/${database}`;
const connection = mongoose.createConnection(url.toString());
const models = notificationModels(connection);

/** Index name → expression of the GIN indexes on one collection's table. */
function ginIndexes(table: string): Map<string, string> {
  const rows = sql(
    `SELECT c.relname || '|' || pg_get_indexdef(c.oid, 1, false)
       FROM pg_index x JOIN pg_class c ON c.oid = x.indexrelid JOIN pg_am am ON am.oid = c.relam
      WHERE x.indrelid = '"${database}"."${table}"'::regclass AND am.amname = 'gin'`,
  );
  return new Map(rows.map((row) => row.split('|') as [string, string]));
}

function tableOf(collection: string): string {
  const [table] = sql(
    `SELECT relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = '${database}' AND relkind = 'r' AND relname LIKE '${collection}\\_%'
        AND relname NOT LIKE '\\_ferretdb%'`,
  );
  if (!table) throw new Error(`no table for ${collection}`);
  return table;
}

function indexScans(table: string, expression: string): number {
  const [scans] = sql(
    `SELECT coalesce(sum(s.idx_scan), 0) FROM pg_stat_user_indexes s JOIN pg_class c ON c.oid = s.indexrelid
      JOIN pg_am am ON am.oid = c.relam
     WHERE s.schemaname = '${database}' AND s.relname = '${table}' AND am.amname = 'gin'
       AND pg_get_indexdef(s.indexrelid, 1, false) = '${expression.replace(/'/g, "''")}'`,
  );
  return Number(scans);
}

beforeAll(async () => {
  await connection.asPromise();
  // the local stack's store (ARCHITECTURE.md); MongoDB would serve these from its own indexes
  const info = await connection.db!.admin().command({ buildInfo: 1 });
  expect(info.ferretdbVersion).toMatch(/^v1\./);
  await Promise.all(Object.values(models).map((model) => model.syncIndexes()));
});

afterAll(async () => {
  await connection.dropDatabase().catch(() => undefined);
  await connection.close();
});

describe('equality filters on the local store', () => {
  it('every declared index gets a GIN twin on its leading field', async () => {
    const twins = [...ginIndexes(tableOf('notifications')).values()];
    for (const field of ['_id', 'audience', 'team_id', 'user_id']) {
      expect(twins).toContain(`((_jsonb -> '${field}'::text))`);
    }
    expect([...ginIndexes(tableOf('notification_reads')).values()]).toEqual(
      expect.arrayContaining([`((_jsonb -> 'user_id'::text))`, `((_jsonb -> 'notification_id'::text))`]),
    );
  });

  it('audience queries are served by them, not by a table scan', async () => {
    const now = Date.now();
    await models.notifications.insertMany(
      Array.from({ length: 3000 }, (_, i) => ({
        _id: `00000000-0000-4000-8000-${i.toString().padStart(12, '0')}`,
        scope: 'user' as const,
        audience: `u:${i % 300}`,
        user_id: `${i % 300}`,
        team_id: null,
        type: 'system',
        source: 'bench',
        level: 'info',
        title: `t${i}`,
        content: 'c',
        data: null,
        link_url: null,
        status: 'active' as const,
        expires_at: null,
        created_at: new Date(now - i * 1000),
        updated_at: new Date(now - i * 1000),
      })),
    );
    sql(`ANALYZE "${database}"."${tableOf('notifications')}"`);
    const table = tableOf('notifications');
    const before = indexScans(table, `((_jsonb -> 'audience'::text))`);
    const docs = await models.notifications.find({ audience: 'u:7' }).sort({ created_at: -1 }).lean();
    expect(docs).toHaveLength(10);
    await models.notifications.countDocuments({ audience: 'u:8' });
    // both queries went through the GIN twin (Postgres publishes a backend's counters within ~10 s)
    await expect
      .poll(() => indexScans(table, `((_jsonb -> 'audience'::text))`), { timeout: 20_000, interval: 250 })
      .toBeGreaterThanOrEqual(before + 2);
  });

  it('a dropped index takes its twin along, and a twin still needed by another index stays', async () => {
    const collection = connection.collection('twin_probe');
    await collection.insertOne({ _id: 'probe' as never, kind: 'a', at: 1 });
    await collection.createIndex({ kind: 1 }, { name: 'kind_only' });
    await collection.createIndex({ kind: 1, at: -1 }, { name: 'kind_at' });
    const table = tableOf('twin_probe');
    const kindTwin = `((_jsonb -> 'kind'::text))`;
    expect([...ginIndexes(table).values()].filter((e) => e === kindTwin)).toHaveLength(1);
    await collection.dropIndex('kind_only');
    expect([...ginIndexes(table).values()]).toContain(kindTwin);
    await collection.dropIndex('kind_at');
    expect([...ginIndexes(table).values()]).not.toContain(kindTwin);
    expect([...ginIndexes(table).values()]).toContain(`((_jsonb -> '_id'::text))`);
  });
});
