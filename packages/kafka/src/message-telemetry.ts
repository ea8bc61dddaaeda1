import {
  counter,
  extractTraceContext,
  histogram,
  injectTraceContext,
  linkFromHeaders,
  NOOP_SPAN,
  ROOT_CONTEXT,
  secondsSince,
  SpanKind,
  startSpan,
  telemetryEnabled,
  type Context,
  type Span,
} from '@platform/telemetry';
import type { Batch } from 'kafkajs';
import { decodeHeaders } from './headers.js';

/**
 * Messages per topic and consumer group by outcome: `handled`, `failed` (one failed attempt; it is
 * retried or dead-lettered), `dead_lettered`, `duplicate` (an id the group already handled).
 * Topic and group names come from config, never from message contents.
 */
const consumed = counter({
  name: 'kafka_messages_consumed_total',
  help: 'Kafka messages taken by a consumer group, by outcome',
  labelNames: ['topic', 'group', 'outcome'] as const,
});
const handling = histogram({
  name: 'kafka_message_handling_seconds',
  help: 'Time a consumer group spends on one message, retries included',
  labelNames: ['topic', 'group'] as const,
});
const produced = counter({
  name: 'kafka_messages_produced_total',
  help: 'Kafka messages sent, by topic and outcome (ok, failed)',
  labelNames: ['topic', 'outcome'] as const,
});

export type ConsumeOutcome = 'handled' | 'failed' | 'dead_lettered' | 'duplicate';

// TELEMETRY_ENABLED=false: every function below returns at once (no counter, histogram or span
// work); spans handed back are NOOP_SPAN, and no `traceparent` is added to messages.

export function countConsumed(topic: string, group: string, outcome: ConsumeOutcome, count = 1): void {
  if (!telemetryEnabled()) return;
  consumed.inc({ topic, group, outcome }, count);
}

export function observeHandling(topic: string, group: string, startedAt: number): void {
  if (!telemetryEnabled()) return;
  handling.observe({ topic, group }, secondsSince(startedAt));
}

export function countProduced(topic: string, outcome: 'ok' | 'failed', count = 1): void {
  if (!telemetryEnabled()) return;
  produced.inc({ topic, outcome }, count);
}

/**
 * The span of one message's handling: a child of the span that sent it (its `traceparent`
 * header), so one trace runs from the request through the queue into the worker.
 */
export function consumerSpan(
  message: { topic: string; partition: number; offset: string; headers: Record<string, string> },
  group: string,
): { span: Span; parent: Context } {
  if (!telemetryEnabled()) return { span: NOOP_SPAN, parent: ROOT_CONTEXT };
  const parent = extractTraceContext(message.headers);
  const span = startSpan(`${message.topic} process`, {
    kind: SpanKind.CONSUMER,
    parent,
    attributes: {
      'messaging.system': 'kafka',
      'messaging.operation.type': 'process',
      'messaging.destination.name': message.topic,
      'messaging.destination.partition.id': String(message.partition),
      'messaging.kafka.offset': Number(message.offset),
      'messaging.consumer.group.name': group,
    },
  });
  return { span, parent };
}

/** Most messages of one batch its span links to (the SDK's own cap is 128). */
const MAX_BATCH_LINKS = 32;

/**
 * The span of one fetched batch (handled in one call): a new trace that links to the senders'
 * spans of its first messages.
 */
export function batchSpan(batch: Batch, group: string): Span {
  if (!telemetryEnabled()) return NOOP_SPAN;
  const links = [];
  for (const message of batch.messages.slice(0, MAX_BATCH_LINKS)) {
    const link = linkFromHeaders(decodeHeaders(message.headers));
    if (link) links.push(link);
  }
  return startSpan(`${batch.topic} process`, {
    kind: SpanKind.CONSUMER,
    parent: ROOT_CONTEXT,
    links,
    attributes: {
      'messaging.system': 'kafka',
      'messaging.operation.type': 'process',
      'messaging.destination.name': batch.topic,
      'messaging.destination.partition.id': String(batch.partition),
      'messaging.batch.message_count': batch.messages.length,
      'messaging.consumer.group.name': group,
    },
  });
}

/** A PRODUCER span for sending to `topic`, whose context the message headers then carry. */
export function producerSpan(topic: string, parent?: Context): Span {
  if (!telemetryEnabled()) return NOOP_SPAN;
  return startSpan(`${topic} publish`, {
    kind: SpanKind.PRODUCER,
    parent,
    attributes: {
      'messaging.system': 'kafka',
      'messaging.operation.type': 'send',
      'messaging.destination.name': topic,
    },
  });
}

/** Adds `traceparent` (of `from`, else the active context) unless the headers already hold one. */
export function addTraceHeaders(headers: Record<string, string>, from?: Context): void {
  if (!telemetryEnabled() || headers.traceparent) return;
  injectTraceContext(headers, from);
}
