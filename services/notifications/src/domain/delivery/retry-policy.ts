import type { ChannelName } from '../delivery-port.js';

/**
 * How often and how far apart a channel retries a transient failure. Delay before retry n (n = 1
 * after the first failed attempt) is `min(cap, base × factor^(n-1))`, scaled by a jitter in
 * [1 - jitter, 1 + jitter], and never shorter than what the receiver asked for (Retry-After, a
 * vendor's throttle window).
 */
export interface RetrySchedule {
  /** Attempts in all, the first one included. */
  maxAttempts: number;
  baseMs: number;
  factor: number;
  capMs: number;
  jitter: number;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * Generic webhook: 8 attempts over at least 24 h (10 s, 50 s, 4 min, 21 min, 1.7 h, 8.7 h, 16 h:
 * 26.9 h nominal, 24.2 h at the shortest jitter), because a receiver may be down for a day.
 * Chat robots: 6 attempts within about 17 minutes (5 s, 20 s, 80 s, 5.3 min, 10 min); a chat
 * message hours late is noise, and the vendors' throttles are minutes long.
 * E-mail: 6 attempts within about 1.7 h (30 s, 2 min, 8 min, 32 min, 1 h), like an MTA's early
 * retries; the mail server queues beyond that itself.
 */
export const RETRY_SCHEDULES: Record<ChannelName, RetrySchedule> = {
  webhook: { maxAttempts: 8, baseMs: 10_000, factor: 5, capMs: 16 * HOUR, jitter: 0.1 },
  slack: { maxAttempts: 6, baseMs: 5_000, factor: 4, capMs: 10 * MINUTE, jitter: 0.2 },
  dingtalk: { maxAttempts: 6, baseMs: 5_000, factor: 4, capMs: 10 * MINUTE, jitter: 0.2 },
  wechat: { maxAttempts: 6, baseMs: 5_000, factor: 4, capMs: 10 * MINUTE, jitter: 0.2 },
  feishu: { maxAttempts: 6, baseMs: 5_000, factor: 4, capMs: 10 * MINUTE, jitter: 0.2 },
  email: { maxAttempts: 6, baseMs: 30_000, factor: 4, capMs: HOUR, jitter: 0.2 },
};

/** The longest a receiver's own Retry-After is honoured; beyond it the schedule's cap applies. */
export const MAX_RETRY_AFTER_MS = 24 * HOUR;

/**
 * Delay before the next attempt after `failedAttempts` failures, or null when the schedule is
 * used up (the delivery then fails). `random` is in [0, 1).
 */
export function nextRetryDelay(
  schedule: RetrySchedule,
  failedAttempts: number,
  retryAfterMs: number | undefined,
  random: () => number = Math.random,
): number | null {
  if (failedAttempts >= schedule.maxAttempts) return null;
  const nominal = Math.min(schedule.capMs, schedule.baseMs * schedule.factor ** (failedAttempts - 1));
  const jittered = nominal * (1 - schedule.jitter + 2 * schedule.jitter * random());
  const asked = Math.min(retryAfterMs ?? 0, MAX_RETRY_AFTER_MS);
  return Math.round(Math.max(jittered, asked));
}

/** Total time a schedule spreads its retries over at a fixed jitter position (for docs and tests). */
export function scheduleSpanMs(schedule: RetrySchedule, random: () => number): number {
  let total = 0;
  for (let failed = 1; ; failed += 1) {
    const delay = nextRetryDelay(schedule, failed, undefined, random);
    if (delay === null) return total;
    total += delay;
  }
}
