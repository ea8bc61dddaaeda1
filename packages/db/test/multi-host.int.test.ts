// Multi-host Postgres URLs against the real local Postgres: a dead host first, a read-only host
// skipped for target_session_attrs=read-write, and the pool moving on when its host dies.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@platform/logger';
import {
  createPool,
  dropDatabase,
  ensureDatabase,
  openDatabase,
  schemaVersion,
  withDatabase,
  type Pool,
} from '../src/index.js';
import { deadPort, startPgProxy, type PgProxy } from './support/pg-proxy.js';

const BASE_URL =
  process.env.TEST_DATABASE_URL ?? 'postgres://platform:platform@127.0.0.1:55432/platform_test';
const logger = createLogger('db-multi-host-test', process.env.TEST_LOG_LEVEL ?? 'silent');
const database = `db_multihost_${randomUUID().replace(/-/g, '').slice(0, 10)}`;
const server = new URL(BASE_URL);
const real = `${server.hostname}:${server.port || '5432'}`;
const credentials = `${server.username}:${server.password}`;

/** `postgres://…@h1,h2,…/<test database>?target_session_attrs=…` */
const urlOf = (hosts: string[], attrs?: string, db = database) =>
  `postgres://${credentials}@${hosts.join(',')}/${db}${attrs ? `?target_session_attrs=${attrs}` : ''}`;

const readOnly = async (pool: Pool) =>
  (await pool.query<{ transaction_read_only: string }>('SHOW transaction_read_only')).rows[0]
    ?.transaction_read_only;

describe('multi-host Postgres URLs', () => {
  const pools: Pool[] = [];
  const proxies: PgProxy[] = [];
  let dead: string;
  let readOnlyHost: PgProxy;
  const pool = (url: string) => {
    const created = createPool(url, { logger, max: 2, connectionTimeoutMs: 2000 });
    pools.push(created);
    return created;
  };

  beforeAll(async () => {
    await ensureDatabase(BASE_URL, database);
    dead = `127.0.0.1:${await deadPort()}`;
    readOnlyHost = await startPgProxy({ host: server.hostname, port: Number(server.port || 5432) }, true);
    proxies.push(readOnlyHost);
  });

  afterAll(async () => {
    await Promise.all(pools.map((p) => p.end().catch(() => undefined)));
    await Promise.all(proxies.map((p) => p.kill()));
    await dropDatabase(BASE_URL, database);
  });

  it('skips a dead first host and writes through the next one', async () => {
    const p = pool(urlOf([dead, real], 'read-write'));
    await p.query('CREATE TABLE written_through_failover (id int)');
    await p.query('INSERT INTO written_through_failover VALUES (1)');
    expect((await p.query('SELECT count(*)::int AS n FROM written_through_failover')).rows[0]).toEqual({
      n: 1,
    });
  });

  it('passes over a read-only host for read-write, and takes it for any', async () => {
    const before = readOnlyHost.sessions;
    const readWrite = pool(urlOf([dead, `127.0.0.1:${readOnlyHost.port}`, real], 'read-write'));
    expect(await readOnly(readWrite)).toBe('off');
    await readWrite.query('CREATE TABLE written_on_the_primary (id int)');
    // the probe looked at the read-only host and left it
    expect(readOnlyHost.sessions).toBe(before + 1);

    const any = pool(urlOf([dead, `127.0.0.1:${readOnlyHost.port}`, real]));
    expect(await readOnly(any)).toBe('on');
    await expect(any.query('CREATE TABLE refused_on_a_standby (id int)')).rejects.toThrow(/read-only/);
  });

  it('moves to the next host when the chosen one dies, failing at most one connection', async () => {
    const first = await startPgProxy({ host: server.hostname, port: Number(server.port || 5432) });
    proxies.push(first);
    const p = pool(urlOf([`127.0.0.1:${first.port}`, real], 'read-write'));
    await p.query('SELECT 1');
    expect(first.sessions).toBeGreaterThan(0);
    await first.kill();
    const sessionsAtDeath = first.sessions;

    let failures = 0;
    await expect
      .poll(
        async () => {
          try {
            await p.query('SELECT 1');
            return 'answered';
          } catch {
            failures++; // the idle connection the dying host took with it, at most
            return 'failed';
          }
        },
        { timeout: 10_000, interval: 50 },
      )
      .toBe('answered');
    expect(failures).toBeLessThanOrEqual(1);
    expect(first.sessions).toBe(sessionsAtDeath);
  });

  it('names every host and why when none fits', async () => {
    const otherDead = `127.0.0.1:${await deadPort()}`;
    const p = pool(urlOf([dead, otherDead, `127.0.0.1:${readOnlyHost.port}`], 'read-write'));
    const error = await p.query('SELECT 1').then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).toMatch(/no Postgres host accepted a read-write session/);
    expect(error?.message).toContain(`${dead}: `);
    expect(error?.message).toContain(`${otherDead}: `);
    expect(error?.message).toContain(`127.0.0.1:${readOnlyHost.port}: the server is read-only`);
    expect(error?.message).not.toContain(server.password);
  });

  it('opens and migrates a service database through a host list (openDatabase, as services start)', async () => {
    const migrations = new URL('./fixtures/migrations/', import.meta.url);
    const opened = await openDatabase(
      urlOf([dead, `127.0.0.1:${readOnlyHost.port}`, real], 'read-write'),
      migrations,
      {
        logger,
        max: 1,
      },
    );
    pools.push(opened);
    expect(await schemaVersion(opened)).toBe('003_seed_widget');
  });

  it('serves one-off clients too (ensureDatabase and dropDatabase with a host list)', async () => {
    const admin = withDatabase(BASE_URL, 'postgres').replace(`@${real}`, `@${dead},${real}`);
    expect(admin).toContain(`${dead},${real}`);
    const name = `${database}_oneoff`;
    expect(await ensureDatabase(admin, name)).toBe(true);
    expect(await ensureDatabase(admin, name)).toBe(false);
    await dropDatabase(admin, name);
  });
});
