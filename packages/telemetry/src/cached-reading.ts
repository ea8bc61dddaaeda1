import type { Logger } from '@platform/logger';

export interface CachedReadingOptions<T> {
  /** The figures, from a store or a broker (a query, an admin call). */
  read: () => Promise<T>;
  /** What is reported before the first successful reading. */
  initial: T;
  /** Scrapes within this long share one reading (several Prometheus replicas, one store). */
  ttlMs: number;
  /** A reading slower than this is abandoned and the last figures reported. */
  timeoutMs: number;
  logger: Logger;
  /** Names the figures in the throttled failure log. */
  what: string;
}

export interface CachedReading<T> {
  /** The figures, read again when older than `ttlMs`; the last good ones when a reading fails. */
  current(): Promise<T>;
}

/** One failure log per minute at most (with the count since the last), however often scraped. */
const LOG_EVERY_MS = 60_000;

/**
 * Figures a gauge collects on scrape from a store or broker: read at most every `ttlMs` (one
 * reading in flight, shared by concurrent scrapes), never waiting longer than `timeoutMs`. A failed
 * or slow reading keeps the last figures and is logged, throttled: a scrape never fails and never
 * adds load to a store in trouble.
 */
// Hand-kept, not lru-cache: a failed or slow reading keeps serving the last figures (stale on
// purpose) and is not retried before the TTL, which lru-cache's fetch does not express.
export function cachedReading<T>(options: CachedReadingOptions<T>): CachedReading<T> {
  let figures = options.initial;
  let readAt = -Infinity;
  let reading: Promise<void> | undefined;
  let lastLoggedAt = -Infinity;
  let failures = 0;

  const readOnce = async (): Promise<void> => {
    let timer: NodeJS.Timeout | undefined;
    try {
      figures = await Promise.race([
        options.read(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`timed out after ${options.timeoutMs} ms`)),
            options.timeoutMs,
          );
        }),
      ]);
    } catch (error) {
      failures += 1;
      if (performance.now() - lastLoggedAt >= LOG_EVERY_MS) {
        options.logger.warn(
          { err: error, failures },
          `${options.what} could not be read; the gauges keep their last values`,
        );
        lastLoggedAt = performance.now();
        failures = 0;
      }
    } finally {
      clearTimeout(timer);
      // A failure is not retried at every scrape either.
      readAt = performance.now();
    }
  };

  return {
    async current() {
      if (performance.now() - readAt >= options.ttlMs) {
        reading ??= readOnce().finally(() => {
          reading = undefined;
        });
        await reading;
      }
      return figures;
    },
  };
}
