import kafkajs, { type LogEntry, type SASLOptions } from 'kafkajs';
import { createLogger, type Logger } from '@platform/logger';
import { registerRawKafka } from './internal.js';

const { Kafka: KafkaClass, logLevel } = kafkajs;

export interface CreateKafkaOptions {
  /** `host:port` list, or one comma-separated string as in `KAFKA_BROKERS`. */
  brokers: string[] | string;
  clientId: string;
  logger?: Logger;
  /** Default 3000 ms. */
  connectionTimeoutMs?: number;
  /** Default 30 000 ms. */
  requestTimeoutMs?: number;
  /** How often a failed request is retried before the call fails (default 8, about 30 s in all). */
  retries?: number;
  /** TLS to the brokers (KAFKA_SSL). */
  ssl?: boolean;
  /** SASL credentials (KAFKA_SASL_*), validated by @platform/config's kafkaSecurity. */
  sasl?: { mechanism: 'plain' | 'scram-sha-256' | 'scram-sha-512'; username: string; password: string };
  /**
   * `create` (default): `ensureTopics` creates missing topics from the catalog. `verify`
   * (KAFKA_TOPIC_MODE, production): it creates nothing; topics are provisioned by the
   * `kafka-topics` command and checked at start (topic-provisioning.ts).
   */
  topicMode?: TopicMode;
}

export type TopicMode = 'create' | 'verify';

/** kafkajs messages that are expected in normal operation and would only alarm an operator. */
const QUIET = [
  /Limiting retries for the idempotent producer/,
  /The group is rebalancing, re-joining/,
  /The coordinator is not aware of this member/,
  /consumer stopping; message left for redelivery/,
];

/** Routes kafkajs's own logging onto pino, at warn and above, quieting the expected noise. */
function kafkaLogCreator(logger: Logger) {
  return () =>
    ({ namespace, level, log }: LogEntry) => {
      const { message, timestamp: _timestamp, logger: _logger, error, stack, ...extra } = log;
      // Errors go under `err` so pino serializes them (message, type, stack).
      if (error instanceof Error) extra.err = error;
      else if (error !== undefined) extra.error = String(error);
      else if (stack !== undefined) extra.stack = stack;
      let method: 'error' | 'warn' | 'info' | 'debug' =
        level === logLevel.ERROR
          ? 'error'
          : level === logLevel.WARN
            ? 'warn'
            : level === logLevel.INFO
              ? 'info'
              : 'debug';
      const text = `${message} ${error instanceof Error ? error.message : String(error ?? '')}`;
      if (QUIET.some((pattern) => pattern.test(text))) method = 'debug';
      // Error responses (a coordinator still loading, a partition without a leader yet) are logged
      // by kafkajs at error level even when it then retries and succeeds; the caller sees the real
      // failure, if any, as a rejected promise.
      else if (method === 'error' && namespace === 'Connection' && message.startsWith('Response '))
        method = 'warn';
      logger[method]({ kafkajs: namespace, ...extra }, message);
    };
}

export function parseBrokers(brokers: string[] | string): string[] {
  const list = (Array.isArray(brokers) ? brokers : brokers.split(',')).map((b) => b.trim()).filter(Boolean);
  if (list.length === 0) throw new Error('no Kafka brokers configured');
  return list;
}

/**
 * Connection settings plus the things that outlive one call: the logger and the resources to close
 * on shutdown. Producers, consumers and admin helpers take it as their first argument.
 */
export class KafkaClient {
  readonly brokers: string[];
  readonly clientId: string;
  readonly logger: Logger;
  readonly topicMode: TopicMode;
  private readonly consumerClosers = new Set<() => Promise<void>>();
  private readonly producerClosers = new Set<() => Promise<void>>();

  constructor(options: CreateKafkaOptions) {
    this.brokers = parseBrokers(options.brokers);
    this.clientId = options.clientId;
    this.topicMode = options.topicMode ?? 'create';
    this.logger = (options.logger ?? createLogger(options.clientId)).child({ component: 'kafka' });
    registerRawKafka(
      this,
      new KafkaClass({
        clientId: options.clientId,
        brokers: this.brokers,
        ssl: options.ssl ?? false,
        // Each mechanism's options have this same shape; kafkajs types them as a union per mechanism.
        ...(options.sasl ? { sasl: options.sasl as SASLOptions } : {}),
        connectionTimeout: options.connectionTimeoutMs ?? 3000,
        requestTimeout: options.requestTimeoutMs ?? 30_000,
        logLevel: logLevel.WARN,
        logCreator: kafkaLogCreator(this.logger),
        retry: { initialRetryTime: 300, retries: options.retries ?? 8, maxRetryTime: 5000 },
      }),
    );
  }

  /**
   * Registers something to close in `disconnect()`; returns a function that unregisters it.
   * Consumers close before producers, so a consumer finishing its last message can still
   * dead-letter it.
   */
  onDisconnect(closer: () => Promise<void>, phase: 'consumer' | 'producer' = 'consumer'): () => void {
    const set = phase === 'consumer' ? this.consumerClosers : this.producerClosers;
    set.add(closer);
    return () => set.delete(closer);
  }

  /** Stops every consumer, then disconnects every producer created from this client. */
  async disconnect(): Promise<void> {
    for (const set of [this.consumerClosers, this.producerClosers]) {
      const closers = [...set];
      set.clear();
      await Promise.allSettled(closers.map((close) => close()));
    }
  }
}

export function createKafka(options: CreateKafkaOptions): KafkaClient {
  return new KafkaClient(options);
}
