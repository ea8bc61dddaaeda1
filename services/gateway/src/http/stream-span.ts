import { recordFailure, runInSpan, startSpan, type Span } from '@platform/telemetry';
import type { SseEvent } from '../routes/route-definition.js';

/**
 * The life of one event stream as a child span of the request's (`sse stream`): the resume point
 * the client asked for (`sse.last_event_id`, the Last-Event-ID header), the events sent
 * (`sse.events_sent`) and how it ended (`sse.end`: `completed`, `client_gone`, `drained` — the replica sent it away on shutdown — or
 * `failed`). The
 * stream's gRPC call runs inside it, so the service's side of the stream is its child.
 */
export class StreamSpan {
  private readonly span: Span;
  private sent = 0;

  constructor(lastEventId: string | undefined) {
    this.span = startSpan('sse stream', {
      attributes: lastEventId !== undefined ? { 'sse.last_event_id': lastEventId.slice(0, 64) } : {},
    });
  }

  /** Runs `fn` (opening the upstream call and streaming) with this span active. */
  run<T>(fn: () => Promise<T>): Promise<T> {
    return runInSpan(this.span, fn);
  }

  /** `events` as they are, each real event (not the `open` marker) counted as it is handed on. */
  counted(events: AsyncIterable<SseEvent>): AsyncIterable<SseEvent> {
    const count = () => (this.sent += 1);
    return {
      async *[Symbol.asyncIterator]() {
        for await (const event of events) {
          if (!('open' in event)) count();
          yield event;
        }
      },
    };
  }

  end(how: 'completed' | 'client_gone' | 'drained' | 'failed', error?: unknown): void {
    this.span.setAttribute('sse.events_sent', this.sent);
    this.span.setAttribute('sse.end', how);
    if (error !== undefined) recordFailure(this.span, error);
    this.span.end();
  }
}
