import { randomUUID } from 'node:crypto';
import type { Logger } from '@platform/logger';
import type { Redis } from '@platform/redis';

/**
 * What one worker process holds right now on one queue topic:
 * - `active`: tasks whose handler is running;
 * - `reserved`: tasks fetched from Kafka but not started yet (the rest of the batch in hand);
 * - `scheduled`: failed tasks waiting for their retry backoff.
 */
export interface TaskCounts {
  active: number;
  reserved: number;
  scheduled: number;
}

/** Callbacks `runConsumer` makes as messages move through it (see `TaskStateReporter`). */
export interface ConsumerObserver {
  batchFetched(partitionKey: string, size: number): void;
  batchDone(partitionKey: string): void;
  started(partitionKey: string): void;
  finished(): void;
  retryWaiting(): void;
  retryDone(): void;
  close(): Promise<void>;
}

/** Redis hash of the worker reports of one queue topic: field = worker instance, value = JSON. */
export function taskStateKey(topic: string): string {
  return `taskstate:${topic}`;
}

interface Report extends TaskCounts {
  /** Epoch ms after which the report is stale (the worker died without saying so). */
  expires_at: number;
}

const DEFAULT_TTL_MS = 30_000;

/**
 * Publishes one worker's counts to Redis: on every change (coalesced per tick) and on a heartbeat,
 * each report carrying its own expiry, so a crashed worker's tasks stop counting after the TTL.
 */
export class TaskStateReporter implements ConsumerObserver {
  private readonly instance = randomUUID();
  private readonly reserved = new Map<string, number>();
  private active = 0;
  private scheduled = 0;
  private dirty = false;
  private closed = false;
  private readonly heartbeat: NodeJS.Timeout;

  constructor(
    private readonly redis: Redis,
    private readonly topic: string,
    private readonly logger?: Logger,
    private readonly ttlMs = DEFAULT_TTL_MS,
  ) {
    this.heartbeat = setInterval(() => this.write(), Math.max(1000, Math.floor(ttlMs / 3)));
    this.heartbeat.unref();
  }

  batchFetched(partitionKey: string, size: number): void {
    this.reserved.set(partitionKey, size);
    this.changed();
  }

  batchDone(partitionKey: string): void {
    this.reserved.delete(partitionKey);
    this.changed();
  }

  started(partitionKey: string): void {
    const left = (this.reserved.get(partitionKey) ?? 0) - 1;
    if (left > 0) this.reserved.set(partitionKey, left);
    else this.reserved.delete(partitionKey);
    this.active += 1;
    this.changed();
  }

  finished(): void {
    this.active = Math.max(0, this.active - 1);
    this.changed();
  }

  retryWaiting(): void {
    this.active = Math.max(0, this.active - 1);
    this.scheduled += 1;
    this.changed();
  }

  retryDone(): void {
    this.scheduled = Math.max(0, this.scheduled - 1);
    this.active += 1;
    this.changed();
  }

  counts(): TaskCounts {
    let reserved = 0;
    for (const n of this.reserved.values()) reserved += n;
    return { active: this.active, reserved, scheduled: this.scheduled };
  }

  /** Stops the heartbeat and removes this worker's report. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.heartbeat);
    await this.redis.hdel(taskStateKey(this.topic), this.instance).catch(() => undefined);
  }

  private changed(): void {
    if (this.dirty || this.closed) return;
    this.dirty = true;
    setImmediate(() => this.write());
  }

  private write(): void {
    if (this.closed) return;
    this.dirty = false;
    const report: Report = { ...this.counts(), expires_at: Date.now() + this.ttlMs };
    const key = taskStateKey(this.topic);
    this.redis
      .multi()
      .hset(key, this.instance, JSON.stringify(report))
      .pexpire(key, 24 * 3600 * 1000)
      .exec()
      .catch((error: unknown) => this.logger?.debug({ err: error }, 'could not report task state'));
  }
}

/** Sums the live reports of each topic's workers, dropping reports past their expiry. */
export async function readTaskStates(
  redis: Redis,
  topics: string[],
  now = Date.now(),
): Promise<TaskCounts[]> {
  return Promise.all(
    topics.map(async (topic) => {
      const key = taskStateKey(topic);
      const reports = await redis.hgetall(key);
      const total: TaskCounts = { active: 0, reserved: 0, scheduled: 0 };
      const stale: string[] = [];
      for (const [instance, raw] of Object.entries(reports)) {
        let report: Partial<Report>;
        try {
          report = JSON.parse(raw) as Partial<Report>;
        } catch {
          stale.push(instance);
          continue;
        }
        if (typeof report.expires_at !== 'number' || report.expires_at < now) {
          stale.push(instance);
          continue;
        }
        total.active += Number(report.active) || 0;
        total.reserved += Number(report.reserved) || 0;
        total.scheduled += Number(report.scheduled) || 0;
      }
      if (stale.length) await redis.hdel(key, ...stale).catch(() => undefined);
      return total;
    }),
  );
}
