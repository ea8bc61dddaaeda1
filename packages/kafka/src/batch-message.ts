import { requestContext } from '@platform/logger';
import {
  activeContext,
  extractTraceContext,
  recordFailure,
  runInSpan,
  SpanKind,
  startSpan,
  validSpanContext,
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
   * Runs `fn` as this message's own work; its span ends when `fn` returns, or when the promise it
   * returns settles (failed when it throws or rejects). Without a sender's `traceparent`, the span
   * is a child of the batch span instead.
   */
  run<R>(fn: () => R): R;
}

function ended<R>(span: Span, result: R): R {
  if (result instanceof Promise) {
    return result.then(
      (value: unknown) => {
        span.end();
        return value;
      },
      (error: unknown) => {
        recordFailure(span, error);
        span.end();
        throw error;
      },
    ) as R;
  }
  span.end();
  return result;
}

/** The handler's view of one fetched message; `run` is cheap until called (no span before). */
export function batchMessage(
  topic: string,
  partition: number,
  message: KafkaMessage,
  group: string,
): BatchMessage {
  const headers = decodeHeaders(message.headers);
  const requestId = headers[Headers.REQUEST_ID] || requestContext.newRequestId();
  const userId = headers[Headers.USER_ID];
  return {
    topic,
    partition,
    offset: message.offset,
    headers,
    requestId,
    run<R>(fn: () => R): R {
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
      return requestContext.run(userId ? { requestId, userId } : { requestId }, () => {
        try {
          return ended(span, runInSpan(span, fn, parent));
        } catch (error) {
          recordFailure(span, error);
          span.end();
          throw error;
        }
      });
    },
  };
}
