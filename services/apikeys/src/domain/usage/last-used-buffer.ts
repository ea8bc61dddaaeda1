import { randomUUID } from 'node:crypto';
import type { Pool } from '@platform/db';
import { isUuid } from '@platform/errors';
import type { Logger } from '@platform/logger';
import type { Redis } from '@platform/redis';
import { recordLastUsed } from '../../data/api-keys-repository.js';

/**
 * `last_used_at` without a Postgres write per request: uses go to one Redis sorted set
 * (`ZADD GT`, so only the latest time per key stays) and a periodic flush writes them in one
 * UPDATE. The flush RENAMEs the set first, so uses recorded meanwhile land in a fresh set and
 * several replicas flushing at once never write the same batch twice.
 */
export class LastUsedBuffer {
  private timer: NodeJS.Timeout | undefined;

  /** Redis sorted set key id → last use (epoch ms); the gateway writes it too (VerifiedKey.usage_key). */
  readonly usageKey: string;

  constructor(
    private readonly redis: Redis,
    private readonly pool: Pool,
    private readonly logger: Logger,
    prefix: string,
  ) {
    this.usageKey = `${prefix}last-used`;
  }

  async record(keyId: string, at = Date.now()): Promise<void> {
    await this.redis.zadd(this.usageKey, 'GT', at, keyId);
  }

  /** Uses not yet flushed, for reads that should show them at once. */
  async pending(keyIds: string[]): Promise<Map<string, Date>> {
    if (keyIds.length === 0) return new Map();
    const scores = await this.redis.zmscore(this.usageKey, ...keyIds);
    const found = new Map<string, Date>();
    keyIds.forEach((id, i) => {
      const score = scores[i];
      if (score !== null && score !== undefined) found.set(id, new Date(Number(score)));
    });
    return found;
  }

  async flush(): Promise<number> {
    const batchKey = `${this.usageKey}:flushing:${randomUUID()}`;
    try {
      await this.redis.rename(this.usageKey, batchKey);
    } catch {
      return 0; // nothing recorded since the last flush
    }
    const flat = await this.redis.zrange(batchKey, 0, -1, 'WITHSCORES');
    const uses: { keyId: string; usedAt: Date }[] = [];
    for (let i = 0; i < flat.length; i += 2) {
      // Only key ids: a stray member must not block every later flush.
      if (isUuid(flat[i]!)) uses.push({ keyId: flat[i]!, usedAt: new Date(Number(flat[i + 1])) });
    }
    try {
      const written = await recordLastUsed(this.pool, uses);
      await this.redis.del(batchKey);
      return written;
    } catch (error) {
      // Put the batch back (keeping any newer use) so the next flush retries it.
      const back = uses.flatMap((u) => [u.usedAt.getTime(), u.keyId]);
      if (back.length > 0) await this.redis.zadd(this.usageKey, 'GT', ...back);
      await this.redis.del(batchKey);
      throw error;
    }
  }

  start(intervalMs: number): void {
    this.timer = setInterval(() => {
      this.flush().catch((err: unknown) => this.logger.warn({ err }, 'last_used_at flush failed'));
    }, intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.flush().catch((err: unknown) => this.logger.warn({ err }, 'last_used_at flush failed'));
  }
}
