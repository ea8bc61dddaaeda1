import type { Admin, Kafka } from 'kafkajs';

// Package-internal: the kafkajs instance behind each KafkaClient. Kept out of the public API so that
// swapping the Kafka client library touches this package only.
const rawClients = new WeakMap<object, Kafka>();

export function registerRawKafka(client: object, kafka: Kafka): void {
  rawClients.set(client, kafka);
}

export function rawKafka(client: object): Kafka {
  const kafka = rawClients.get(client);
  if (!kafka) throw new Error('not a KafkaClient created by createKafka');
  return kafka;
}

/** Runs `fn` with a connected admin client, disconnecting afterwards. */
export async function withAdmin<T>(client: object, fn: (admin: Admin) => Promise<T>): Promise<T> {
  const admin = rawKafka(client).admin();
  await admin.connect();
  try {
    return await fn(admin);
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Retries `fn` while it fails with an error Kafka marks retriable (e.g. NOT_COORDINATOR or
 * COORDINATOR_LOAD_IN_PROGRESS right after a broker start, when the offsets topic is still being
 * created), with a doubling backoff, for at most `timeoutMs`.
 */
export async function retryRetriable<T>(fn: () => Promise<T>, timeoutMs = 15_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (let delay = 100; ; delay = Math.min(delay * 2, 2_000)) {
    try {
      return await fn();
    } catch (error) {
      const retriable = (error as { retriable?: boolean }).retriable === true;
      if (!retriable || Date.now() + delay > until) throw error;
      await sleep(delay);
    }
  }
}
