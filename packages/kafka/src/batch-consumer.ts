import type { Logger } from '@platform/logger';
import { recordFailure, ROOT_CONTEXT, runInSpan } from '@platform/telemetry';
import type { Batch, Consumer, KafkaMessage } from 'kafkajs';
import { performance } from 'node:perf_hooks';
import { ensureTopics } from './admin.js';
import type { KafkaClient } from './client.js';
import type { ConsumerHandle } from './consumer.js';
import { NonRetryableError } from './errors.js';
import { decodeHeaders, Headers } from './headers.js';
import { rawKafka, sleep } from './internal.js';
import { batchMessage, type BatchMessage, type TrackedBatchMessage } from './batch-message.js';
import { batchSpan, countConsumed, observeHandling } from './message-telemetry.js';
import { Producer } from './producer.js';
import { deadLetterTopic } from './topics.js';

export interface RunBatchConsumerOptions<T> {
  groupId: string;
  topics: string[];
  logger: Logger;
  /**
   * Turns one message's JSON value into what `handle` takes; throwing (a NonRetryableError, or
   * anything) sends that message alone to `<topic>.dlq`.
   */
  decode: (value: unknown, message: { topic: string; timestamp: Date }) => T;
  /**
   * Handles the decoded messages of one fetched batch (one partition, in offset order). Must be
   * idempotent: after a crash the batch is delivered again. A failing batch is retried with backoff,
   * then handled one message at a time so only the messages that still fail are dead-lettered.
   * `messages[i]` is the message `items[i]` came from: its headers, request id, and `run` to do
   * work that belongs to that one message under its own request id and trace (batch-message.ts).
   */
  handle: (items: T[], topic: string, messages: BatchMessage[]) => Promise<void>;
  fromBeginning?: boolean;
  maxRetries?: number;
  retryBackoffMs?: number;
  /** Partitions handled in parallel. Default 1. */
  concurrency?: number;
  maxWaitTimeMs?: number;
}

/**
 * A consumer-group loop for high-volume facts: one handler call per fetched batch instead of per
 * message (a fact table takes a thousand rows in one statement far faster than one by one).
 * Offsets are committed after the batch was handled, so delivery is at-least-once.
 */
export async function runBatchConsumer<T>(
  client: KafkaClient,
  options: RunBatchConsumerOptions<T>,
): Promise<ConsumerHandle> {
  const logger = options.logger.child({ consumer_group: options.groupId });
  const maxRetries = options.maxRetries ?? 3;
  const backoff = options.retryBackoffMs ?? 500;
  await ensureTopics(client, options.topics.map(deadLetterTopic), { logger });
  const producer = new Producer(client);
  const consumer: Consumer = rawKafka(client).consumer({
    groupId: options.groupId,
    maxWaitTimeInMs: options.maxWaitTimeMs ?? 1000,
    allowAutoTopicCreation: false,
  });
  let stopping = false;
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  consumer.on(consumer.events.GROUP_JOIN, () => markReady());

  const deadLetter = async (batch: Batch, message: KafkaMessage, error: Error) => {
    await producer.publishRaw(deadLetterTopic(batch.topic), [
      {
        key: message.key,
        value: message.value,
        headers: {
          ...decodeHeaders(message.headers),
          [Headers.DLQ_ERROR]: error.message.slice(0, 2000),
          [Headers.DLQ_ERROR_NAME]: error.name,
          [Headers.DLQ_ORIGINAL_TOPIC]: batch.topic,
          [Headers.DLQ_ORIGINAL_PARTITION]: String(batch.partition),
          [Headers.DLQ_ORIGINAL_OFFSET]: message.offset,
          [Headers.DLQ_CONSUMER_GROUP]: options.groupId,
          [Headers.DLQ_FAILED_AT]: new Date().toISOString(),
        },
      },
    ]);
    countConsumed(batch.topic, options.groupId, 'dead_lettered');
    logger.error({ topic: batch.topic, offset: message.offset, err: error }, 'message dead-lettered');
  };

  /** One handler call; the message spans it opened end with it. */
  const handleOnce = async (items: T[], messages: TrackedBatchMessage[], topic: string) => {
    try {
      await options.handle(items, topic, messages);
    } catch (err) {
      for (const message of messages) message.finish(err);
      throw err;
    }
    for (const message of messages) message.finish();
  };

  const attempt = async (
    items: T[],
    messages: TrackedBatchMessage[],
    topic: string,
    heartbeat: () => Promise<void>,
  ): Promise<boolean> => {
    for (let tries = 0; ; tries += 1) {
      try {
        await handleOnce(items, messages, topic);
        return true;
      } catch (err) {
        if (err instanceof NonRetryableError || tries >= maxRetries || stopping) return false;
        logger.warn({ err, tries }, 'batch failed; retrying');
        await sleep(Math.min(backoff * 2 ** tries, 10_000));
        await heartbeat().catch(() => undefined);
      }
    }
  };

  /**
   * Decodes and handles one fetched batch; a message that cannot be decoded, or still fails when
   * handled alone, goes to the dead-letter topic.
   */
  const handleBatch = async (batch: Batch, heartbeat: () => Promise<void>): Promise<void> => {
    const decoded: Array<{ message: KafkaMessage; item: T; meta: TrackedBatchMessage }> = [];
    for (const message of batch.messages) {
      try {
        const value: unknown = JSON.parse(message.value?.toString() ?? 'null');
        const item = options.decode(value, {
          topic: batch.topic,
          timestamp: new Date(Number(message.timestamp)),
        });
        decoded.push({
          message,
          item,
          meta: batchMessage(batch.topic, batch.partition, message, options.groupId),
        });
      } catch (err) {
        await deadLetter(batch, message, err instanceof Error ? err : new Error(String(err)));
      }
    }
    const items = decoded.map((entry) => entry.item);
    if (items.length === 0) return;
    const messages = decoded.map((entry) => entry.meta);
    if (await attempt(items, messages, batch.topic, heartbeat)) {
      countConsumed(batch.topic, options.groupId, 'handled', items.length);
      return;
    }
    if (stopping) throw new Error('consumer stopping; batch left for redelivery');
    countConsumed(batch.topic, options.groupId, 'failed', items.length);
    for (const entry of decoded) {
      try {
        await handleOnce([entry.item], [entry.meta], batch.topic);
        countConsumed(batch.topic, options.groupId, 'handled');
      } catch (err) {
        await deadLetter(batch, entry.message, err instanceof Error ? err : new Error(String(err)));
      }
    }
  };

  await consumer.connect();
  try {
    await consumer.subscribe({ topics: options.topics, fromBeginning: options.fromBeginning ?? true });
    await consumer.run({
      partitionsConsumedConcurrently: options.concurrency ?? 1,
      eachBatchAutoResolve: false,
      eachBatch: async ({ batch, resolveOffset, heartbeat, commitOffsetsIfNecessary, isRunning }) => {
        if (!isRunning() || batch.messages.length === 0) return;
        const span = batchSpan(batch, options.groupId);
        const startedAt = performance.now();
        try {
          await runInSpan(span, () => handleBatch(batch, heartbeat), ROOT_CONTEXT);
        } catch (error) {
          recordFailure(span, error);
          throw error;
        } finally {
          observeHandling(batch.topic, options.groupId, startedAt);
          span.end();
        }
        resolveOffset(batch.messages[batch.messages.length - 1]!.offset);
        await commitOffsetsIfNecessary();
        await heartbeat();
      },
    });
  } catch (err) {
    await consumer.disconnect().catch(() => undefined);
    throw err;
  }

  let stopPromise: Promise<void> | undefined;
  let unregister: () => void = () => undefined;
  const stop = (): Promise<void> => {
    stopPromise ??= (async () => {
      stopping = true;
      unregister();
      await consumer.disconnect();
      await producer.disconnect();
      markReady();
    })();
    return stopPromise;
  };
  unregister = client.onDisconnect(stop, 'consumer');
  return { groupId: options.groupId, ready, stop };
}
