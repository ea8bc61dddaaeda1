import * as settingsV1 from '@platform/contracts/platform/identity/v1/settings';
import { createOutgoingTrust, createServiceClient, type Principal } from '@platform/grpc';
import { createKafka, type KafkaClient } from '@platform/kafka';
import { createLogger } from '@platform/logger';
import {
  stackEnv,
  startIdentityProcess,
  testClock,
  uniqueName,
  waitUntil,
  type IdentityProcess,
} from '@platform/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSettingsClient, type IdentitySettingsClient, type SettingsClient } from '../src/index.js';

// The real identity service (built, as a child process on its own database) and the local Kafka:
// settings change through identity's admin RPC, which announces `settings.changed`.
const logger = createLogger('settings-client-test', process.env.TEST_LOG_LEVEL ?? 'silent');
let identity: IdentityProcess;
let kafka: KafkaClient;
let admin: ReturnType<typeof createServiceClient<typeof settingsV1.SettingsServiceService>>;
let principal: Principal;
const clients: SettingsClient[] = [];

const notificationsTrust = () =>
  createOutgoingTrust({
    service: 'notifications',
    serviceSigningKey: stackEnv.serviceSigningKey('notifications'),
  });

const startIdentity = () =>
  startIdentityProcess({
    env: {},
  });

beforeAll(async () => {
  identity = await startIdentity();
  kafka = createKafka({
    brokers: stackEnv.kafkaBrokers,
    clientId: uniqueName('settings-client-test'),
    logger,
  });
  const user = await identity.createUser({ superuser: true, name: 'settingsadmin' });
  principal = {
    user_id: user.id,
    username: user.username,
    is_superuser: true,
    permissions: ['*'],
    team_ids: [],
    auth_method: 'jwt',
  };
  // The gateway's credentials: UpdateSiteSettings needs a principal the gateway signed.
  const gateway = createOutgoingTrust({
    service: 'gateway',
    serviceSigningKey: stackEnv.serviceSigningKey('gateway'),
    principalSigningKey: stackEnv.principalSigningPrivateKey,
  });
  admin = createServiceClient(
    settingsV1.SettingsServiceService,
    'platform.identity.v1.SettingsService',
    identity.address,
    { credentials: gateway.to('identity') },
  );
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.stop()));
});

afterAll(async () => {
  admin?.close();
  await kafka?.disconnect();
  await identity?.stop();
});

async function changeSettings(changes: Record<string, unknown>) {
  await admin.call('updateSiteSettings', { changes, origin: undefined }, { principal });
}

function settingsClient(options: Partial<Parameters<typeof createSettingsClient>[0]> = {}) {
  const client = createSettingsClient({
    address: identity.address,
    trust: notificationsTrust(),
    service: 'notifications',
    logger,
    ...options,
  });
  clients.push(client);
  return client;
}

describe('settings client against the real identity', () => {
  it('sees a change after settings.changed without waiting for the TTL', async () => {
    await changeSettings({ smtp_host: 'before.example.com' });
    const hour = 3_600_000;
    const withEvents = settingsClient({ kafka, ttlMs: hour, keys: ['smtp_host', 'smtp_password'] });
    const withoutEvents = settingsClient({ ttlMs: hour, keys: ['smtp_host'] });
    await withEvents.start();
    expect(await withEvents.get()).toEqual({ smtp_host: 'before.example.com', smtp_password: '' });
    expect(await withoutEvents.get()).toEqual({ smtp_host: 'before.example.com' });

    await changeSettings({ smtp_host: 'after.example.com', smtp_password: 'decrypted-for-us' });
    await waitUntil(
      async () => ((await withEvents.get()).smtp_host === 'after.example.com' ? true : undefined),
      20_000,
      'the client kept the old settings after settings.changed',
    );
    expect(await withEvents.get()).toEqual({
      smtp_host: 'after.example.com',
      smtp_password: 'decrypted-for-us',
    });
    // The same TTL without the event still serves its cached read: the event made the difference.
    expect(await withoutEvents.get()).toEqual({ smtp_host: 'before.example.com' });
  });

  it('re-reads identity once the TTL has passed, and not before', async () => {
    const clock = testClock();
    await changeSettings({ smtp_host: 'ttl-1.example.com' });
    const client = settingsClient({ ttlMs: 10_000, now: clock.now, keys: ['smtp_host'] });
    expect((await client.get()).smtp_host).toBe('ttl-1.example.com');
    await changeSettings({ smtp_host: 'ttl-2.example.com' });
    clock.advance(9_000);
    expect((await client.get()).smtp_host).toBe('ttl-1.example.com');
    clock.advance(1_001);
    expect((await client.get()).smtp_host).toBe('ttl-2.example.com');
    // invalidate() drops the cache at once.
    await changeSettings({ smtp_host: 'ttl-3.example.com' });
    client.invalidate();
    expect((await client.get()).smtp_host).toBe('ttl-3.example.com');
  });

  it('shares one in-flight call among concurrent callers, and never one that started before an invalidation', async () => {
    let calls = 0;
    const real = createServiceClient(
      settingsV1.SettingsServiceService,
      'platform.identity.v1.SettingsService',
      identity.address,
      { credentials: notificationsTrust().to('identity') },
    );
    // The real client, counting the calls that reach identity.
    const counting: IdentitySettingsClient = {
      ...real,
      call: (...args) => {
        calls += 1;
        return real.call(...args);
      },
    };
    const client = settingsClient({ identityClient: counting, ttlMs: 60_000 });
    const burst = await Promise.all(Array.from({ length: 50 }, () => client.get()));
    expect(calls).toBe(1);
    expect(new Set(burst).size).toBe(1);
    expect(burst[0]).toHaveProperty('smtp_port');

    client.invalidate();
    const before = client.get();
    client.invalidate();
    const after = client.get();
    await Promise.all([before, after]);
    expect(calls).toBe(3);
    await client.get();
    expect(calls).toBe(3);
    real.close();
  });

  it('refuses to be built without a way to reach identity', () => {
    expect(() => createSettingsClient({ logger })).toThrow(/identityClient, or address and trust/);
    expect(() =>
      createSettingsClient({ logger, address: identity.address, trust: notificationsTrust(), ttlMs: -1 }),
    ).toThrow(RangeError);
  });
});

describe('an identity outage', () => {
  it('surfaces as 503 service_unavailable once the TTL has passed; no stale value is served', async () => {
    const clock = testClock();
    const outage = await startIdentity();
    const client = settingsClient({
      address: outage.address,
      ttlMs: 5_000,
      now: clock.now,
      timeoutMs: 2_000,
    });
    const value = await client.get();
    await outage.stop();
    // Within the TTL the cached read is still served.
    expect(await client.get()).toBe(value);
    clock.advance(5_001);
    const error = await client.get().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: 1003, httpStatus: 503, msgKey: 'service_unavailable' });
    // A failed read is not cached: every later get() asks again and fails the same way.
    await expect(client.get()).rejects.toMatchObject({ httpStatus: 503 });
  });

  it('a caller identity does not list is refused 403, not served', async () => {
    const client = settingsClient({
      // apikeys is a caller of identity (GetUsers), not of the settings.
      trust: createOutgoingTrust({
        service: 'apikeys',
        serviceSigningKey: stackEnv.serviceSigningKey('apikeys'),
      }),
    });
    await expect(client.get()).rejects.toMatchObject({ code: 3000, httpStatus: 403 });
  });
});
