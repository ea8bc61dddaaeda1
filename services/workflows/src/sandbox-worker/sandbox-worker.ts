import { kafkaSecurity } from '@platform/config';
import {
  createKafka,
  createProducer,
  ensureTopics,
  NonRetryableError,
  serviceTopics,
  TaskWorker,
  type ProcessedStore,
} from '@platform/kafka';
import type { Logger } from '@platform/logger';
import { requireKafkaTopics, startWhenKafkaIsReachable, type StartedService } from '@platform/runtime';
import { hostname } from 'node:os';
import { performance } from 'node:perf_hooks';
import {
  sandboxResultsTopic,
  sandboxTopicPrefixes,
  SANDBOX_TASK,
  taskArgsProblems,
  type SandboxReply,
  type SandboxTaskArgs,
} from './protocol.js';
import { countExpiredTask, observeTask, taskStarted } from './sandbox-metrics.js';
import { SandboxPool } from './sandbox-pool.js';
import type { SandboxWorkerConfig } from './sandbox-config.js';

/**
 * Ids of tasks handled lately, in memory: the sandbox worker has no store of its own. A task
 * redelivered after a rebalance is skipped here; one handled by another worker may run twice,
 * which is harmless (code has no effect outside its result; the run worker keeps the first).
 */
class RecentTaskIds implements ProcessedStore {
  private readonly ids = new Set<string>();
  constructor(private readonly max = 10_000) {}
  async isProcessed(_group: string, id: string): Promise<boolean> {
    return this.ids.has(id);
  }
  async markProcessed(_group: string, id: string): Promise<void> {
    this.ids.add(id);
    if (this.ids.size > this.max) this.ids.delete(this.ids.values().next().value as string);
  }
}

/** How this process names itself in results and logs: the pod, else host and pid. */
const workerName = (env = process.env) => env.POD_NAME?.trim() || `${hostname()}-${process.pid}`;

/**
 * The sandbox worker (PROCESS_ROLE=sandbox; docs/workflows.md "code"): consumes `queue.sandbox`
 * in the group `workers.sandbox`, runs each task's code in one of SANDBOX_CONCURRENCY child
 * processes (@platform/sandbox), and writes the result to the task's `reply_to` topic. Its session
 * timeout is short (6 s), so when a sandbox worker dies its partitions move on quickly and the run
 * worker's second attempt is served by another one.
 */
export async function startSandboxWorker(
  config: SandboxWorkerConfig,
  logger: Logger,
): Promise<StartedService> {
  const name = workerName();
  const kafka = createKafka({
    brokers: config.KAFKA_BROKERS,
    clientId: 'sandbox-worker',
    logger,
    ...kafkaSecurity('sandbox-worker', config),
    topicMode: config.KAFKA_TOPIC_MODE,
  });
  await requireKafkaTopics({
    service: 'sandbox-worker',
    kafka,
    logger,
    config,
    topics: serviceTopics('sandbox', sandboxTopicPrefixes(config.QUEUE_TOPIC_PREFIX)),
  });
  const producer = createProducer(kafka);
  const pool = new SandboxPool(config.SANDBOX_CONCURRENCY);
  await pool.warm();

  const worker = new TaskWorker(kafka, {
    queue: 'sandbox',
    processedStore: new RecentTaskIds(),
    logger,
    topicPrefix: config.QUEUE_TOPIC_PREFIX,
    concurrency: config.SANDBOX_CONCURRENCY,
    sessionTimeoutMs: 6_000,
    heartbeatIntervalMs: 1_000,
    rebalanceTimeoutMs: 10_000,
    // Only the result's publication can fail (user code cannot: its failure is the result).
    maxRetries: 2,
    retryBackoffMs: 200,
  }).register<SandboxTaskArgs>(SANDBOX_TASK, async (args) => {
    const problems = taskArgsProblems(args);
    if (problems.length > 0) throw new NonRetryableError(`malformed sandbox task: ${problems.join('; ')}`);
    if (Date.now() > args.expires_at) {
      countExpiredTask();
      logger.warn(
        { task_id: args.task_id, run_id: args.run_id, node_id: args.node_id },
        'sandbox task expired before it ran; dropped',
      );
      return;
    }
    const startedAt = performance.now();
    const done = taskStarted();
    const result = await pool
      .run({
        code: args.code,
        inputs: args.inputs,
        timeoutMs: args.timeout_ms,
        memoryMb: args.memory_mb,
        maxInputBytes: args.max_output_bytes,
        maxOutputBytes: args.max_output_bytes,
      })
      .finally(done);
    observeTask(result, (performance.now() - startedAt) / 1000);
    logger.debug(
      {
        task_id: args.task_id,
        run_id: args.run_id,
        node_id: args.node_id,
        attempt: args.attempt,
        ok: result.ok,
        duration_ms: result.durationMs,
      },
      'sandbox task ran',
    );
    const reply: SandboxReply = { task_id: args.task_id, worker: name, result };
    await producer.publish(args.reply_to, { key: args.task_id, value: reply, id: args.task_id });
  });
  startWhenKafkaIsReachable(kafka, logger, 'sandbox worker', async () => {
    await ensureTopics(kafka, [worker.topic, sandboxResultsTopic(config.QUEUE_TOPIC_PREFIX)], { logger });
    await worker.start();
  });
  logger.info({ worker: name, concurrency: config.SANDBOX_CONCURRENCY }, 'sandbox worker started');

  let stopped: Promise<void> | undefined;
  return {
    services: [],
    // Leaves the group at once, so the partitions move to the other sandbox workers; the tasks in
    // hand finish (or their run workers retry them elsewhere).
    beginDrain: () => {
      stopped ??= worker.stop();
    },
    async stop() {
      stopped ??= worker.stop();
      await stopped;
      pool.close();
      await producer.disconnect();
      await kafka.disconnect();
    },
  };
}
