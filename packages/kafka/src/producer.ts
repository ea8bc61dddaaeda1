import { randomUUID } from 'node:crypto';
import kafkajs, { type Producer as RawProducer } from 'kafkajs';
import { requestContext } from '@platform/logger';
import { activeContext, recordFailure, setSpan, type Context } from '@platform/telemetry';
import type { KafkaClient } from './client.js';
import { Headers, JSON_CONTENT_TYPE } from './headers.js';
import { rawKafka } from './internal.js';
import { addTraceHeaders, countProduced, producerSpan } from './message-telemetry.js';

const { Partitioners } = kafkajs;

export interface PublishMessage {
  /** Partitioning key: messages with the same key keep their order. */
  key?: string | null;
  /** Any JSON-serializable object. */
  value: object;
  /** Extra headers; they may override the defaults except `content-type`. */
  headers?: Record<string, string>;
  /** `x-event-type`; defaults to `value.type`, else `value.task`, when those are strings. */
  type?: string;
  /** `x-message-id` used for idempotent consumption; defaults to `value.id` if a string, else a UUID. */
  id?: string;
}

export interface RawMessage {
  key: string | Buffer | null;
  value: string | Buffer | null;
  headers: Record<string, string>;
}

/**
 * An idempotent producer (acks=all, one in-flight request per broker so retries cannot reorder a
 * partition) that connects on first use. Sends fail after roughly 30 s of retries when Kafka is
 * unreachable instead of hanging forever; callers keep state that must survive in their own store.
 */
export class Producer {
  private readonly producer: RawProducer;
  private connecting: Promise<void> | undefined;
  private unregister: (() => void) | undefined;

  constructor(private readonly client: KafkaClient) {
    this.producer = rawKafka(client).producer({
      idempotent: true,
      maxInFlightRequests: 1,
      allowAutoTopicCreation: false,
      createPartitioner: Partitioners.DefaultPartitioner,
      retry: { initialRetryTime: 300, retries: 8, maxRetryTime: 5000 },
    });
  }

  async connect(): Promise<void> {
    this.connecting ??= this.producer.connect().then(
      () => {
        this.unregister = this.client.onDisconnect(() => this.disconnect(), 'producer');
      },
      (err: unknown) => {
        this.connecting = undefined;
        throw err;
      },
    );
    await this.connecting;
  }

  /** Publishes one JSON message; resolves to its message id once the broker acknowledged it. */
  async publish(topic: string, message: PublishMessage): Promise<{ id: string }> {
    const span = producerSpan(topic);
    const { id, raw } = toRawMessage(message, setSpan(activeContext(), span));
    try {
      await this.publishRaw(topic, [raw]);
      return { id };
    } catch (error) {
      recordFailure(span, error);
      throw error;
    } finally {
      span.end();
    }
  }

  /**
   * Publishes several JSON messages (any topics) in ONE produce request, acknowledged together;
   * messages to one partition keep the given order. The outbox relay sends its batch this way.
   */
  async publishMany(messages: Array<{ topic: string; message: PublishMessage }>): Promise<void> {
    if (messages.length === 0) return;
    const byTopic = new Map<string, RawMessage[]>();
    for (const { topic, message } of messages) {
      const list = byTopic.get(topic) ?? [];
      list.push(toRawMessage(message).raw);
      byTopic.set(topic, list);
    }
    await this.connect();
    try {
      await this.producer.sendBatch({
        topicMessages: [...byTopic].map(([topic, list]) => ({ topic, messages: list })),
        acks: -1,
      });
    } catch (error) {
      for (const [topic, list] of byTopic) countProduced(topic, 'failed', list.length);
      throw error;
    }
    for (const [topic, list] of byTopic) countProduced(topic, 'ok', list.length);
  }

  /** Sends messages exactly as given (used for dead-lettering and replays). */
  async publishRaw(topic: string, messages: RawMessage[]): Promise<void> {
    await this.connect();
    try {
      await this.producer.send({ topic, messages, acks: -1 });
    } catch (error) {
      countProduced(topic, 'failed', messages.length);
      throw error;
    }
    countProduced(topic, 'ok', messages.length);
  }

  async disconnect(): Promise<void> {
    this.unregister?.();
    this.unregister = undefined;
    if (!this.connecting) return;
    this.connecting = undefined;
    await this.producer.disconnect();
  }
}

/**
 * The message as sent: JSON value, key, and the platform headers (request, message and user ids,
 * type, and the W3C `traceparent` of `trace` or the active span unless the caller set one).
 */
function toRawMessage(message: PublishMessage, trace?: Context): { id: string; raw: RawMessage } {
  const value = message.value as Record<string, unknown>;
  const id = message.id ?? (typeof value.id === 'string' ? value.id : randomUUID());
  const type =
    message.type ??
    (typeof value.type === 'string' ? value.type : typeof value.task === 'string' ? value.task : undefined);
  const context = requestContext.current();
  const headers: Record<string, string> = {
    [Headers.REQUEST_ID]: context?.requestId ?? requestContext.newRequestId(),
    [Headers.MESSAGE_ID]: id,
  };
  if (context?.userId) headers[Headers.USER_ID] = context.userId;
  if (type) headers[Headers.EVENT_TYPE] = type;
  Object.assign(headers, message.headers, { [Headers.CONTENT_TYPE]: JSON_CONTENT_TYPE });
  addTraceHeaders(headers, trace);
  return { id, raw: { key: message.key ?? null, value: JSON.stringify(message.value), headers } };
}

/** A producer bound to `client`; it is disconnected by `client.disconnect()`. */
export function createProducer(client: KafkaClient): Producer {
  return new Producer(client);
}
