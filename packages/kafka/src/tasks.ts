import type { Logger } from '@platform/logger';
import type { Redis } from '@platform/redis';
import type { KafkaClient } from './client.js';
import {
  runConsumer,
  type ConsumedMessage,
  type ConsumerHandle,
  type RunConsumerOptions,
} from './consumer.js';
import { NonRetryableError } from './errors.js';
import type { ProcessedStore } from './processed-store.js';
import type { Producer } from './producer.js';
import {
  buildTask,
  parseTask,
  type EnqueueOptions,
  type TaskArgsCipher,
  type TaskMessage,
} from './task-message.js';
import { TaskStateReporter } from './task-states.js';
import { queueTopic, workerGroup, type QueueName } from './topics.js';

export interface TaskQueueOptions {
  /** Prefix of the queue topics (tests use a unique one per run). Default none. */
  topicPrefix?: string;
}

/** Puts tasks on the five work queues (`queue.<name>` topics). */
export class TaskQueue {
  private readonly prefix: string;

  constructor(
    private readonly producer: Producer,
    options: TaskQueueOptions = {},
  ) {
    this.prefix = options.topicPrefix ?? '';
  }

  async enqueue<A extends object>(
    queue: QueueName,
    task: string,
    args: A,
    options: EnqueueOptions = {},
  ): Promise<TaskMessage<A>> {
    const outgoing = buildTask(queue, task, args, { ...options, topicPrefix: this.prefix });
    const message = outgoing.value;
    await this.producer.publish(outgoing.topic, {
      key: outgoing.key,
      value: message,
      id: outgoing.id,
      type: outgoing.type,
      headers: { 'x-request-id': message.request_id },
    });
    return message;
  }
}

export interface TaskMeta {
  id: string;
  task: string;
  queue: QueueName;
  enqueuedAt: string;
  requestId: string;
  /** 1 on the first run, incremented by each retry. */
  attempt: number;
  topic: string;
  partition: number;
  offset: string;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type TaskHandler<A = any> = (args: A, meta: TaskMeta) => Promise<void> | void;

export interface TaskWorkerOptions extends Pick<
  RunConsumerOptions,
  | 'maxRetries'
  | 'retryBackoffMs'
  | 'maxRetryBackoffMs'
  | 'concurrency'
  | 'sessionTimeoutMs'
  | 'heartbeatIntervalMs'
  | 'rebalanceTimeoutMs'
  | 'maxWaitTimeMs'
  | 'onFatal'
> {
  queue: QueueName;
  /** Where handled task ids are remembered (or pass `redis`). One of the two is required. */
  processedStore?: ProcessedStore;
  redis?: Redis;
  logger?: Logger;
  /** Default `workers.<queue>` (with `topicPrefix` in front). */
  groupId?: string;
  topicPrefix?: string;
  /** Opens tasks enqueued with `seal`; without it such tasks are dead-lettered. */
  cipher?: TaskArgsCipher;
  /**
   * Where this worker reports its active, reserved and scheduled tasks (`taskstate:<topic>`, read by
   * observability's /system/workers). Default `redis`; without either nothing is reported.
   */
  stateRedis?: Redis;
  /** How long a report counts without a refresh (a dead worker's tasks then drop out). Default 30 s. */
  stateTtlMs?: number;
}

/**
 * Runs the handlers registered for one queue: consumer group `workers.<queue>`, each task id handled
 * once (tracked in the processed store), failures retried then dead-lettered to `queue.<name>.dlq`,
 * as are malformed messages and task names nobody registered.
 */
export class TaskWorker {
  private readonly handlers = new Map<string, TaskHandler>();
  private handle: ConsumerHandle | undefined;
  readonly groupId: string;
  readonly topic: string;

  constructor(
    private readonly client: KafkaClient,
    private readonly options: TaskWorkerOptions,
  ) {
    if (!options.processedStore && !options.redis) {
      throw new Error('TaskWorker needs a processedStore or a redis client for idempotent handling');
    }
    const prefix = options.topicPrefix ?? '';
    this.topic = queueTopic(options.queue, prefix);
    this.groupId = options.groupId ?? workerGroup(options.queue, prefix);
  }

  register<A = Record<string, unknown>>(task: string, handler: TaskHandler<A>): this {
    if (this.handle) throw new Error('register handlers before start()');
    if (this.handlers.has(task)) throw new Error(`a handler for ${task} is already registered`);
    this.handlers.set(task, handler as TaskHandler);
    return this;
  }

  /**
   * Subscribes and starts consuming. Resolves once the consumer runs, not when it has joined the
   * group (a join can wait up to the rebalance timeout while another member finishes a long task);
   * await `ready` for that. Tasks enqueued meanwhile are not lost: a new group starts at the earliest
   * retained message.
   */
  async start(): Promise<void> {
    if (this.handle) return;
    const {
      queue,
      logger,
      processedStore,
      redis,
      cipher: _cipher,
      stateRedis,
      stateTtlMs,
      ...tuning
    } = this.options;
    const reportTo = stateRedis ?? redis;
    this.handle = await runConsumer<unknown>(this.client, {
      ...tuning,
      observer: reportTo ? new TaskStateReporter(reportTo, this.topic, logger, stateTtlMs) : undefined,
      groupId: this.groupId,
      topics: [this.topic],
      logger: (logger ?? this.client.logger).child({ queue }),
      processedStore,
      redis,
      handler: (message) => this.dispatch(message),
    });
  }

  /** Resolves once the worker first joined its group (immediately if not started). */
  get ready(): Promise<void> {
    return this.handle?.ready ?? Promise.resolve();
  }

  async stop(): Promise<void> {
    const handle = this.handle;
    this.handle = undefined;
    await handle?.stop();
  }

  private async dispatch(message: ConsumedMessage<unknown>): Promise<void> {
    const task = parseTask(message.value, this.options.cipher);
    const handler = this.handlers.get(task.task);
    if (!handler) throw new NonRetryableError(`unknown task "${task.task}" on queue ${this.options.queue}`);
    await handler(task.args, {
      id: task.id,
      task: task.task,
      queue: this.options.queue,
      enqueuedAt: task.enqueued_at,
      requestId: message.requestId,
      attempt: message.attempt,
      topic: message.topic,
      partition: message.partition,
      offset: message.offset,
    });
  }
}
