import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@platform/logger';
import { closeRedis, createRedis, RedisLock, type Redis } from '../src/index.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:56379/0';
const logger = createLogger('redis-test', process.env.TEST_LOG_LEVEL ?? 'silent');
const run = randomUUID().slice(0, 8);
// Lock TTLs and their expiry are the behaviour under test here (Redis keeps the time, so there is
// no clock to inject): these sleeps wait out a TTL or hold a job, they do not synchronise.
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('@platform/redis', () => {
  let a: Redis;
  let b: Redis;

  beforeAll(async () => {
    a = createRedis(REDIS_URL, { logger, keyPrefix: `test:${run}:` });
    b = createRedis(REDIS_URL, { logger, keyPrefix: `test:${run}:` });
    await Promise.all([a.ping(), b.ping()]);
  });

  afterAll(async () => {
    const keys = await a.keys(`test:${run}:*`);
    if (keys.length) await a.del(...keys.map((k) => k.slice(`test:${run}:`.length)));
    await Promise.all([closeRedis(a), closeRedis(b)]);
  });

  it('applies the key prefix', async () => {
    await a.set('plain', '1');
    expect(await b.get('plain')).toBe('1');
    const raw = createRedis(REDIS_URL, { logger });
    try {
      expect(await raw.get(`test:${run}:plain`)).toBe('1');
    } finally {
      await closeRedis(raw);
    }
  });

  it('lets exactly one of two racing contenders win', async () => {
    const lockA = new RedisLock(a);
    const lockB = new RedisLock(b);
    for (let round = 0; round < 20; round += 1) {
      const key = `race-${round}`;
      const [ta, tb] = await Promise.all([lockA.acquire(key, 5000), lockB.acquire(key, 5000)]);
      expect([ta, tb].filter((t) => t !== null)).toHaveLength(1);
    }
  });

  it('ignores a release or extend by a non-owner', async () => {
    const lockA = new RedisLock(a);
    const lockB = new RedisLock(b);
    const token = await lockA.acquire('owned', 5000);
    expect(token).not.toBeNull();
    expect(await lockB.release('owned', 'not-the-token')).toBe(false);
    expect(await lockB.extend('owned', 'not-the-token', 60_000)).toBe(false);
    expect(await lockB.acquire('owned', 5000)).toBeNull();
    expect(await lockA.release('owned', token!)).toBe(true);
    expect(await lockA.release('owned', token!)).toBe(false);
    expect(await lockB.acquire('owned', 5000)).not.toBeNull();
  });

  it('lets the other contender in once the lock expires, and extend keeps it alive', async () => {
    const lockA = new RedisLock(a);
    const lockB = new RedisLock(b);
    const token = await lockA.acquire('expiring', 300);
    expect(token).not.toBeNull();
    expect(await lockA.extend('expiring', token!, 800)).toBe(true);
    await sleep(450);
    expect(await lockB.acquire('expiring', 300)).toBeNull();
    await sleep(500);
    expect(await lockB.acquire('expiring', 300)).not.toBeNull();
    expect(await lockA.extend('expiring', token!, 800)).toBe(false);
  });

  it('runExclusive runs the job on one contender only', async () => {
    const lockA = new RedisLock(a);
    const lockB = new RedisLock(b);
    let runs = 0;
    const job = async () => {
      runs += 1;
      await sleep(100);
    };
    const [ranA, ranB] = await Promise.all([
      lockA.runExclusive('job', 5000, job),
      lockB.runExclusive('job', 5000, job),
    ]);
    expect(runs).toBe(1);
    expect([ranA, ranB].sort()).toEqual([false, true]);
    // released afterwards
    expect(await lockB.runExclusive('job', 5000, job)).toBe(true);
    expect(runs).toBe(2);
  });

  it('runExclusive keeps a long job locked past its TTL and can hold until expiry', async () => {
    const lockA = new RedisLock(a);
    const lockB = new RedisLock(b);
    let contenderRan = false;
    await lockA.runExclusive('long', 200, async () => {
      await sleep(500);
      contenderRan = await lockB.runExclusive('long', 200, () => undefined);
    });
    expect(contenderRan).toBe(false);

    expect(await lockA.runExclusive('slot', 400, () => undefined, { holdUntilExpiry: true })).toBe(true);
    expect(await lockB.runExclusive('slot', 400, () => undefined)).toBe(false);
    await sleep(500);
    expect(await lockB.runExclusive('slot', 400, () => undefined)).toBe(true);
  });

  it('releases the lock when the job throws', async () => {
    const lock = new RedisLock(a);
    await expect(
      lock.runExclusive('failing', 5000, () => Promise.reject(new Error('boom')), { holdUntilExpiry: true }),
    ).rejects.toThrow('boom');
    expect(await lock.acquire('failing', 5000)).not.toBeNull();
  });

  it('fails fast instead of hanging when Redis is unreachable', async () => {
    const dead = createRedis('redis://127.0.0.1:1/0', {
      logger: createLogger('redis-test', 'silent'),
      maxRetriesPerRequest: 1,
      maxRetryDelayMs: 200,
    });
    const started = Date.now();
    await expect(dead.get('x')).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(5000);
    dead.disconnect();
  });
});
