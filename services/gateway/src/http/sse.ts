import { BusinessError, ErrorCode, fail, type Locale } from '@platform/errors';
import type { Response } from 'express';
import type { SseEvent } from '../routes/route-definition.js';

/** A comment line every 15 s keeps proxies and load balancers from closing an idle stream. */
const HEARTBEAT_MS = 15_000;

const frame = (event: Exclude<SseEvent, { open: true }>) =>
  `${event.id !== undefined ? `id: ${event.id}\n` : ''}event: ${event.event}\n${event.data
    .split('\n')
    .map((line) => `data: ${line}`)
    .join('\n')}\n\n`;

/**
 * Streams `events` as text/event-stream. The first event is awaited BEFORE any header goes out, so
 * a refusal (404, 403, a bad Last-Event-ID) is still the JSON envelope with its status; once
 * streaming, a failure is an `error` event without an id (a client reconnecting with its
 * Last-Event-ID resumes after the last real event) and the response ends cleanly: never a reset
 * socket. The client going away aborts `controller` (which cancels the upstream call).
 */
export async function sendEventStream(
  res: Response,
  events: AsyncIterable<SseEvent>,
  controller: AbortController,
  locale: Locale,
): Promise<void> {
  const iterator = events[Symbol.asyncIterator]();
  // The first event or the `open` marker; a throw here is still the caller's error envelope.
  const first = await iterator.next();
  res.status(200).set({
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache, no-store',
    Connection: 'keep-alive',
    'X-Accel-Buffering': 'no',
  });
  res.flushHeaders();
  const heartbeat = setInterval(() => res.write(': ping\n\n'), HEARTBEAT_MS);
  try {
    let next = first;
    while (!next.done) {
      const event = next.value;
      if (!('open' in event) && !res.write(frame(event)))
        await new Promise((resolve) => res.once('drain', resolve));
      next = await iterator.next();
    }
  } catch (error) {
    if (!controller.signal.aborted) {
      const business = error instanceof BusinessError ? error : new BusinessError(ErrorCode.INTERNAL_ERROR);
      // The envelope's own shape ({code, msg, data}), so clients parse one error format.
      res.write(frame({ event: 'error', data: JSON.stringify(fail(business, locale)) }));
    }
  } finally {
    clearInterval(heartbeat);
    if (!res.writableEnded) res.end();
  }
}
