import { requestContext, type Logger } from '@platform/logger';
import type { Redis } from '@platform/redis';
import { recordFailure, runInSpan } from '@platform/telemetry';
import type { Consumer, EachMessagePayload } from 'kafkajs';
import { performance } from 'node:perf_hooks';
import { ensureTopics } from './admin.js';
import type { KafkaClient } from './client.js';
import { NonRetryableError } from './errors.js';
import { decodeHeaders, Headers } from './headers.js';
import { rawKafka, sleep } from './internal.js';
import { consumerSpan, countConsumed, observeHandling } from './message-telemetry.js';
import { RedisProcessedStore, type ProcessedStore } from './processed-store.js';
import { Producer } from './producer.js';
import type { ConsumerObserver } from './task-states.js';
import { deadLetterTopic, isDeadLetterTopic } from './topics.js';

export interface ConsumedMessage<T = unknown> {
  topic: string;
  partition: number;
  offset: string;
  key: string | null;
  /** The decoded JSON value. */
  value: T;
  headers: Record<string, string>;
  /** `x-message-id`, else `value.id`: the idempotency key. */
  id: string | undefined;
  requestId: string;
  eventType: string | undefined;
  /** 1 on first delivery to the handler, incremented by each retry. */
  attempt: number;
  /** Broker timestamp (ms since epoch, as a string). */
  timestamp: string;
}

export type MessageHandler<T = unknown> = (message: ConsumedMessage<T>) => Promise<void> | void;

export interface RunConsumerOptions<T = unknown> {
  groupId: string;
  topics: string[];
  handler: MessageHandler<T>;
  logger?: Logger;
  /** Retries after the first failed attempt before dead-lettering. Default 3. */
  maxRetries?: number;
  /** First retry delay, doubled per retry. Default 500 ms. */
  retryBackoffMs?: number;
  /** Cap of the retry delay. Default 10 000 ms. */
  maxRetryBackoffMs?: number;
  /** Where handled ids are remembered; or pass `redis` for the Redis-backed store. */
  processedStore?: ProcessedStore;
  redis?: Redis;
  /**
   * Parse values as JSON (undecodable ones are dead-lettered). Default true; false hands the handler
   * the UTF-8 string (or null), e.g. for reading a dead-letter topic.
   */
  decodeJson?: boolean;
  /** A new group starts at the earliest retained message. Default true. */
  fromBeginning?: boolean;
  /** Partitions handled in parallel. Default 1. */
  concurrency?: number;
  /** Default 30 000 ms. Tests may use less. */
  sessionTimeoutMs?: number;
  /** Default 3000 ms. */
  heartbeatIntervalMs?: number;
  /** Default 60 000 ms. */
  rebalanceTimeoutMs?: number;
  /**
   * Longest a fetch waits on the broker for new messages. `stop()` waits for the fetch in flight,
   * so this bounds shutdown time. Default 1000 ms (kafkajs: 5000).
   */
  maxWaitTimeMs?: number;
  /**
   * Called when the consumer crashed and will not restart by itself (a non-retriable error). The
   * consumer then consumes nothing more; a service usually exits so its supervisor restarts it.
   */
  onFatal?: (error: Error) => void;
  /** Told when batches arrive and messages start, wait for a retry and finish (task-state reports). */
  observer?: ConsumerObserver;
}

export interface ConsumerHandle {
  readonly groupId: string;
  /** Resolves when the consumer first joined its group and got its partitions. */
  readonly ready: Promise<void>;
  /** Finishes the message in hand, commits, leaves the group. Idempotent. */
  stop(): Promise<void>;
}

class StoppingError extends Error {}

/**
 * Runs a consumer-group loop. Per message: decode JSON (undecodable → dead letter at once), skip ids
 * the group already processed, run the handler inside a request context carrying the message's
 * `x-request-id`, retry failures with exponential backoff, then publish to `<topic>.dlq` with error
 * headers and move on. An id is marked processed only after its handler succeeded, and the offset is
 * committed after that, so a crash in between means a redelivery that the store then skips.
 */
export async function runConsumer<T = unknown>(
  client: KafkaClient,
  options: RunConsumerOptions<T>,
): Promise<ConsumerHandle> {
  const { groupId, handler } = options;
  const logger = (options.logger ?? client.logger).child({ consumer_group: groupId });
  const maxRetries = options.maxRetries ?? 3;
  const backoff = options.retryBackoffMs ?? 500;
  const maxBackoff = options.maxRetryBackoffMs ?? 10_000;
  const heartbeatMs = options.heartbeatIntervalMs ?? 3000;
  const store =
    options.processedStore ?? (options.redis ? new RedisProcessedStore(options.redis) : undefined);
  if (!store) logger.warn('consumer runs without a processed-id store: redeliveries are handled again');

  const deadLetterTopics = options.topics.filter((t) => !isDeadLetterTopic(t)).map(deadLetterTopic);
  if (deadLetterTopics.length > 0) await ensureTopics(client, deadLetterTopics, { logger });
  const producer = new Producer(client);

  const consumer: Consumer = rawKafka(client).consumer({
    groupId,
    sessionTimeout: options.sessionTimeoutMs ?? 30_000,
    heartbeatInterval: heartbeatMs,
    rebalanceTimeout: options.rebalanceTimeoutMs ?? 60_000,
    maxWaitTimeInMs: options.maxWaitTimeMs ?? 1000,
    allowAutoTopicCreation: false,
  });

  let stopping = false;
  let wake: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => (wake = resolve));
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  consumer.on(consumer.events.GROUP_JOIN, () => markReady());
  if (options.observer) {
    const seen = options.observer;
    type BatchEvent = { payload: { topic: string; partition: number; batchSize?: number } };
    consumer.on(consumer.events.START_BATCH_PROCESS, ({ payload }: BatchEvent) =>
      seen.batchFetched(`${payload.topic}:${payload.partition}`, payload.batchSize ?? 0),
    );
    consumer.on(consumer.events.END_BATCH_PROCESS, ({ payload }: BatchEvent) =>
      seen.batchDone(`${payload.topic}:${payload.partition}`),
    );
  }
  consumer.on(consumer.events.CRASH, (event) => {
    const { error, restart } = event.payload as { error: Error; restart: boolean };
    logger.error({ err: error, restart }, 'kafka consumer crashed');
    if (!restart && !stopping) options.onFatal?.(error);
  });

  const deadLetter = async (payload: EachMessagePayload, error: Error, attempts: number) => {
    const { topic, partition, message } = payload;
    if (isDeadLetterTopic(topic)) throw error; // never dead-letter a dead letter: retry via kafkajs
    await producer.publishRaw(deadLetterTopic(topic), [
      {
        key: message.key,
        value: message.value,
        headers: {
          ...decodeHeaders(message.headers),
          [Headers.DLQ_ERROR]: error.message.slice(0, 2000),
          [Headers.DLQ_ERROR_NAME]: error.name,
          [Headers.DLQ_ATTEMPTS]: String(attempts),
          [Headers.DLQ_ORIGINAL_TOPIC]: topic,
          [Headers.DLQ_ORIGINAL_PARTITION]: String(partition),
          [Headers.DLQ_ORIGINAL_OFFSET]: message.offset,
          [Headers.DLQ_CONSUMER_GROUP]: groupId,
          [Headers.DLQ_FAILED_AT]: new Date().toISOString(),
        },
      },
    ]);
    logger.error({ topic, partition, offset: message.offset, attempts, err: error }, 'message dead-lettered');
  };

  const observer = options.observer;
  const eachMessage = async (payload: EachMessagePayload): Promise<void> => {
    if (!observer) return handleMessage(payload);
    observer.started(`${payload.topic}:${payload.partition}`);
    try {
      await handleMessage(payload);
    } finally {
      observer.finished();
    }
  };

  const handleMessage = async (payload: EachMessagePayload): Promise<void> => {
    const { topic, partition, message } = payload;
    const headers = decodeHeaders(message.headers);
    let value: unknown = message.value?.toString() ?? null;
    try {
      if (options.decodeJson !== false) value = JSON.parse((value as string | null) ?? 'null');
    } catch (err) {
      await deadLetter(payload, new NonRetryableError(`invalid JSON: ${(err as Error).message}`), 0);
      countConsumed(topic, groupId, 'dead_lettered');
      return;
    }
    const valueId = (value as { id?: unknown } | null)?.id;
    const id = headers[Headers.MESSAGE_ID] ?? (typeof valueId === 'string' ? valueId : undefined);
    if (id && store && (await store.isProcessed(groupId, id))) {
      logger.debug(
        { topic, partition, offset: message.offset, message_id: id },
        'skipping processed message',
      );
      countConsumed(topic, groupId, 'duplicate');
      return;
    }
    const valueRequestId = (value as { request_id?: unknown } | null)?.request_id;
    const requestId =
      headers[Headers.REQUEST_ID] ??
      (typeof valueRequestId === 'string' && valueRequestId ? valueRequestId : requestContext.newRequestId());
    const userId = headers[Headers.USER_ID];
    const startedAt = performance.now();
    const { span, parent } = consumerSpan({ topic, partition, offset: message.offset, headers }, groupId);
    try {
      const outcome = await runInSpan(
        span,
        () => attempts(payload, { value, headers, id, requestId, userId }),
        parent,
      );
      countConsumed(topic, groupId, outcome);
    } catch (error) {
      recordFailure(span, error);
      throw error;
    } finally {
      observeHandling(topic, groupId, startedAt);
      span.end();
    }
  };

  /** Runs the handler until it succeeds or the message is dead-lettered; which one happened. */
  const attempts = async (
    payload: EachMessagePayload,
    decoded: {
      value: unknown;
      headers: Record<string, string>;
      id: string | undefined;
      requestId: string;
      userId: string | undefined;
    },
  ): Promise<'handled' | 'dead_lettered'> => {
    const { topic, partition, message } = payload;
    const { value, headers, id, requestId, userId } = decoded;
    for (let attempt = 1; ; attempt += 1) {
      const consumed: ConsumedMessage<T> = {
        topic,
        partition,
        offset: message.offset,
        key: message.key?.toString() ?? null,
        value: value as T,
        headers,
        id,
        requestId,
        eventType: headers[Headers.EVENT_TYPE],
        attempt,
        timestamp: message.timestamp,
      };
      const beat = setInterval(() => payload.heartbeat().catch(() => undefined), heartbeatMs);
      try {
        await requestContext.run(userId ? { requestId, userId } : { requestId }, () => handler(consumed));
        clearInterval(beat);
      } catch (err) {
        clearInterval(beat);
        const error = err instanceof Error ? err : new Error(String(err));
        countConsumed(topic, groupId, 'failed');
        if (error instanceof NonRetryableError || attempt > maxRetries) {
          await deadLetter(payload, error, attempt);
          return 'dead_lettered';
        }
        if (stopping) throw new StoppingError('consumer stopping; message left for redelivery');
        const delay = Math.min(backoff * 2 ** (attempt - 1), maxBackoff);
        logger.warn(
          { topic, partition, offset: message.offset, attempt, delay_ms: delay, err: error },
          'handler failed; retrying',
        );
        observer?.retryWaiting();
        await Promise.race([sleepWithHeartbeat(payload, delay, heartbeatMs, () => stopping), stopped]);
        observer?.retryDone();
        if (stopping) throw new StoppingError('consumer stopping; message left for redelivery');
        continue;
      }
      if (id && store) {
        await store.markProcessed(groupId, id).catch((err: unknown) => {
          logger.warn({ err, message_id: id }, 'could not record processed message id');
        });
      }
      return 'handled';
    }
  };

  await consumer.connect();
  try {
    await consumer.subscribe({ topics: options.topics, fromBeginning: options.fromBeginning ?? true });
    await consumer.run({ partitionsConsumedConcurrently: options.concurrency ?? 1, eachMessage });
  } catch (err) {
    await consumer.disconnect().catch(() => undefined);
    await options.observer?.close();
    throw err;
  }

  let stopPromise: Promise<void> | undefined;
  let unregister: () => void = () => undefined;
  const stop = (): Promise<void> => {
    stopPromise ??= (async () => {
      stopping = true;
      wake();
      unregister();
      await consumer.disconnect();
      await producer.disconnect();
      await options.observer?.close();
      markReady();
      logger.debug('consumer stopped');
    })();
    return stopPromise;
  };
  unregister = client.onDisconnect(stop, 'consumer');
  return { groupId, ready, stop };
}

async function sleepWithHeartbeat(
  payload: EachMessagePayload,
  ms: number,
  heartbeatMs: number,
  isStopping: () => boolean,
): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until && !isStopping()) {
    await sleep(Math.min(heartbeatMs, 250, until - Date.now()));
    await payload.heartbeat().catch(() => undefined);
  }
}
