import type { NextFunction, Request, Response } from 'express';

/** What an open event stream does when the replica drains: send the `retry:` hint, then end. */
export type StreamCloser = (retryMs: number) => void;

/**
 * The replica's shutdown state, shared by the readiness route, the SSE writer and main.ts.
 * `begin()` (SIGTERM) makes readiness answer 503 and every later response carry
 * `Connection: close` (a load balancer's pooled connections go elsewhere), while requests are still
 * served; `closeStreams()` (end of the drain window) tells every open event stream to come back
 * (`retry:`) and ends it, so an EventSource reconnects, with its Last-Event-ID, to another replica.
 */
export class ShutdownDrain {
  private began = false;
  private streamsSentAway = false;
  private readonly streams = new Set<StreamCloser>();

  /** `retryHintMs`: the smallest `retry:` hint (SSE_RETRY_MS). */
  constructor(private readonly retryHintMs: number) {}

  /** True from SIGTERM on: not ready, new event streams are sent away at once. */
  get draining(): boolean {
    return this.began;
  }

  get openStreams(): number {
    return this.streams.size;
  }

  begin(): void {
    this.began = true;
  }

  /**
   * A hint between SSE_RETRY_MS and twice it: the streams of one replica come back spread over
   * that span instead of all in the same instant.
   */
  retryMs(): number {
    return this.retryHintMs + Math.floor(Math.random() * (this.retryHintMs + 1));
  }

  /**
   * Registers an open stream until the returned function is called (the stream ended). A stream
   * that opens after `closeStreams()` (its upstream call was already on its way) is sent away at once.
   */
  track(close: StreamCloser): () => void {
    if (this.streamsSentAway) {
      queueMicrotask(() => close(this.retryMs()));
      return () => undefined;
    }
    this.streams.add(close);
    return () => this.streams.delete(close);
  }

  /** Sends every open stream away (each with its own hint); how many there were. */
  closeStreams(): number {
    this.streamsSentAway = true;
    const open = [...this.streams];
    this.streams.clear();
    for (const close of open) close(this.retryMs());
    return open.length;
  }

  /** Express middleware: while draining, no connection is kept alive for another request. */
  readonly middleware = (_req: Request, res: Response, next: NextFunction): void => {
    if (this.began) res.setHeader('Connection', 'close');
    next();
  };
}
