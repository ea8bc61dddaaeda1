import { BusinessError, ErrorCode, fail, type Locale } from '@platform/errors';
import type { Response } from 'express';
import type { SseEvent } from '../routes/route-definition.js';
import type { ShutdownDrain } from './drain.js';

/** A comment line every 15 s keeps proxies and load balancers from closing an idle stream. */
const HEARTBEAT_MS = 15_000;

const frame = (event: Exclude<SseEvent, { open: true }>) =>
  `${event.id !== undefined ? `id: ${event.id}\n` : ''}event: ${event.event}\n${event.data
    .split('\n')
    .map((line) => `data: ${line}`)
    .join('\n')}\n\n`;

/** How a stream ended: its events ran out (or failed), or the replica sent it away (drain). */
export type StreamEnd = 'completed' | 'drained';

const STREAM_HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-cache, no-store',
  'X-Accel-Buffering': 'no',
};

/**
 * The last frame of a stream the replica sends away: the reconnection delay for the client's
 * EventSource and a comment for humans. No id: the client's Last-Event-ID stays its last event.
 */
const goAwayFrame = (retryMs: number) => `retry: ${retryMs}\n: shutting down, reconnect\n\n`;

/** Ends the response and then its connection (the client must reconnect through the balancer). */
function endAndClose(res: Response): void {
  const socket = res.socket;
  res.once('finish', () => socket?.end());
  res.end();
}

/**
 * A new stream while the replica drains: `200` with only the `retry:` hint, then the end. An
 * EventSource treats a 503 as final and never reconnects; this makes it come back after the hint
 * (by then through the balancer to another replica), keeping its Last-Event-ID.
 */
export function sendGoAwayStream(res: Response, retryMs: number): void {
  res.status(200).set({ ...STREAM_HEADERS, Connection: 'close' });
  res.write(goAwayFrame(retryMs));
  res.end();
}

/** Resolves (with `undefined`) on the emitter's next `event`. */
const once = (res: Response, event: string) =>
  new Promise<undefined>((resolve) => res.once(event, () => resolve(undefined)));

/** Resolves with the hint once the drain sends this stream away (never without `drain`). */
function whenSentAway(drain: ShutdownDrain | undefined): { sentAway: Promise<number>; untrack: () => void } {
  if (!drain) return { sentAway: new Promise<never>(() => undefined), untrack: () => undefined };
  let sendAway: (retryMs: number) => void = () => undefined;
  const sentAway = new Promise<number>((resolve) => (sendAway = resolve));
  return { sentAway, untrack: drain.track(sendAway) };
}

/**
 * Streams `events` as text/event-stream. The first event is awaited BEFORE any header goes out, so
 * a refusal (404, 403, a bad Last-Event-ID) is still the JSON envelope with its status; once
 * streaming, a failure is an `error` event without an id (a client reconnecting with its
 * Last-Event-ID resumes after the last real event) and the response ends cleanly: never a reset
 * socket. The client going away aborts `controller` (which cancels the upstream call). When the
 * replica drains (`drain`), the stream gets the `retry:` hint and ends with its connection; an
 * event read from upstream but not yet written is not lost: the client resumes before it.
 */
export async function sendEventStream(
  res: Response,
  events: AsyncIterable<SseEvent>,
  controller: AbortController,
  locale: Locale,
  drain?: ShutdownDrain,
): Promise<StreamEnd> {
  const iterator = events[Symbol.asyncIterator]();
  // The first event or the `open` marker; a throw here is still the caller's error envelope.
  const first = await iterator.next();
  res.status(200).set({ ...STREAM_HEADERS, Connection: 'keep-alive' });
  res.flushHeaders();
  const heartbeat = setInterval(() => res.write(': ping\n\n'), HEARTBEAT_MS);
  const { sentAway, untrack } = whenSentAway(drain);
  const away = sentAway.then((retryMs) => ({ away: retryMs }));
  try {
    let next: IteratorResult<SseEvent> | { away: number } = first;
    while (!('away' in next) && !next.done) {
      const event = next.value;
      if (!('open' in event) && !res.write(frame(event))) {
        const drained = await Promise.race([once(res, 'drain'), away]);
        if (drained !== undefined) {
          next = drained;
          break;
        }
      }
      const pending = iterator.next();
      // Sent away while waiting: the upstream call is cancelled when the response closes.
      pending.catch(() => undefined);
      next = await Promise.race([pending, away]);
    }
    if ('away' in next) {
      res.write(goAwayFrame(next.away));
      endAndClose(res);
      return 'drained';
    }
  } catch (error) {
    if (!controller.signal.aborted) {
      const business = error instanceof BusinessError ? error : new BusinessError(ErrorCode.INTERNAL_ERROR);
      // The envelope's own shape ({code, msg, data}), so clients parse one error format.
      res.write(frame({ event: 'error', data: JSON.stringify(fail(business, locale)) }));
    }
  } finally {
    untrack();
    clearInterval(heartbeat);
    if (!res.writableEnded) res.end();
  }
  return 'completed';
}
