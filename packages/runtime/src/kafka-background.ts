import type { KafkaClient } from '@platform/kafka';
import type { Logger } from '@platform/logger';

export interface BackgroundStartOptions {
  /** First retry delay, doubled up to `maxDelayMs`. Default 1 s. */
  initialDelayMs?: number;
  /** Default 30 s. */
  maxDelayMs?: number;
}

/**
 * Starts a Kafka consumer or worker without holding up the service: a service must start and serve
 * while Kafka is down (requests write to the outbox, which the relay publishes later). The start
 * is retried with back-off until it succeeds; `kafka.disconnect()` ends the retrying, and whatever
 * started registered its own closer with the client. Returns at once.
 */
export function startWhenKafkaIsReachable(
  kafka: KafkaClient,
  logger: Logger,
  label: string,
  start: () => Promise<unknown>,
  options: BackgroundStartOptions = {},
): void {
  const maxDelay = options.maxDelayMs ?? 30_000;
  let delay = options.initialDelayMs ?? 1_000;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  const unregister = kafka.onDisconnect(async () => {
    closed = true;
    if (timer) clearTimeout(timer);
  }, 'consumer');
  const attempt = (): void => {
    timer = undefined;
    if (closed) return;
    start().then(
      () => {
        unregister();
        // A start that finished after disconnect() registered a closer nobody will call.
        if (closed) void kafka.disconnect();
      },
      (error: unknown) => {
        if (closed) return;
        logger.warn(
          { err: error, retry_in_ms: delay },
          `${label} could not start (Kafka unreachable?); retrying`,
        );
        timer = setTimeout(attempt, delay);
        timer.unref();
        delay = Math.min(delay * 2, maxDelay);
      },
    );
  };
  attempt();
}
