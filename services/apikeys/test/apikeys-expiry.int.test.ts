import { apikeysV1 } from '@platform/contracts';
import { createOutgoingTrust, createServiceClient } from '@platform/grpc';
import { Topics, type ConsumedMessage } from '@platform/kafka';
import { captureEvents, stackEnv, waitUntil, type EventCapture } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiKeysHarness, type ApiKeysHarness, type TestUser } from './support/harness.js';

let harness: ApiKeysHarness;
let owner: TestUser;
let events: EventCapture;

beforeAll(async () => {
  harness = await startApiKeysHarness();
  owner = await harness.createUser();
  events = await captureEvents(harness.apikeys.dependencies.kafka, 'apikeys-expiry', [
    Topics.NOTIFICATION_EVENTS,
  ]);
}, 60_000);
afterAll(async () => {
  await events?.stop();
  await harness?.stop();
});

/** Server-time (local) dates, like the check itself. */
const local = (y: number, m: number, d: number, h = 0, min = 0) => new Date(y, m - 1, d, h, min);

async function keyExpiringAt(name: string, expiresAt: Date, active = true): Promise<string> {
  const res = await harness.request('POST', '/api-keys', { token: owner.token, json: { name } });
  await harness.apikeys.dependencies.pool.query(
    'UPDATE api_keys SET expires_at = $2, is_active = $3 WHERE id = $1',
    [res.body.data.id, expiresAt, active],
  );
  return res.body.data.id;
}

/** The owner's events once `count` arrived and nothing more followed; then forgets them. */
async function eventsSettled(count: number): Promise<ConsumedMessage[]> {
  const mine = () => events.messages.filter((e) => (e.value as { user_id?: string }).user_id === owner.id);
  await waitUntil(() => (mine().length >= count ? true : undefined), 15_000, `fewer than ${count} events`);
  await new Promise((r) => setTimeout(r, 500)); // nothing more may arrive
  const settled = mine();
  events.clear();
  return settled;
}

/** RunExpirationCheck is internal-only: operators' tooling calls it as `operator`. */
function operatorClient() {
  return createServiceClient(
    apikeysV1.ApiKeysServiceService,
    'platform.apikeys.v1.ApiKeysService',
    harness.apikeysAddress,
    {
      credentials: createOutgoingTrust({
        service: 'operator',
        serviceSigningKey: stackEnv.serviceSigningKey('operator'),
      }).to('apikeys'),
    },
  );
}

describe('tasks.check_api_key_expiration (RunExpirationCheck with a fixed now)', () => {
  it('reminds at exactly 7, 3 and 1 days, notices expired keys, each once', async () => {
    const client = operatorClient();
    const now = local(2030, 6, 15, 9, 0);
    const ids = {
      seven: await keyExpiringAt('seven', local(2030, 6, 22, 23, 0)),
      three: await keyExpiringAt('three', local(2030, 6, 18, 0, 30)),
      one: await keyExpiringAt('one', local(2030, 6, 16, 8, 0)),
      five: await keyExpiringAt('five', local(2030, 6, 20, 12, 0)),
      laterToday: await keyExpiringAt('later today', local(2030, 6, 15, 18, 0)),
      expired: await keyExpiringAt('expired', local(2030, 6, 14, 10, 0)),
      inactive: await keyExpiringAt('inactive', local(2030, 6, 22, 10, 0), false),
    };
    const first = await client.call('runExpirationCheck', { now: now.toISOString() });
    expect(first).toEqual({ expiring_sent: 3, expired_sent: 1 });
    const sent = await eventsSettled(4);
    const summary = sent
      .map((e) => {
        const value = e.value as {
          type: string;
          scope: string;
          data: { api_key_id: string; days_remaining: number };
        };
        expect(value.scope).toBe('user');
        return `${value.type}:${value.data.api_key_id}:${value.data.days_remaining}`;
      })
      .sort();
    expect(summary).toEqual(
      [
        `apikey.expiring:${ids.seven}:7`,
        `apikey.expiring:${ids.three}:3`,
        `apikey.expiring:${ids.one}:1`,
        `apikey.expired:${ids.expired}:0`,
      ].sort(),
    );
    expect(sent.every((e) => e.topic === Topics.NOTIFICATION_EVENTS)).toBe(true);

    // Same day again: nothing new.
    expect(await client.call('runExpirationCheck', { now: local(2030, 6, 15, 9, 5).toISOString() })).toEqual({
      expiring_sent: 0,
      expired_sent: 0,
    });
    // Next day: `later today` has expired; `seven` is at 6 days (no reminder), `one` expired.
    const next = await client.call('runExpirationCheck', { now: local(2030, 6, 16, 9, 0).toISOString() });
    expect(next).toEqual({ expiring_sent: 0, expired_sent: 2 });
    const nextSent = (await eventsSettled(2)).map(
      (e) => (e.value as { data: { api_key_id: string } }).data.api_key_id,
    );
    expect(nextSent.sort()).toEqual([ids.laterToday, ids.one].sort());
    client.close();
  });

  it('rejects a malformed now with 1001', async () => {
    const client = operatorClient();
    await expect(client.call('runExpirationCheck', { now: 'yesterday' })).rejects.toMatchObject({
      code: 1001,
    });
    client.close();
  });

  it('claims a notice only with its outbox row: a notice whose event is not stored is sent by the next run', async () => {
    const client = operatorClient();
    const { pool } = harness.apikeys.dependencies;
    const now = local(2031, 3, 10, 9, 0);
    // Only this test's key: the earlier tests' keys have all expired by then.
    await pool.query('UPDATE api_keys SET is_active = false');
    const id = await keyExpiringAt('refused once', local(2031, 3, 13, 12, 0));
    // The commit of this key's notice fails after the claim and the event were both written.
    await pool.query(`
      CREATE FUNCTION test_refuse_notice() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.value->'data'->>'api_key_id' = '${id}' THEN RAISE EXCEPTION 'test: commit refused'; END IF;
        RETURN NULL;
      END $$;
      CREATE CONSTRAINT TRIGGER test_refuse_notice AFTER INSERT ON outbox
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION test_refuse_notice();`);
    try {
      await expect(client.call('runExpirationCheck', { now: now.toISOString() })).rejects.toBeDefined();
      const claims = await pool.query('SELECT 1 FROM api_key_expiry_notices WHERE key_id = $1', [id]);
      expect(claims.rowCount).toBe(0);
    } finally {
      await pool.query('DROP TRIGGER test_refuse_notice ON outbox; DROP FUNCTION test_refuse_notice();');
    }
    expect(await client.call('runExpirationCheck', { now: now.toISOString() })).toEqual({
      expiring_sent: 1,
      expired_sent: 0,
    });
    const sent = await eventsSettled(1);
    expect(sent.map((e) => (e.value as { data: { api_key_id: string } }).data.api_key_id)).toEqual([id]);
    expect(await client.call('runExpirationCheck', { now: now.toISOString() })).toEqual({
      expiring_sent: 0,
      expired_sent: 0,
    });
    client.close();
  });
});
