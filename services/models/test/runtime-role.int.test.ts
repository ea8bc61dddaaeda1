import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as grantsV1 from '@platform/contracts/platform/models/v1/grants';
import { createPool, dropDatabase, withDatabase, type Pool } from '@platform/db';
import { createOutgoingTrust, createServiceClient } from '@platform/grpc';
import { runServiceCommand, stackEnv, startServiceProcess, type ServiceProcess } from '@platform/testing';

// Production's split (deploy/README.md "Migrations"): the migrate Job connects as the owner role
// and grants DML to the runtime role; the service connects as the runtime role and runs no DDL.
const suffix = randomUUID().replace(/-/g, '').slice(0, 10);
const OWNER = `models_owner_${suffix}`;
const RUNTIME = `models_runtime_${suffix}`;
const DATABASE = `models_roles_${suffix}`;
const PASSWORD = randomUUID();

function urlAs(role: string): string {
  const url = new URL(withDatabase(stackEnv.postgresAdminUrl, DATABASE));
  url.username = role;
  url.password = PASSWORD;
  return url.toString();
}

async function connected<T>(url: string, fn: (pool: Pool) => Promise<T>): Promise<T> {
  const pool = createPool(url, { max: 1 });
  try {
    return await fn(pool);
  } finally {
    await pool.end();
  }
}

const asRole = <T>(role: string, fn: (pool: Pool) => Promise<T>) => connected(urlAs(role), fn);
const admin = (sql: string) => connected(stackEnv.postgresAdminUrl, (pool) => pool.query(sql));

/** The SQLSTATE a statement fails with as `role` (undefined when it succeeds). */
const failureAs = (role: string, sql: string) =>
  asRole(role, (client) => client.query(sql)).then(
    () => undefined,
    (error: { code?: string }) => error.code,
  );

describe('the runtime role: DML only, the migrate command grants it', () => {
  let models: ServiceProcess | undefined;

  beforeAll(async () => {
    await admin(`CREATE ROLE ${OWNER} LOGIN PASSWORD '${PASSWORD}'`);
    await admin(`CREATE ROLE ${RUNTIME} LOGIN PASSWORD '${PASSWORD}'`);
    await admin(`CREATE DATABASE ${DATABASE} OWNER ${OWNER}`);
  });

  afterAll(async () => {
    await models?.stop();
    await dropDatabase(stackEnv.postgresAdminUrl, DATABASE);
    await admin(`DROP ROLE IF EXISTS ${RUNTIME}`);
    await admin(`DROP ROLE IF EXISTS ${OWNER}`);
  });

  it('migrates as the owner, serves as the runtime role (writes work, DDL does not)', async () => {
    const migrate = await runServiceCommand('models', ['migrate'], {
      DATABASE_URL: urlAs(OWNER),
      DATABASE_RUNTIME_ROLE: RUNTIME,
      LOG_LEVEL: 'info',
    });
    expect(migrate.code, migrate.output).toBe(0);
    expect(migrate.output).toContain('runtime role granted');

    // A model and a team grant, as an admin would have created them (setup, as the owner).
    const teamId = randomUUID();
    const modelId = await asRole(OWNER, async (client) => {
      const { rows } = await client.query<{ id: string }>(
        `INSERT INTO models (name, provider, model_id, model_type, is_enabled, base_url, api_key_sealed)
         VALUES ($1, 'openai', 'gpt-test', 'chat', true, 'https://api.openai.com/v1', 'sealed') RETURNING id`,
        [`m-${suffix}`],
      );
      await client.query(
        'INSERT INTO team_model_grants (team_id, model_id, is_enabled) VALUES ($1, $2, true)',
        [teamId, rows[0]!.id],
      );
      return rows[0]!.id;
    });

    models = await startServiceProcess('models', {
      env: { DATABASE_URL: urlAs(RUNTIME), MIGRATE_ON_START: 'false', IDENTITY_GRPC_ADDR: '127.0.0.1:1' },
    });
    const runtime = createServiceClient(
      grantsV1.ModelQuotaServiceService,
      'platform.models.v1.ModelQuotaService',
      models.address,
      {
        defaultTimeoutMs: 15_000,
        credentials: createOutgoingTrust({
          service: 'agent-runtime',
          serviceSigningKey: stackEnv.serviceSigningKey('agent-runtime'),
        }).to('models'),
      },
    );
    try {
      // A write through the service: usage counters and the idempotency key, as the runtime role.
      const recorded = await runtime.call('recordModelUsage', {
        team_id: teamId,
        model_id: modelId,
        tokens: 42,
        requests: 1,
        idempotency_key: randomUUID(),
      });
      expect(recorded.duplicate).toBe(false);
    } finally {
      runtime.close();
    }
    const counters = await asRole(OWNER, (client) =>
      client.query<{ tokens: string }>('SELECT tokens FROM model_usage_counters WHERE team_id = $1', [
        teamId,
      ]),
    );
    expect(counters.rows.map((row) => Number(row.tokens))).toEqual([42]);
    const sessions = await asRole(OWNER, (client) =>
      client.query<{ usename: string }>(
        "SELECT DISTINCT usename FROM pg_stat_activity WHERE datname = $1 AND application_name = 'models'",
        [DATABASE],
      ),
    );
    expect(sessions.rows.map((row) => row.usename)).toEqual([RUNTIME]);

    // No DDL: 42501 insufficient_privilege for a new table, a changed table, the bookkeeping.
    expect(await failureAs(RUNTIME, 'CREATE TABLE intruder (id int)')).toBe('42501');
    expect(await failureAs(RUNTIME, 'ALTER TABLE models ADD COLUMN intruder int')).toBe('42501');
    expect(await failureAs(RUNTIME, 'DROP TABLE model_usage_counters')).toBe('42501');
    expect(await failureAs(RUNTIME, "INSERT INTO pgmigrations (name, run_on) VALUES ('x', now())")).toBe(
      '42501',
    );
    expect(await failureAs(OWNER, 'CREATE TABLE owner_may (id int)')).toBeUndefined();
  });

  it("covers a later migration's objects without another grant (default privileges)", async () => {
    await asRole(OWNER, (client) =>
      client.query('CREATE TABLE later_release (id bigserial PRIMARY KEY, v int)'),
    );
    expect(await failureAs(RUNTIME, 'INSERT INTO later_release (v) VALUES (1)')).toBeUndefined();
    expect(await failureAs(RUNTIME, 'ALTER TABLE later_release ADD COLUMN w int')).toBe('42501');
  });
});
