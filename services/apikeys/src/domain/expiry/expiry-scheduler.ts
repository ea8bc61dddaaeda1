import { RedisLock } from '@platform/redis';
import type { ApiKeysDependencies } from '../../deps.js';
import { checkApiKeyExpiration, EXPIRY_TASK } from './check-api-key-expiration.js';
import { localDate, nextLocalTime } from './local-calendar.js';

/** Long enough that a replica whose timer fires late cannot run the same day's slot again. */
const SLOT_LOCK_MS = 60 * 60_000;

/**
 * Runs `tasks.check_api_key_expiration` daily at EXPIRY_CHECK_AT (default 09:00) server time, once
 * per cluster: every replica's timer fires, the one that takes the slot's Redis lock runs the
 * check and holds the lock until it expires. Its own timer, not the shared `queue.default` worker
 * group (identity's mail worker owns that group's task registrations).
 */
export class ExpiryScheduler {
  private timer: NodeJS.Timeout | undefined;
  private readonly lock: RedisLock;

  constructor(private readonly deps: ApiKeysDependencies) {
    this.lock = new RedisLock(deps.redis, { prefix: `${deps.config.REDIS_KEY_PREFIX}lock:` });
  }

  start(): void {
    const next = nextLocalTime(new Date(), this.deps.config.EXPIRY_CHECK_AT);
    this.timer = setTimeout(() => void this.fire(next), Math.max(0, next.getTime() - Date.now()));
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private async fire(slot: Date): Promise<void> {
    const slotKey = `${EXPIRY_TASK}:${localDate(slot)}T${this.deps.config.EXPIRY_CHECK_AT}`;
    try {
      const ran = await this.lock.runExclusive(
        slotKey,
        SLOT_LOCK_MS,
        () => checkApiKeyExpiration(this.deps),
        {
          holdUntilExpiry: true,
        },
      );
      if (!ran)
        this.deps.logger.debug({ task: EXPIRY_TASK, slot: slotKey }, 'another replica runs this slot');
    } catch (err) {
      this.deps.logger.error({ err, task: EXPIRY_TASK }, 'api key expiry check failed');
    }
    if (this.timer) this.start();
  }
}
