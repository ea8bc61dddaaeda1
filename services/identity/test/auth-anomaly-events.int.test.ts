import { randomUUID } from 'node:crypto';
import { runConsumer, Topics, type ConsumedMessage, type ConsumerHandle } from '@platform/kafka';
import { closeRedis, createRedis } from '@platform/redis';
import { waitUntil } from '@platform/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ANOMALY_WINDOW_MS,
  checkLoginAnomaly,
  knownIpsKey,
  recordLoginOrigin,
} from '../src/domain/auth/login-anomaly.js';
import {
  ensureFirstUser,
  login,
  register,
  registerActiveAccount,
  uniqueIdentity,
} from './support/auth-accounts.js';
import { startIdentityHarness, type IdentityHarness } from './support/harness.js';

let harness: IdentityHarness;
let consumer: ConsumerHandle;
const received: ConsumedMessage<Record<string, any>>[] = [];

beforeAll(async () => {
  harness = await startIdentityHarness();
  // A fresh group that starts at the end of both topics once it has joined: only this run's events.
  consumer = await runConsumer<Record<string, any>>(harness.identity.dependencies.kafka, {
    groupId: `auth-events-test-${randomUUID()}`,
    topics: [Topics.NOTIFICATION_EVENTS, Topics.DOMAIN_EVENTS],
    fromBeginning: false,
    sessionTimeoutMs: 6_000,
    handler: (message) => {
      received.push(message);
    },
  });
  await consumer.ready;
  await ensureFirstUser(harness);
});
afterAll(async () => {
  await consumer?.stop();
  await harness?.stop();
});
beforeEach(async () => {
  await harness.setSettings({ email_verification: false, enable_captcha: false, require_approval: false });
});

function eventFor(type: string, userId: string, timeoutMs = 20_000) {
  const find = () =>
    received.find((m) => m.value.type === type && (m.value.user_id === userId || m.value.subject === userId));
  return waitUntil(find, timeoutMs, `no ${type} event for ${userId}`, 100);
}
const eventsOf = (type: string, userId: string) =>
  received.filter((m) => m.value.type === type && m.value.user_id === userId);

describe('login anomaly (known IPs and user agents in Redis)', () => {
  const redis = () => harness.identity.dependencies.redis;

  it("a user's first-ever login is never flagged; a new IP or user agent afterwards is", async () => {
    const user = randomUUID();
    expect(await recordLoginOrigin(redis(), user, '10.0.0.1', 'agent-a')).toEqual({
      newIp: false,
      newUserAgent: false,
    });
    expect(await recordLoginOrigin(redis(), user, '10.0.0.1', 'agent-a')).toEqual({
      newIp: false,
      newUserAgent: false,
    });
    expect(await recordLoginOrigin(redis(), user, '10.0.0.2', 'agent-a')).toEqual({
      newIp: true,
      newUserAgent: false,
    });
    expect(await recordLoginOrigin(redis(), user, '10.0.0.2', 'agent-b')).toEqual({
      newIp: false,
      newUserAgent: true,
    });
  });

  it('keeps at most 10 IPs, evicting the oldest: the 11th IP pushes the first out', async () => {
    const user = randomUUID();
    const start = Date.now() - 60_000;
    for (let i = 1; i <= 11; i++) await recordLoginOrigin(redis(), user, `10.1.0.${i}`, 'agent', start + i);
    const known = await redis().zrange(knownIpsKey(user), 0, -1);
    expect(known).toHaveLength(10);
    expect(known).not.toContain('10.1.0.1');
    expect(known).toContain('10.1.0.11');
    // The evicted one is unknown again; a kept one is not.
    expect((await recordLoginOrigin(redis(), user, '10.1.0.5', 'agent')).newIp).toBe(false);
    expect((await recordLoginOrigin(redis(), user, '10.1.0.1', 'agent')).newIp).toBe(true);
  });

  it('forgets entries older than 30 days', async () => {
    const user = randomUUID();
    const now = Date.now();
    await recordLoginOrigin(redis(), user, '10.2.0.1', 'agent', now - ANOMALY_WINDOW_MS - 60_000);
    await recordLoginOrigin(redis(), user, '10.2.0.2', 'agent', now - 86_400_000);
    expect((await recordLoginOrigin(redis(), user, '10.2.0.1', 'agent', now)).newIp).toBe(true);
    expect(await redis().pttl(knownIpsKey(user))).toBeGreaterThan(ANOMALY_WINDOW_MS - 60_000);
  });

  it('is skipped (and the login goes on) when Redis is unavailable', async () => {
    const deps = harness.identity.dependencies;
    const down = createRedis('redis://127.0.0.1:1', { maxRetriesPerRequest: 0, connectTimeoutMs: 200 });
    try {
      const result = await checkLoginAnomaly({ ...deps, redis: down }, randomUUID(), '10.3.0.1', 'agent');
      expect(result).toEqual({ checked: false, newIp: false, newUserAgent: false });
    } finally {
      await closeRedis(down);
    }
  });

  it('a login from a new user agent sends security.login_anomaly to that user (not the first login)', async () => {
    const account = await registerActiveAccount(harness, 'anomaly');
    const ua = (agent: string) => ({ headers: { 'user-agent': agent } });
    expect((await login(harness, account.username, account.password, ua('Browser/1.0'))).body.code).toBe(0);
    expect((await login(harness, account.username, account.password, ua('Browser/1.0'))).body.code).toBe(0);
    expect((await login(harness, account.username, account.password, ua('Strange-Bot/9'))).body.code).toBe(0);
    const event = await eventFor('security.login_anomaly', account.id);
    expect(event.value).toMatchObject({
      scope: 'user',
      user_id: account.id,
      source_service: 'identity',
      data: { user_agent: 'Strange-Bot/9', new_user_agent: true, new_ip: false },
    });
    expect(event.eventType).toBe('security.login_anomaly');
    expect(eventsOf('security.login_anomaly', account.id)).toHaveLength(1);
  });
});

describe('events of registration, lockout and password change', () => {
  it('registration publishes DomainEvent user.registered on platform.domain-events', async () => {
    const res = await register(harness, uniqueIdentity('evt'));
    const id = res.body.data.id as string;
    const event = await eventFor('user.registered', id);
    expect(event.topic).toBe(Topics.DOMAIN_EVENTS);
    expect(event.value).toMatchObject({
      type: 'user.registered',
      source_service: 'identity',
      subject: id,
      data: { user_id: id, approval_status: 'approved' },
    });
  });

  it('a pending registration sends user.pending_approval to each approver (superusers)', async () => {
    await harness.setSettings({ require_approval: true });
    const { rows } = await harness.identity.dependencies.pool.query(
      'SELECT id FROM users WHERE is_superuser ORDER BY created_at LIMIT 1',
    );
    const superuser = rows[0].id as string;
    const res = await register(harness, uniqueIdentity('pending'));
    const found = await waitUntil(
      () =>
        eventsOf('user.pending_approval', superuser).find((m) => m.value.data.user_id === res.body.data.id),
      20_000,
      'no user.pending_approval event',
      100,
    );
    expect(found?.value).toMatchObject({ scope: 'user', user_id: superuser, type: 'user.pending_approval' });
    expect(found?.topic).toBe(Topics.NOTIFICATION_EVENTS);
  });

  it('locking an account sends security.account_locked to its owner', async () => {
    await harness.setSettings({ max_login_attempts: 2, lockout_duration_minutes: 1 });
    const account = await registerActiveAccount(harness, 'lock');
    await login(harness, account.username, 'wrong-1x');
    expect((await login(harness, account.username, 'wrong-2x')).body.code).toBe(5300);
    const event = await eventFor('security.account_locked', account.id);
    expect(event.value).toMatchObject({ scope: 'user', data: { failed_attempts: 2, lockout_minutes: 1 } });
    await harness.setSettings({ max_login_attempts: 5, lockout_duration_minutes: 15 });
  });

  it('changing the password sends security.password_changed', async () => {
    const account = await registerActiveAccount(harness, 'pwd');
    const token = (await login(harness, account.username, account.password)).body.data.access_token;
    const res = await harness.request('POST', '/users/me/change-password', {
      token,
      json: { current_password: account.password, new_password: 'another-pass-9' },
    });
    expect(res.body.code).toBe(0);
    const event = await eventFor('security.password_changed', account.id);
    expect(event.topic).toBe(Topics.NOTIFICATION_EVENTS);
    expect(event.value.level).toBe('high');
  });
});
