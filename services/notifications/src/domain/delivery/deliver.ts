import { randomUUID } from 'node:crypto';
import { withSpan, type Span } from '@platform/telemetry';
import {
  SendFailure,
  clip,
  permanentFailure,
  transientFailure,
  type ChannelMessage,
} from './delivery-ports.js';
import { sendAppMessage } from './app-delivery.js';
import { channelProblem, channelSettingsFrom, type ChannelSettings } from './channel-settings.js';
import { isAppMode, rateLimitOf, type ChatChannel } from './chat-senders.js';
import type { DeliveryDoc } from '../../data/models.js';
import {
  attemptAttributes,
  countFinal,
  countRateLimitWait,
  finishAttempt,
  isVendorThrottle,
} from './delivery-telemetry.js';
import type { ClaimWrites, DeliveryDeps } from './delivery-deps.js';
import { sendEmailBatch } from './email-fanout.js';
import { RETRY_SCHEDULES, nextRetryDelay } from './retry-policy.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Outcome =
  | { kind: 'sent'; note?: SendFailure }
  | { kind: 'more' }
  | { kind: 'wait'; ms: number }
  | { kind: 'failed'; err: unknown };

/**
 * Runs one attempt of a delivery: claim it (atomically; nothing happens when it is done, not due,
 * or another worker holds a live claim), send, and record the outcome under the claim. The claim's
 * lease is extended while the attempt runs, so only a dead worker's delivery is handed on. The
 * attempt is a span (`notification.deliver <channel>`) under the queue task's consumer span, so
 * the send shows up in the trace of the request or event that scheduled it.
 */
export async function deliverOnce(deps: DeliveryDeps, deliveryId: string): Promise<void> {
  const token = randomUUID();
  const doc = await deps.repo.claim(deliveryId, new Date(deps.now()), deps.leaseMs, token);
  if (!doc) return;
  // Off the queue now: a later resubmission (retry, next e-mail batch) may go at once.
  await deps.marks.clear(deliveryId).catch(() => undefined);
  await withSpan(`notification.deliver ${doc.channel}`, { attributes: attemptAttributes(doc) }, (span) =>
    runClaimed(deps, doc, token, span),
  );
}

async function runClaimed(deps: DeliveryDeps, doc: DeliveryDoc, token: string, span: Span): Promise<void> {
  const deliveryId = doc._id;
  // FerretDB applies each update as a whole-document write-back, so this claim's own writes (the
  // heartbeat, e-mail progress, the outcome) must never overlap: one chain runs them in order.
  let chain: Promise<unknown> = Promise.resolve();
  const write = <T>(fn: () => Promise<T>): Promise<T> => {
    const next = chain.then(fn, fn);
    chain = next.catch(() => undefined);
    return next;
  };
  const heartbeat = setInterval(
    () => {
      void write(() => deps.repo.extendLease(deliveryId, token, new Date(deps.now() + deps.leaseMs))).catch(
        (err: unknown) => deps.logger.warn({ err, delivery_id: deliveryId }, 'could not extend the lease'),
      );
    },
    Math.max(1, Math.floor(deps.leaseMs / 3)),
  );
  try {
    const progress: ClaimWrites = {
      saveEmailProgress: (p) => write(() => deps.repo.saveEmailProgress(deliveryId, token, p)),
    };
    const outcome: Outcome = await attempt(deps, doc, progress).catch((err: unknown) => ({
      kind: 'failed' as const,
      err,
    }));
    clearInterval(heartbeat);
    const now = new Date(deps.now());
    if (outcome.kind === 'sent') {
      const note = outcome.note ? { key: outcome.note.key, params: outcome.note.params } : null;
      finishAttempt(span, doc.channel, 'ok');
      // Counted once: a claim that lapsed meanwhile leaves the delivery to its next holder.
      if (await write(() => deps.repo.succeed(deliveryId, token, now, note)))
        countFinal(doc.channel, note ? 'delivered_partially' : 'delivered', doc.created_at, now);
    } else if (outcome.kind === 'more') {
      finishAttempt(span, doc.channel, 'partial');
      await write(() => deps.repo.reschedule(deliveryId, token, now, now, null, false));
      await deps.submit(deliveryId).catch(() => undefined); // the reconciler submits otherwise
    } else if (outcome.kind === 'wait') {
      finishAttempt(span, doc.channel, 'rate_limited');
      countRateLimitWait(doc.channel, outcome.ms);
      await write(() =>
        deps.repo.reschedule(deliveryId, token, now, new Date(now.getTime() + outcome.ms), null, false),
      );
    } else {
      await write(() => recordFailure(deps, doc, token, now, outcome.err, span));
    }
  } finally {
    clearInterval(heartbeat);
  }
}

async function recordFailure(
  deps: DeliveryDeps,
  doc: DeliveryDoc,
  token: string,
  now: Date,
  err: unknown,
  span: Span,
) {
  const failure =
    err instanceof SendFailure
      ? err
      : // Our own trouble (settings or directory unreachable, a bug): retried on the schedule.
        transientFailure('delivery_connection_failed', {
          reason: clip(String((err as Error)?.message ?? err)),
        });
  if (!(err instanceof SendFailure))
    deps.logger.error({ err, delivery_id: doc._id }, 'delivery attempt failed unexpectedly');
  const record = { key: failure.key, params: failure.params };
  const delay = failure.transient
    ? nextRetryDelay(RETRY_SCHEDULES[doc.channel], doc.retry_count + 1, failure.retryAfterMs, deps.random)
    : null;
  const throttled = isVendorThrottle(failure);
  finishAttempt(
    span,
    doc.channel,
    throttled ? 'rate_limited' : failure.transient ? 'retryable_error' : 'permanent_error',
    failure,
  );
  if (delay === null) {
    if (await deps.repo.fail(doc._id, token, now, record, true))
      countFinal(doc.channel, failure.transient ? 'retries_exhausted' : 'failed', doc.created_at, now);
    deps.logger.warn({ delivery_id: doc._id, channel: doc.channel, error: failure.key }, 'delivery failed');
  } else {
    await deps.repo.reschedule(doc._id, token, now, new Date(now.getTime() + delay), record, true);
    if (throttled) countRateLimitWait(doc.channel, delay);
  }
}

async function attempt(deps: DeliveryDeps, doc: DeliveryDoc, writes: ClaimWrites): Promise<Outcome> {
  const settings = channelSettingsFrom(await deps.settings.get());
  // Switched off or emptied since the notification was created: nothing will make it work.
  const problem = channelProblem(doc.channel, settings);
  if (problem)
    throw permanentFailure('delivery_channel_unavailable', { channel: doc.channel, reason: problem });
  if (doc.channel === 'email') {
    const result = await sendEmailBatch(deps, doc, writes, settings);
    if (!result.done) return { kind: 'more' };
    if (result.sent === 0 && result.failed === 0) throw permanentFailure('delivery_no_recipients', {});
    const params = { failed: result.failed, total: result.sent + result.failed };
    if (result.sent === 0) throw permanentFailure('delivery_recipients_failed', params);
    return result.failed > 0
      ? { kind: 'sent', note: permanentFailure('delivery_recipients_failed', params) }
      : { kind: 'sent' };
  }
  return sendToChat(deps, doc, settings);
}

async function sendToChat(deps: DeliveryDeps, doc: DeliveryDoc, settings: ChannelSettings): Promise<Outcome> {
  const channel = doc.channel as ChatChannel;
  const limit = rateLimitOf(channel, settings);
  // A burst waits its turn: short waits in place, longer ones back to `pending` until the slot.
  for (;;) {
    const wait = await deps.limiter.take(limit.key, limit.windows);
    if (wait === 0) break;
    if (wait > deps.inlineWaitMs) return { kind: 'wait', ms: wait + Math.floor(deps.random() * 250) };
    countRateLimitWait(channel, wait);
    await sleep(wait);
  }
  const message: ChannelMessage = {
    deliveryId: doc._id,
    title: doc.message.title,
    content: doc.message.content,
    linkUrl: doc.message.link_url,
  };
  const context = { http: deps.http, now: deps.now };
  if (isAppMode(channel, settings)) await sendAppMessage(deps, channel, settings, doc, message);
  else await deps.senders.chat(channel, settings, message, context);
  return { kind: 'sent' };
}
