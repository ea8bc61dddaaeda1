import type { Redis } from '@platform/redis';

/** About the spec's 120 most recent snapshots; the list expires 24 h after its last write. */
export const SNAPSHOT_LIMIT = 120;
export const SNAPSHOT_TTL_SECONDS = 24 * 3600;

/** The health-snapshot list in Redis, oldest first. */
export class HealthSnapshots {
  private readonly key: string;

  constructor(
    private readonly redis: Redis,
    keyPrefix: string,
  ) {
    this.key = `${keyPrefix}health:snapshots`;
  }

  async append(snapshot: object): Promise<void> {
    await this.redis
      .multi()
      .rpush(this.key, JSON.stringify(snapshot))
      .ltrim(this.key, -SNAPSHOT_LIMIT, -1)
      .expire(this.key, SNAPSHOT_TTL_SECONDS)
      .exec();
  }

  async list<T>(): Promise<T[]> {
    const raw = await this.redis.lrange(this.key, 0, -1);
    return raw.flatMap((entry) => {
      try {
        return [JSON.parse(entry) as T];
      } catch {
        return [];
      }
    });
  }
}
