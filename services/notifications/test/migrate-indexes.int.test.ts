// Notifications keeps MongoDB: its `migrate` builds the indexes (with nothing but MONGO_URL), and
// with MIGRATE_ON_START=false the service only checks them, refusing to serve without them.
import { afterAll, describe, expect, it } from 'vitest';
import { closeMongo, connectMongo } from '@platform/mongo';
import { freePort, runServiceCommand, stackEnv, startServiceProcess, uniqueName } from '@platform/testing';

const database = uniqueName('notif_migrate').replace(/-/g, '_');
const url = new URL(stackEnv.mongoUrl);
url.pathname = `/${database}`;
const MONGO_URL = url.toString();

const migrate = () => runServiceCommand('notifications', ['migrate'], { MONGO_URL, LOG_LEVEL: 'info' });

afterAll(async () => {
  const connection = await connectMongo(MONGO_URL);
  await connection.dropDatabase();
  await closeMongo(connection);
});

describe('notifications migrate (MongoDB indexes)', () => {
  it('refuses to serve without its indexes, builds them once, then serves without building', async () => {
    const refused = await runServiceCommand(
      'notifications',
      [],
      {
        ...stackEnv.serviceTrustEnv('notifications'),
        MONGO_URL,
        MIGRATE_ON_START: 'false',
        REDIS_URL: stackEnv.redisUrl,
        KAFKA_BROKERS: stackEnv.kafkaBrokers.join(','),
        TASK_SEAL_KEY: stackEnv.taskSealKey,
        IDENTITY_GRPC_ADDR: '127.0.0.1:1',
        GRPC_PORT: String(await freePort()),
        TELEMETRY_ENABLED: 'false',
        LOG_LEVEL: 'warn',
      },
      30_000,
    );
    expect(refused.code, refused.output).toBe(78);
    expect(refused.output).toMatch(
      /lacks indexes this release needs: .*notifications\.created_at_-1.*channel_test_audit\.at_-1/,
    );
    expect(refused.output).toContain("run this release's migrate Job");

    const first = await migrate();
    expect(first.code, first.output).toBe(0);
    expect(first.output).toContain('indexes synced');
    const second = await migrate();
    expect(second.code, second.output).toBe(0);
    expect(second.output).toContain('indexes already current');

    const service = await startServiceProcess('notifications', {
      env: { MONGO_URL, MIGRATE_ON_START: 'false', IDENTITY_GRPC_ADDR: '127.0.0.1:1' },
    });
    await service.stop();
  });
});
