import { counter, histogram, LONG_BUCKETS, recordFailure, type Span } from '@platform/telemetry';
import type { SendFailure } from './delivery-ports.js';
import type { ChannelName } from '../delivery-port.js';

/**
 * Delivery metrics (docs/operations.md "Deliveries"). The only labels are the channel TYPE (the
 * six names of CHANNEL_NAMES, never a destination URL or id) and an outcome from the closed sets
 * below, so a channel has at most 4 + 5 series here whatever the traffic.
 */
const deliveries = counter({
  name: 'notification_deliveries_total',
  help: 'Deliveries that reached their final state, by channel type and outcome',
  labelNames: ['channel', 'outcome'] as const,
});
const attempts = counter({
  name: 'notification_delivery_attempts_total',
  help: 'Delivery attempts (one claimed run of a delivery), by channel type and outcome',
  labelNames: ['channel', 'outcome'] as const,
});
const timeToSuccess = histogram({
  name: 'notification_delivery_seconds',
  help: 'From a delivery being scheduled (its notification created) to its success, retries included',
  labelNames: ['channel'] as const,
  buckets: LONG_BUCKETS,
});
const rateLimitWaits = counter({
  name: 'notification_rate_limit_waits_total',
  help: 'Waits for a send slot: our per-destination limiter, or a vendor throttle (429, throttle code)',
  labelNames: ['channel'] as const,
});
const rateLimitWaitSeconds = counter({
  name: 'notification_rate_limit_wait_seconds_total',
  help: 'Seconds of those waits (in place, or until the rescheduled attempt is due)',
  labelNames: ['channel'] as const,
});

/**
 * One attempt's outcome: `ok` (sent; the delivery succeeded), `partial` (an e-mail batch went out
 * and more batches follow), `rate_limited` (no slot from our limiter or the vendor throttled us;
 * rescheduled), `retryable_error` (a transient failure), `permanent_error` (a final one).
 */
export type AttemptOutcome = 'ok' | 'partial' | 'rate_limited' | 'retryable_error' | 'permanent_error';

/**
 * A delivery's final state: `delivered`, `delivered_partially` (e-mail: some recipients refused
 * for good), `failed` (a permanent failure), `retries_exhausted` (transient failures until the
 * channel's retry schedule ran out).
 */
export type FinalOutcome = 'delivered' | 'delivered_partially' | 'failed' | 'retries_exhausted';

export function countAttempt(channel: ChannelName, outcome: AttemptOutcome): void {
  attempts.inc({ channel, outcome });
}

/** Counts the delivery's end; a success also records the time since it was scheduled. */
export function countFinal(channel: ChannelName, outcome: FinalOutcome, scheduledAt: Date, now: Date): void {
  deliveries.inc({ channel, outcome });
  if (outcome === 'delivered' || outcome === 'delivered_partially') {
    timeToSuccess.observe({ channel }, Math.max(0, now.getTime() - scheduledAt.getTime()) / 1000);
  }
}

export function countRateLimitWait(channel: ChannelName, waitMs: number): void {
  rateLimitWaits.inc({ channel });
  rateLimitWaitSeconds.inc({ channel }, Math.max(0, waitMs) / 1000);
}

/**
 * A vendor's "slow down": HTTP 429, or a vendor throttle code (DingTalk 130101, WeCom and Feishu
 * frequency limits), which the adapters mark with the throttle window as `retryAfterMs`.
 */
export function isVendorThrottle(failure: SendFailure): boolean {
  if (!failure.transient) return false;
  if (failure.key === 'delivery_http_status') return failure.params.status === 429;
  return failure.key === 'delivery_vendor_rejected' && failure.retryAfterMs !== undefined;
}

/** Span attributes of one attempt (ids are fine in a trace; metrics never carry them). */
export function attemptAttributes(doc: {
  _id: string;
  notification_id: string;
  channel: ChannelName;
  attempts: number;
}) {
  return {
    'notification.channel': doc.channel,
    'notification.id': doc.notification_id,
    'notification.delivery.id': doc._id,
    'notification.delivery.attempt': doc.attempts,
  };
}

/** Ends an attempt's record: its counter, and its span's outcome (failed for either error kind). */
export function finishAttempt(
  span: Span,
  channel: ChannelName,
  outcome: AttemptOutcome,
  failure?: SendFailure,
): void {
  countAttempt(channel, outcome);
  span.setAttribute('notification.delivery.outcome', outcome);
  if (failure) {
    span.setAttribute('notification.delivery.error', failure.key);
    if (outcome !== 'rate_limited') recordFailure(span, failure);
  }
}
