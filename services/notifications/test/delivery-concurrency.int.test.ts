import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createRedis, closeRedis } from '@platform/redis';
import { stackEnv, startHttpReceiver, waitUntil, type HttpReceiver } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverOnce } from '../src/domain/delivery/deliver.js';
import { DestinationRateLimiter, VENDOR_LIMITS } from '../src/data/rate-limiter.js';
import { notification, startDeliveryHarness, type DeliveryHarness } from './support/delivery-harness.js';

/**
 * Claims under parallel bursts, vendor rate limits shared by replicas, and the fault cases: a
 * worker killed mid-send, Kafka unreachable while deliveries are created.
 */
let receiver: HttpReceiver;
const harnesses: DeliveryHarness[] = [];
const children: ChildProcess[] = [];

beforeAll(async () => {
  receiver = await startHttpReceiver({ status: 200, body: 'ok' });
});
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  for (const h of harnesses) await h.stop();
  await receiver?.close();
});

async function harness(env: Record<string, string> = {}) {
  const h = await startDeliveryHarness(env);
  harnesses.push(h);
  h.settings.set({ webhook_enabled: true, webhook_url: `${receiver.url}/hook`, slack_enabled: true });
  return h;
}

async function scheduleOne(h: DeliveryHarness, channel: 'webhook' | 'slack' = 'webhook') {
  const n = notification();
  await h.delivery.port.scheduleDeliveries(n, [channel]);
  const [view] = (await h.delivery.port.deliveriesFor([n.id], 'en')).get(n.id)!;
  return view!.id;
}

const requestsFor = (id: string) => receiver.requests.filter((r) => r.headers['webhook-id'] === id);

describe('claims', () => {
  it('a burst of 50 claims of one delivery: exactly one wins', async () => {
    const h = await harness();
    const id = await scheduleOne(h); // no worker runs in this harness: the task waits in Kafka
    const now = new Date();
    const claims = await Promise.all(
      Array.from({ length: 50 }, (_v, i) => h.delivery.repo.claim(id, now, 60_000, `token-${i}`)),
    );
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect((await h.delivery.repo.get(id))!.attempts).toBe(1);
  });

  it('20 workers handling one delivery at once send it once', async () => {
    const h = await harness();
    receiver.script({ delayMs: 500 });
    const id = await scheduleOne(h);
    await Promise.all(Array.from({ length: 20 }, () => deliverOnce(h.delivery.deps, id)));
    expect(requestsFor(id)).toHaveLength(1);
    expect(await h.delivery.repo.get(id)).toMatchObject({ status: 'success', attempts: 1, retry_count: 0 });
  });

  it('two worker replicas on one queue send each of 30 deliveries exactly once', async () => {
    const h = await harness();
    await h.startWorkers();
    await h.startWorkers();
    const ids = await Promise.all(Array.from({ length: 30 }, () => scheduleOne(h)));
    await waitUntil(
      async () => {
        const docs = await Promise.all(ids.map((id) => h.delivery.repo.get(id)));
        return docs.every((d) => d?.status === 'success') || undefined;
      },
      60_000,
      'not every delivery succeeded',
    );
    for (const id of ids) expect(requestsFor(id)).toHaveLength(1);
  });
});

describe('vendor rate limits (shared through Redis)', () => {
  it('two replicas bursting 25 DingTalk sends at one robot: 20 go now, 5 wait for the window', async () => {
    const a = createRedis(stackEnv.redisUrl);
    const b = createRedis(stackEnv.redisUrl);
    try {
      const destination = `dingtalk:https://oapi.dingtalk.test/robot/send?access_token=${crypto.randomUUID()}`;
      const limiters = [new DestinationRateLimiter(a), new DestinationRateLimiter(b)];
      const waits = await Promise.all(
        Array.from({ length: 25 }, (_v, i) => limiters[i % 2]!.take(destination, VENDOR_LIMITS.dingtalk!)),
      );
      expect(waits.filter((w) => w === 0)).toHaveLength(20);
      for (const wait of waits.filter((w) => w > 0)) {
        expect(wait).toBeGreaterThan(0);
        expect(wait).toBeLessThanOrEqual(60_000);
      }
      // Feishu: 5 a second and 100 a minute, both windows at once.
      const feishu = `feishu:${crypto.randomUUID()}`;
      const burst = await Promise.all(
        Array.from({ length: 12 }, (_v, i) => limiters[i % 2]!.take(feishu, VENDOR_LIMITS.feishu!)),
      );
      expect(burst.filter((w) => w === 0)).toHaveLength(5);
      for (const wait of burst.filter((w) => w > 0)) expect(wait).toBeLessThanOrEqual(1_000);
    } finally {
      await closeRedis(a);
      await closeRedis(b);
    }
  });

  it('a burst of Slack deliveries to one webhook goes out about one a second, all of them', async () => {
    const h = await harness();
    const slackUrl = `${receiver.url}/slack/${crypto.randomUUID()}`;
    h.settings.set({ slack_webhook_url: slackUrl });
    await h.startWorkers();
    await h.startWorkers();
    const ids = await Promise.all(Array.from({ length: 4 }, () => scheduleOne(h, 'slack')));
    await waitUntil(
      async () => {
        const docs = await Promise.all(ids.map((id) => h.delivery.repo.get(id)));
        return docs.every((d) => d?.status === 'success') || undefined;
      },
      60_000,
      'the slack burst did not complete',
    );
    const arrivals = receiver.requests
      .filter((r) => r.path === new URL(slackUrl).pathname)
      .map((r) => r.receivedAt)
      .sort((x, y) => x - y);
    expect(arrivals).toHaveLength(4);
    for (let i = 1; i < arrivals.length; i += 1)
      expect(arrivals[i]! - arrivals[i - 1]!).toBeGreaterThanOrEqual(900);
  });
});

describe('faults', () => {
  it('Kafka unreachable while deliveries are created: they wait in MongoDB and all complete once it is back', async () => {
    const h = await harness();
    const down = h.replica({ KAFKA_BROKERS: '127.0.0.1:1' });
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      const n = notification();
      await down.port.scheduleDeliveries(n, ['webhook']); // answers at once: Kafka is not awaited
      ids.push((await down.port.deliveriesFor([n.id], 'en')).get(n.id)![0]!.id);
    }
    const stored = await Promise.all(ids.map((id) => h.delivery.repo.get(id)));
    expect(stored.map((d) => d!.status)).toEqual(Array(5).fill('pending'));
    expect(ids.flatMap(requestsFor)).toHaveLength(0);
    // Kafka "is back": a replica with the real broker; its reconciler submits what was stored.
    await h.startWorkers();
    await waitUntil(
      async () => {
        const docs = await Promise.all(ids.map((id) => h.delivery.repo.get(id)));
        return docs.every((d) => d?.status === 'success') || undefined;
      },
      60_000,
      'stored deliveries were not completed after Kafka returned',
    );
    for (const id of ids) expect(requestsFor(id)).toHaveLength(1);
  });

  it('a worker killed mid-send: its live claim is never taken, then the delivery completes once with the same webhook-id', async () => {
    const h = await harness({ DELIVERY_LEASE_MS: '1500', DELIVERY_HTTP_TIMEOUT_MS: '45000' });
    receiver.script({ delayMs: 60_000 }); // the first request hangs until the worker dies
    const script = fileURLToPath(new URL('./support/delivery-worker-process.mjs', import.meta.url));
    const child = spawn(process.execPath, [script], {
      env: {
        ...process.env,
        ...Object.fromEntries(
          Object.entries(h.config)
            .filter(([, v]) => v !== undefined && typeof v !== 'object')
            .map(([k, v]) => [k, String(v)]),
        ),
        KAFKA_BROKERS: stackEnv.kafkaBrokers.join(','),
        ...stackEnv.serviceTrustEnv('notifications'),
        SETTINGS_JSON: JSON.stringify(h.settings.values),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(child);
    const id = await scheduleOne(h);
    const [first] = await waitUntil(
      () => (requestsFor(id).length >= 1 ? requestsFor(id) : undefined),
      30_000,
      'the child never sent',
    );
    // A healthy second worker meanwhile: the child's heartbeat keeps the claim past several leases
    // (watched on the claim itself: its lease_until renewed three leases beyond the first one).
    const leaseEnd = async () => (await h.delivery.repo.get(id))!.lease_until!.getTime();
    const firstLeaseEnd = await leaseEnd();
    await h.startWorkers();
    await expect
      .poll(leaseEnd, { timeout: 20_000, interval: 250 })
      .toBeGreaterThanOrEqual(firstLeaseEnd + 3 * 1_500);
    expect(requestsFor(id)).toHaveLength(1);
    expect((await h.delivery.repo.get(id))!.status).toBe('sending');

    child.kill('SIGKILL');
    const done = await waitUntil(
      async () => {
        const doc = await h.delivery.repo.get(id);
        return doc?.status === 'success' ? doc : undefined;
      },
      30_000,
      'the delivery was lost with the worker',
    );
    const sent = requestsFor(id);
    expect(sent).toHaveLength(2);
    expect(sent[1]!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(done).toMatchObject({ attempts: 2, retry_count: 0 });
  }, 90_000);
});
