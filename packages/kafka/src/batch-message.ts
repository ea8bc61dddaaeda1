import { requestContext } from '@platform/logger';
import {
  activeContext,
  extractTraceContext,
  recordFailure,
  runInSpan,
  SpanKind,
  startSpan,
  validSpanContext,
  type Context,
  type Span,
} from '@platform/telemetry';
import type { KafkaMessage } from 'kafkajs';
import { decodeHeaders, Headers } from './headers.js';

/**
 * One message of a batch handed to a `runBatchConsumer` handler, beside its decoded item. The
 * batch is handled in one call (one span for the batch, linked to its first senders), but the work
 * a handler does for ONE message — e.g. scheduling what that event asked for — can run as that
 * message's own work with `run`: under its request id (logs) and a CONSUMER span that is a child
 * of the message's sender (its `traceparent`) and links to the batch span.
 */
export interface BatchMessage {
  topic: string;
  partition: number;
  offset: string;
  headers: Record<string, string>;
  /** The sender's `x-request-id`, else a fresh id. */
  requestId: string;
  /**
   * Runs `fn` as this message's own work, synchronously (what it starts carries the context on).
   * The first call opens the message's span, which lasts until the batch call returns; later
   * calls run under the same span. Without a sender's `traceparent`, the span is a child of the
   * batch span instead.
   */
  run<R>(fn: () => R): R;
}

/** The consumer's side of a BatchMessage: ends its span (if one was opened) when the batch is done. */
export interface TrackedBatchMessage extends BatchMessage {
  finish(error?: unknown): void;
}

/** The handler's view of one fetched message; nothing is recorded until `run` is called. */
export function batchMessage(
  topic: string,
  partition: number,
  message: KafkaMessage,
  group: string,
): TrackedBatchMessage {
  const headers = decodeHeaders(message.headers);
  const requestId = headers[Headers.REQUEST_ID] || requestContext.newRequestId();
  const userId = headers[Headers.USER_ID];
  let opened: { span: Span; parent: Context } | undefined;

  const open = () => {
    const sender = extractTraceContext(headers);
    // Called inside the handler, where the batch span is the active one.
    const batch = validSpanContext(activeContext());
    const parent = validSpanContext(sender) ? sender : activeContext();
    const span = startSpan(`${topic} process`, {
      kind: SpanKind.CONSUMER,
      parent,
      links: batch && parent === sender ? [{ context: batch }] : [],
      attributes: {
        'messaging.system': 'kafka',
        'messaging.operation.type': 'process',
        'messaging.destination.name': topic,
        'messaging.destination.partition.id': String(partition),
        'messaging.kafka.offset': Number(message.offset),
        'messaging.consumer.group.name': group,
      },
    });
    return { span, parent };
  };

  return {
    topic,
    partition,
    offset: message.offset,
    headers,
    requestId,
    run<R>(fn: () => R): R {
      opened ??= open();
      const { span, parent } = opened;
      return requestContext.run(userId ? { requestId, userId } : { requestId }, () =>
        runInSpan(span, fn, parent),
      );
    },
    finish(error?: unknown) {
      if (!opened) return;
      if (error !== undefined) recordFailure(opened.span, error);
      opened.span.end();
      // A retry of the message alone opens a fresh span.
      opened = undefined;
    },
  };
}
