import { createParser } from 'eventsource-parser';

/** One parsed Server-Sent Event. */
export interface SseMessage {
  id: string | undefined;
  event: string;
  data: string;
}

export interface SseSession {
  status: number;
  contentType: string | null;
  /** The JSON envelope when the server refused before streaming. */
  body: unknown;
  events: SseMessage[];
  /**
   * Resolves when the stream ended: cleanly, by `abort`, or with the connection cut (a gateway that
   * went away: then `cut` is true). A browser's EventSource reconnects in all three cases.
   */
  ended: Promise<void>;
  cut: boolean;
  /** Resolves once `n` events have arrived. */
  waitFor(n: number, timeoutMs?: number): Promise<SseMessage[]>;
  abort(): void;
}

/** Opens an SSE stream with fetch and parses it as it arrives (a test's EventSource). */
export async function openSse(url: string, headers: Record<string, string> = {}): Promise<SseSession> {
  const controller = new AbortController();
  const res = await fetch(url, {
    headers: { accept: 'text/event-stream', ...headers },
    signal: controller.signal,
  });
  const contentType = res.headers.get('content-type');
  const events: SseMessage[] = [];
  const listeners = new Set<() => void>();
  if (!contentType?.startsWith('text/event-stream')) {
    const body: unknown = await res.json();
    return {
      status: res.status,
      contentType,
      body,
      events,
      cut: false,
      ended: Promise.resolve(),
      waitFor: () => Promise.reject(new Error(`no stream: ${res.status} ${JSON.stringify(body)}`)),
      abort: () => controller.abort(),
    };
  }
  let cut = false;
  const ended = (async () => {
    const decoder = new TextDecoder();
    // eventsource-parser: the WHATWG framing a browser's EventSource applies (events with data only).
    const parser = createParser({
      onEvent: ({ id, event, data }) => {
        events.push({ id, event: event ?? 'message', data });
        for (const listener of listeners) listener();
      },
    });
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        parser.feed(decoder.decode(chunk, { stream: true }));
      }
    } catch {
      if (!controller.signal.aborted) cut = true;
    }
  })();
  const session: SseSession = {
    status: res.status,
    contentType,
    body: undefined,
    events,
    cut: false,
    ended: Promise.resolve(),
    abort: () => controller.abort(),
    waitFor: (n, timeoutMs = 15_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (events.length >= n) {
            listeners.delete(check);
            clearTimeout(timer);
            resolve(events.slice(0, n));
          }
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`only ${events.length} of ${n} events after ${timeoutMs} ms`));
        }, timeoutMs);
        listeners.add(check);
        void session.ended.then(check);
        check();
      }),
  };
  session.ended = ended.then(() => {
    session.cut = cut;
  });
  return session;
}
