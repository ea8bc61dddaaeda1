import type { Redis } from 'ioredis';

/**
 * Resolves once the client has been ready for the first time, or after `timeoutMs` (a Redis that is
 * down from the start). The gateway's client fails fast (no offline queue), so without this a
 * replica that has just started refuses its first requests with 503 while the connection is still
 * being made (seen under load in CI). Afterwards it resolves at once and failing fast is the
 * client's business again.
 */
export function firstConnection(client: Redis, timeoutMs: number): () => Promise<void> {
  let settled = client.status === 'ready';
  const started = settled
    ? Promise.resolve()
    : new Promise<void>((resolve) => {
        const finish = () => {
          settled = true;
          clearTimeout(timer);
          client.off('ready', finish);
          resolve();
        };
        const timer = setTimeout(finish, timeoutMs);
        timer.unref();
        client.once('ready', finish);
      });
  return () => (settled ? Promise.resolve() : started);
}
