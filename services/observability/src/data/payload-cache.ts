import type { Redis } from '@platform/redis';

/**
 * Finished payloads cached in Redis per (endpoint, parameters) for the spec's 30 seconds, shared
 * by replicas. A Redis failure only costs the cache: the payload is computed and served anyway.
 */
export class PayloadCache {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly ttlSeconds: number,
  ) {}

  key(endpoint: string, parameters: Record<string, unknown>): string {
    const sorted = Object.keys(parameters)
      .sort()
      .map((name) => [name, parameters[name]]);
    return `${this.prefix}cache:${endpoint}:${JSON.stringify(sorted)}`;
  }

  async through<T>(
    endpoint: string,
    parameters: Record<string, unknown>,
    compute: () => Promise<T>,
  ): Promise<T> {
    const key = this.key(endpoint, parameters);
    const cached = await this.redis.get(key).catch(() => null);
    if (cached !== null) return JSON.parse(cached) as T;
    const value = await compute();
    await this.redis.set(key, JSON.stringify(value), 'EX', this.ttlSeconds).catch(() => undefined);
    return value;
  }

  /** Drops every cached payload (benchmarks measure cold; tests start clean). */
  async clear(): Promise<void> {
    let cursor = '0';
    do {
      const [next, keys] = await this.redis.scan(cursor, 'MATCH', `${this.prefix}cache:*`, 'COUNT', 500);
      if (keys.length > 0) await this.redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  }
}
