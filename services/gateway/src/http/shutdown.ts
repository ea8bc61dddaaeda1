import type { Server } from 'node:http';
import type { ShutdownDrain } from './drain.js';

export interface ShutdownPlan {
  /** SHUTDOWN_DRAIN_MS: not ready but serving, so the balancer stops sending first. */
  drainMs: number;
  /** SHUTDOWN_TIMEOUT_MS: then how long requests in flight may finish before sockets are cut. */
  timeoutMs: number;
  /** Aborted (a second signal): the drain window ends at once. */
  hurry?: AbortSignal;
}

export interface ShutdownReport {
  /** Event streams that got the `retry:` hint and were ended. */
  streamsSentAway: number;
  /** True when requests were still in flight after `timeoutMs` and their sockets were cut. */
  connectionsCut: boolean;
  /** From `begin` to the listener closed with every connection. */
  elapsedMs: number;
}

/** Waits `ms` or until `signal` aborts; the timer never keeps the process alive past its use. */
function wait(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** How often connections that went idle after `close()` are closed (Node closes only the idle ones at the call). */
const IDLE_SWEEP_MS = 50;

/**
 * The gateway's SIGTERM sequence (docs/gateway.md "Shutdown"): readiness false at once while every
 * request is still served (`drainMs`); then the listener closes, every open event stream gets its
 * `retry:` hint and ends (EventSource comes back elsewhere with its Last-Event-ID), idle keep-alive
 * connections close, and requests in flight get `timeoutMs` before their sockets are cut.
 */
export async function drainAndClose(
  server: Server,
  drain: ShutdownDrain,
  plan: ShutdownPlan,
): Promise<ShutdownReport> {
  const started = performance.now();
  drain.begin();
  await wait(plan.drainMs, plan.hurry);
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  const streamsSentAway = drain.closeStreams();
  // A keep-alive connection whose response ends after close() would otherwise idle on to its
  // keep-alive timeout (65 s) and hold the exit.
  const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
  let connectionsCut = false;
  const deadline = new AbortController();
  await Promise.race([
    closed,
    wait(plan.timeoutMs, deadline.signal).then(() => {
      if (deadline.signal.aborted) return;
      connectionsCut = true;
      server.closeAllConnections();
    }),
  ]);
  deadline.abort();
  clearInterval(sweep);
  await closed;
  return { streamsSentAway, connectionsCut, elapsedMs: Math.round(performance.now() - started) };
}
