import { spawn, type ChildProcess } from 'node:child_process';
import { Writable } from 'node:stream';
import { createLogger } from '@platform/logger';
import { metricsRegistry } from '@platform/telemetry';
import { createServer } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { closeRedis, createRedis, parseMaxmemoryPolicy, type Redis } from '../src/index.js';

/** A logger whose lines the test reads. */
function capturingLogger() {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) {
        lines.push(JSON.parse(line) as Record<string, unknown>);
      }
      done();
    },
  });
  return { logger: createLogger('eviction-test', 'info', sink), lines };
}

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:56379/0';

const gaugeValue = async () =>
  (await metricsRegistry.getSingleMetric('redis_maxmemory_policy_noeviction')?.get())?.values[0]?.value;

async function waitUntil<T>(
  probe: () => Promise<T | undefined> | T | undefined,
  ms: number,
  what: string,
): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const clients: Redis[] = [];
let evicting: ChildProcess | undefined;
afterAll(async () => {
  for (const client of clients) await closeRedis(client);
  evicting?.kill('SIGKILL');
});

describe('the Redis eviction policy', () => {
  it('reads maxmemory_policy from INFO memory', () => {
    expect(parseMaxmemoryPolicy('# Memory\r\nused_memory:1\r\nmaxmemory_policy:allkeys-lru\r\n')).toBe(
      'allkeys-lru',
    );
    expect(parseMaxmemoryPolicy('# Memory\r\nused_memory:1\r\n')).toBeUndefined();
  });

  it('the local stack runs noeviction: no error, the gauge reads 1', async () => {
    const { logger, lines } = capturingLogger();
    const client = createRedis(REDIS_URL, { logger });
    clients.push(client);
    await waitUntil(async () => ((await gaugeValue()) === 1 ? true : undefined), 5_000, 'gauge at 1');
    expect(lines.filter((l) => l.level === 'error')).toEqual([]);
  });

  it('a Redis that may evict keys: an error naming the fix, and the gauge reads 0', async () => {
    const port = await freePort();
    evicting = spawn(
      'redis-server',
      [
        '--bind',
        '127.0.0.1',
        '--port',
        String(port),
        '--save',
        '',
        '--appendonly',
        'no',
        '--maxmemory-policy',
        'allkeys-lru',
      ],
      { stdio: 'ignore' },
    );
    const { logger, lines } = capturingLogger();
    const client = createRedis(`redis://127.0.0.1:${port}`, { logger });
    clients.push(client);
    const error = await waitUntil(
      async () => lines.find((l) => l.level === 'error' && l.maxmemory_policy === 'allkeys-lru'),
      10_000,
      'the eviction error',
    );
    expect(String(error.msg)).toContain('set maxmemory-policy noeviction');
    expect(await gaugeValue()).toBe(0);
  });
});
