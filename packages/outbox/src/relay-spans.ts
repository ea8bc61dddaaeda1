import { producerSpan } from '@platform/kafka';
import {
  contextFromTraceparent,
  injectTraceContext,
  recordFailure,
  setSpan,
  type Span,
} from '@platform/telemetry';

export interface PublishSpans {
  /** Per row, the `traceparent` (and `tracestate`) of its producer span, for its message headers. */
  headers: Record<string, string>[];
  /** Ends every span, failed when `error` is given. */
  end(error?: unknown): void;
}

/**
 * One PRODUCER span (`<topic> publish`) per outbox row, parented by the trace context stored with
 * the row (`trace_context`, written inside the request), so the consumer's span becomes a child of
 * the relay's and the trace runs request → outbox → Kafka → consumer. A row written outside any
 * trace starts a new one (sampled like any new root).
 */
export function publishSpans(rows: { topic: string; trace_context: string | null }[]): PublishSpans {
  const spans: Span[] = [];
  const headers = rows.map((row) => {
    const parent = contextFromTraceparent(row.trace_context);
    const span = producerSpan(row.topic, parent);
    spans.push(span);
    const carrier: Record<string, string> = {};
    injectTraceContext(carrier, setSpan(parent, span));
    return carrier;
  });
  return {
    headers,
    end(error?: unknown) {
      for (const span of spans) {
        if (error !== undefined) recordFailure(span, error);
        span.end();
      }
    },
  };
}
