import { randomUUID } from 'node:crypto';
import { runConsumer, type ConsumedMessage, type ConsumerHandle, type KafkaClient } from '@platform/kafka';
import { waitUntil } from './wait-until.js';

export interface EventCapture {
  /** Every message received since the consumer joined (or since `clear`). */
  readonly messages: ConsumedMessage[];
  clear(): void;
  /** The first message `match` accepts, waiting up to 15 s for it. */
  waitFor(match: (message: ConsumedMessage) => boolean, failure: string): Promise<ConsumedMessage>;
  stop(): Promise<void>;
}

/**
 * A fresh consumer group on `topics` that starts at their end once it has joined: only the events
 * the test causes from now on. Resolves when the consumer is ready.
 */
export async function captureEvents(
  kafka: KafkaClient,
  name: string,
  topics: string[],
): Promise<EventCapture> {
  const messages: ConsumedMessage[] = [];
  const consumer: ConsumerHandle = await runConsumer(kafka, {
    groupId: `test.${name}.${randomUUID()}`,
    topics,
    fromBeginning: false,
    handler: async (message) => {
      messages.push(message);
    },
  });
  await consumer.ready;
  return {
    messages,
    clear: () => {
      messages.length = 0;
    },
    waitFor: (match, failure) => waitUntil(() => messages.find(match), 15_000, failure),
    stop: () => consumer.stop(),
  };
}
