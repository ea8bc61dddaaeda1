import { randomUUID } from 'node:crypto';
import { createLogger } from '@platform/logger';
import { metricsRegistry } from '@platform/telemetry';
import { describe, expect, it } from 'vitest';
import { closeRedis, createRedis, RedisLock } from '../src/index.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:56379/0';
const logger = createLogger('redis-metrics-test', process.env.TEST_LOG_LEVEL ?? 'silent');

/** Observations of `redis_command_duration_seconds` per command (the histogram's `_count`). */
async function commandCounts(): Promise<Record<string, number>> {
  const { values } = await metricsRegistry.getSingleMetric('redis_command_duration_seconds')!.get();
  const counts: Record<string, number> = {};
  for (const v of values as { metricName?: string; labels: Record<string, unknown>; value: number }[]) {
    if (v.metricName === 'redis_command_duration_seconds_count') counts[String(v.labels.command)] = v.value;
  }
  return counts;
}

describe('redis command latency', () => {
  it('times every command by its lowercase name, scripts as eval/evalsha, failures too', async () => {
    const client = createRedis(REDIS_URL, { logger, keyPrefix: `test:${randomUUID()}:` });
    try {
      await client.ping();
      const before = await commandCounts();
      await client.set('k', '1');
      await client.get('k');
      await client.get('k');
      await client.pipeline().get('k').get('k').exec();
      await expect(client.incr('k').then(() => client.hget('k', 'f'))).rejects.toThrow(/WRONGTYPE/);
      await new RedisLock(client).runExclusive('lock', 5_000, async () => undefined);
      client.defineCommand('keyName', { numberOfKeys: 1, lua: 'return KEYS[1]' });
      await (client as unknown as { keyName(key: string): Promise<string> }).keyName('k');
      await client.del('k');
      const after = await commandCounts();
      const delta = (name: string) => (after[name] ?? 0) - (before[name] ?? 0);
      expect(delta('set')).toBeGreaterThanOrEqual(1);
      expect(delta('get')).toBe(4);
      expect(delta('incr')).toBe(1);
      expect(delta('hget')).toBe(1);
      expect(delta('eval')).toBeGreaterThanOrEqual(1); // the lock's release
      expect(delta('evalsha')).toBeGreaterThanOrEqual(1); // then eval if Redis had not the script
      expect(Object.keys(after).every((name) => name === name.toLowerCase())).toBe(true);
    } finally {
      await closeRedis(client);
    }
  });
});
