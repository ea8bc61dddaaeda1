import { pruneUsageRecords } from '../../data/usage-repository.js';
import type { GrantsDeps } from '../grants/grants-deps.js';

const HOUR_MS = 3_600_000;

/**
 * Forgets RecordModelUsage idempotency keys older than the retention (the counters stay), hourly.
 * Safe on every replica at once: the DELETE is idempotent. A retry older than the retention
 * would count again, so the retention must exceed the callers' retry horizon (docs/models.md).
 */
export class UsageKeyPruner {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly deps: Pick<GrantsDeps, 'pool' | 'logger' | 'now'>,
    private readonly retentionDays: number,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.pruneOnce(), HOUR_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  async pruneOnce(): Promise<number> {
    const before = new Date(this.deps.now().getTime() - this.retentionDays * 24 * HOUR_MS);
    try {
      const pruned = await pruneUsageRecords(this.deps.pool, before);
      if (pruned > 0) this.deps.logger.info({ pruned, before: before.toISOString() }, 'usage keys pruned');
      return pruned;
    } catch (error) {
      this.deps.logger.warn({ err: error }, 'usage key pruning failed; retried next hour');
      return 0;
    }
  }
}
