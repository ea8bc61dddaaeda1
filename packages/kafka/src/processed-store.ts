import type { Redis } from '@platform/redis';

/** Remembers which message ids a consumer group has already handled. */
export interface ProcessedStore {
  isProcessed(group: string, id: string): Promise<boolean>;
  /** Called only after the handler succeeded. */
  markProcessed(group: string, id: string): Promise<void>;
}

export interface RedisProcessedStoreOptions {
  /** How long an id is remembered; redeliveries later than this are handled again. Default 7 days. */
  ttlSeconds?: number;
  /** Default `processed:`; keys are `<prefix><group>:<id>` (after the client's own keyPrefix). */
  prefix?: string;
}

/** `SET processed:<group>:<id> 1 NX EX <ttl>` in Redis. */
export class RedisProcessedStore implements ProcessedStore {
  private readonly ttlSeconds: number;
  private readonly prefix: string;

  constructor(
    private readonly redis: Redis,
    options: RedisProcessedStoreOptions = {},
  ) {
    this.ttlSeconds = options.ttlSeconds ?? 7 * 24 * 3600;
    this.prefix = options.prefix ?? 'processed:';
  }

  async isProcessed(group: string, id: string): Promise<boolean> {
    return (await this.redis.exists(this.key(group, id))) === 1;
  }

  async markProcessed(group: string, id: string): Promise<void> {
    await this.redis.set(this.key(group, id), '1', 'EX', this.ttlSeconds, 'NX');
  }

  private key(group: string, id: string): string {
    return `${this.prefix}${group}:${id}`;
  }
}
