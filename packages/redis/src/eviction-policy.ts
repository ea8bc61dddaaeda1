import type { Logger } from '@platform/logger';
import { gauge } from '@platform/telemetry';
import type { Redis } from 'ioredis';

/**
 * 1 when the Redis this process uses keeps every key under memory pressure (`maxmemory-policy
 * noeviction`), 0 when it may evict keys. The platform keeps budgets and single-use proofs in Redis
 * (lockout and TOTP counters, used codes, stream and wait caps, session revocations): an evicted key
 * silently resets a limit, so an evicting Redis is alerted on (`RedisEvictsKeys`).
 */
const noEviction = gauge({
  name: 'redis_maxmemory_policy_noeviction',
  help: 'Whether the Redis this process uses refuses writes rather than evicting keys when full (1) or evicts (0)',
});

/** `maxmemory_policy` from `INFO memory` (readable where `CONFIG GET` is disabled, as on managed Redis). */
export function parseMaxmemoryPolicy(info: string): string | undefined {
  return /^maxmemory_policy:(\S+)/m.exec(info)?.[1];
}

/**
 * Checks the eviction policy each time the connection becomes ready (a failover may bring another
 * server). Decision: warn, not refuse — a process that exits here would turn a misconfigured cache
 * setting into an outage of the whole platform; instead it logs an error naming the fix on every
 * (re)connection and exports the gauge the alert reads (docs/operations.md).
 */
export function watchEvictionPolicy(client: Redis, logger: Logger): void {
  const check = async () => {
    const policy = parseMaxmemoryPolicy(await client.info('memory'));
    if (policy === undefined) return;
    noEviction.set(policy === 'noeviction' ? 1 : 0);
    if (policy !== 'noeviction') {
      logger.error(
        { maxmemory_policy: policy },
        'Redis may evict keys (maxmemory-policy is not noeviction): lockout and TOTP budgets, single-use codes, stream caps and session revocations can vanish under memory pressure; set maxmemory-policy noeviction',
      );
    }
  };
  client.on('ready', () => {
    check().catch((error: unknown) =>
      logger.warn({ err: error }, 'could not read the Redis eviction policy'),
    );
  });
}
