import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, shippedMigrations, type Pool } from '@platform/db';
import {
  freePort,
  freshDatabase,
  runServiceCommand,
  stackEnv,
  startServiceProcess,
  type FreshDatabase,
} from '@platform/testing';

// The models image's migrations, as the command and the schema check read them.
const SHIPPED = shippedMigrations(new URL('../src/data/migrations', import.meta.url));
const NEWEST = SHIPPED.at(-1)!;

/** `node dist/main.js migrate` given nothing but the database URL (no keys, no Kafka, no Redis). */
const migrate = (url: string) =>
  runServiceCommand('models', ['migrate'], { DATABASE_URL: url, LOG_LEVEL: 'info' });

/** The migrations each run logged as applied (one `applying migration` record per migration). */
function appliedIn(output: string): string[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { msg?: string; migration?: string })
    .filter((record) => record.msg === 'applying migration')
    .map((record) => record.migration!);
}

async function appliedRows(pool: Pool): Promise<string[]> {
  const { rows } = await pool.query<{ name: string }>('SELECT name FROM pgmigrations ORDER BY id');
  return rows.map((row) => row.name);
}

/** Serving models with MIGRATE_ON_START=false on `url`, as the prod overlay runs it (its full environment). */
async function serveWithoutMigrating(url: string) {
  return runServiceCommand(
    'models',
    [],
    {
      ...stackEnv.serviceTrustEnv('models'),
      DATABASE_URL: url,
      MIGRATE_ON_START: 'false',
      SECRET_KEY: stackEnv.secretKey,
      REDIS_URL: stackEnv.redisUrl,
      KAFKA_BROKERS: stackEnv.kafkaBrokers.join(','),
      IDENTITY_GRPC_ADDR: '127.0.0.1:1',
      GRPC_PORT: String(await freePort()),
      TELEMETRY_ENABLED: 'false',
      LOG_LEVEL: 'warn',
    },
    30_000,
  );
}

describe('models migrate command', () => {
  let database: FreshDatabase;
  let pool: Pool;

  beforeAll(async () => {
    database = await freshDatabase('models_migrate');
    pool = createPool(database.url, { max: 2 });
  });
  afterAll(async () => {
    await pool?.end();
    await database?.drop();
  });

  it('two runs at once apply every migration exactly once, each logged; a third finds it current', async () => {
    const [first, second] = await Promise.all([migrate(database.url), migrate(database.url)]);
    expect(first.code, first.output).toBe(0);
    expect(second.code, second.output).toBe(0);
    // The advisory lock: one applied everything, the other waited and found nothing left.
    expect([...appliedIn(first.output), ...appliedIn(second.output)].sort()).toEqual(SHIPPED);
    expect(await appliedRows(pool)).toEqual(SHIPPED);

    const third = await migrate(database.url);
    expect(third.code, third.output).toBe(0);
    expect(appliedIn(third.output)).toEqual([]);
    expect(third.output).toContain('schema already current');
    expect(await appliedRows(pool)).toEqual(SHIPPED);
  });

  it('exits 78 naming the variable when DATABASE_URL is missing', async () => {
    const run = await runServiceCommand('models', ['migrate'], { LOG_LEVEL: 'info' });
    expect(run.code).toBe(78);
    expect(run.output).toMatch(/DATABASE_URL is missing/);
  });
});

describe('models with MIGRATE_ON_START=false', () => {
  const databases: FreshDatabase[] = [];
  const fresh = async () => {
    const database = await freshDatabase('models_schema');
    databases.push(database);
    return database;
  };
  const migrated = async () => {
    const database = await fresh();
    expect((await migrate(database.url)).code).toBe(0);
    return database;
  };
  afterAll(async () => {
    for (const database of databases) await database.drop();
  });

  it('refuses an empty database: exit 78, the migration it needs, none applied, the fix', async () => {
    const database = await fresh();
    const run = await serveWithoutMigrating(database.url);
    expect(run.code, run.output).toBe(78);
    expect(run.output).toContain(`newest migration needed ${NEWEST}, newest applied (none`);
    expect(run.output).toContain("run this release's migrate Job");
    // It ran no DDL: still no migrations table.
    const pool = createPool(database.url, { max: 1 });
    try {
      const { rows } = await pool.query<{ t: string | null }>(
        "SELECT to_regclass('pgmigrations')::text AS t",
      );
      expect(rows[0]!.t).toBeNull();
    } finally {
      await pool.end();
    }
  });

  it('refuses an older schema (the newest migration not applied), naming both', async () => {
    const database = await migrated();
    const pool = createPool(database.url, { max: 1 });
    try {
      await pool.query('DELETE FROM pgmigrations WHERE name = $1', [NEWEST]);
    } finally {
      await pool.end();
    }
    const run = await serveWithoutMigrating(database.url);
    expect(run.code, run.output).toBe(78);
    expect(run.output).toContain(`newest migration needed ${NEWEST}, newest applied ${SHIPPED.at(-2)}`);
    expect(run.output).toContain(`1 missing: ${NEWEST}`);
  });

  it('serves on the current schema and on a newer one (a later release migrated ahead)', async () => {
    const current = await migrated();
    const newer = await migrated();
    const pool = createPool(newer.url, { max: 1 });
    try {
      await pool.query(
        "INSERT INTO pgmigrations (name, run_on) VALUES ('9999999999999_from-a-newer-release', now())",
      );
    } finally {
      await pool.end();
    }
    for (const database of [current, newer]) {
      const service = await startServiceProcess('models', {
        env: { DATABASE_URL: database.url, MIGRATE_ON_START: 'false', IDENTITY_GRPC_ADDR: '127.0.0.1:1' },
      });
      await service.stop();
    }
  });
});
