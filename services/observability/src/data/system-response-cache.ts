import type { Logger } from '@platform/logger';
import type { Redis } from '@platform/redis';

/** The spec's observability cache: 30 seconds per payload. */
export const SYSTEM_CACHE_TTL_SECONDS = 30;

/**
 * Payloads of the system endpoints cached in Redis per (endpoint, parameters). A Redis failure
 * means computing the payload, never an error.
 */
export class SystemResponseCache {
  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix: string,
    private readonly logger: Logger,
  ) {}

  async get<T>(endpoint: string, parameters: Record<string, unknown>, compute: () => Promise<T>): Promise<T> {
    const key = `${this.keyPrefix}cache:system:${endpoint}:${JSON.stringify(parameters)}`;
    const hit = await this.redis.get(key).catch(() => null);
    if (hit !== null) return JSON.parse(hit) as T;
    const value = await compute();
    await this.redis
      .set(key, JSON.stringify(value), 'EX', SYSTEM_CACHE_TTL_SECONDS)
      .catch((error: unknown) => this.logger.debug({ err: error }, 'could not cache the payload'));
    return value;
  }
}
