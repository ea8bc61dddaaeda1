import type { Logger } from '@platform/logger';
import { RedisLock, type Redis } from '@platform/redis';
import { localDate, nextLocalTime } from './local-calendar.js';

/** Long enough that a replica whose timer fires late cannot run the same day's slot again. */
const SLOT_LOCK_MS = 60 * 60_000;

export interface DailyTaskOptions {
  /** The task's name (`tasks.check_api_key_expiration`): in logs and in the slot's lock key. */
  name: string;
  /** Local time `HH:MM` in the server's timezone (the process's TZ). */
  at: string;
  redis: Redis;
  /** Prefix of the slot lock keys, e.g. `apikeys:lock:`. */
  lockPrefix: string;
  logger: Logger;
  /** The work; it must be idempotent (see `RedisLock`: a rare second holder is possible). */
  run: (now: Date) => Promise<unknown>;
}

/**
 * Runs a task daily at a server-time `HH:MM`, once per cluster: every replica's timer fires, the
 * one that takes the slot's Redis lock runs the task and holds the lock until it expires, so a
 * replica whose timer fires a little later skips the slot. A failed run releases the lock (another
 * replica that fires later may still run it) and the next day's slot is armed either way. Its own
 * timer rather than a queue, so no worker group has to register the task. Not `croner`: on a
 * spring-forward day croner 11 runs a slot that falls in the gap (02:30) at the gap's end (03:00),
 * this one at the same distance past it (03:30, as `Date` normalises); every other day they agree.
 */
export class DailyTask {
  private timer: NodeJS.Timeout | undefined;
  private readonly lock: RedisLock;

  constructor(private readonly options: DailyTaskOptions) {
    if (!/^([01]\d|2[0-3]):[0-5]\d$/.test(options.at))
      throw new RangeError(`at must be HH:MM, got ${options.at}`);
    this.lock = new RedisLock(options.redis, { prefix: options.lockPrefix });
  }

  start(): void {
    const next = nextLocalTime(new Date(), this.options.at);
    this.timer = setTimeout(() => void this.fire(next), Math.max(0, next.getTime() - Date.now()));
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /**
   * Runs the slot of `slot`'s server-time date unless a replica already took it; resolves to
   * whether this call ran it. What the timer calls; tests call it for a chosen day.
   */
  async runSlot(slot: Date, now: Date = new Date()): Promise<boolean> {
    const { name, at, logger } = this.options;
    const slotKey = `${name}:${localDate(slot)}T${at}`;
    const ran = await this.lock.runExclusive(slotKey, SLOT_LOCK_MS, () => this.options.run(now), {
      holdUntilExpiry: true,
    });
    if (!ran) logger.debug({ task: name, slot: slotKey }, 'another replica runs this slot');
    return ran;
  }

  private async fire(slot: Date): Promise<void> {
    try {
      await this.runSlot(slot);
    } catch (err) {
      this.options.logger.error({ err, task: this.options.name }, 'scheduled task failed');
    }
    if (this.timer) this.start();
  }
}
