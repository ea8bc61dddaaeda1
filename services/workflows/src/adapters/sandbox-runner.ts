import {
  createProducer,
  ensureTopics,
  queueTopic,
  runConsumer,
  TaskQueue,
  type ConsumerHandle,
  type KafkaClient,
  type Producer,
} from '@platform/kafka';
import type { Logger } from '@platform/logger';
import { startWhenKafkaIsReachable } from '@platform/runtime';
import { settingsCacheInstance } from '@platform/settings-client';
import { counter } from '@platform/telemetry';
import { randomUUID } from 'node:crypto';
import type { CodeRunner, CodeRunOutcome, CodeTask } from '../domain/runs/nodes/node-ports.js';
import {
  isSandboxReply,
  SANDBOX_TASK,
  sandboxResultsTopic,
  type SandboxReply,
  type SandboxTaskArgs,
} from '../sandbox-worker/protocol.js';

/**
 * After a sandbox worker dies, its partitions of `queue.sandbox` reach another one only when the
 * group notices: the sandbox group's session timeout (6 s, sandbox-worker.ts) plus the rebalance.
 * The second attempt waits this much longer than the first.
 */
const REBALANCE_ALLOWANCE_MS = 10_000;
const ATTEMPTS = 2;
const ANSWER_MARGIN_MS = 2_000;

const retries = counter<'outcome'>({
  name: 'workflow_code_node_sandbox_retries_total',
  help: 'Code-node tasks sent a second time because no sandbox worker answered the first in time, by outcome (answered | unavailable).',
  labelNames: ['outcome'],
});

export interface SandboxRunnerOptions {
  kafka: KafkaClient;
  logger: Logger;
  /** QUEUE_TOPIC_PREFIX. */
  topicPrefix: string;
  /** CODE_NODE_MEMORY_MB. */
  memoryMb: number;
  /** SANDBOX_LOST_AFTER_MS: past the node's limit, how long until a silent sandbox counts as lost. */
  lostAfterMs: number;
}

/**
 * The code node's CodeRunner over Kafka (docs/workflows.md "code"): each task goes on
 * `queue.sandbox`; the results come back on `platform.sandbox-results`, which every run worker
 * reads whole in a group of its own (`workflows.sandbox-results.<pod>`) and keeps the ones it
 * waits for. No answer within the node's limit + SANDBOX_LOST_AFTER_MS (the sandbox worker was
 * killed, or ran out of memory) sends the task once more, to whichever sandbox worker takes it;
 * the first answer to either attempt wins. The run's lease is renewed all the while by the run
 * worker (run-executor.ts), which never runs user code itself.
 */
export class SandboxRunner implements CodeRunner {
  private readonly waiting = new Map<string, (reply: SandboxReply) => void>();
  private readonly queue: TaskQueue;
  /**
   * Its own producer: the service's one is idempotent with one request in flight, so a task
   * would wait behind the outbox relay's batches (facts, notification events).
   */
  private readonly producer: Producer;
  private readonly replyTo: string;
  private consumer: ConsumerHandle | undefined;
  private joined: Promise<void>;
  private markJoined: () => void = () => undefined;

  constructor(private readonly options: SandboxRunnerOptions) {
    this.producer = createProducer(options.kafka);
    this.queue = new TaskQueue(this.producer, { topicPrefix: options.topicPrefix });
    this.replyTo = sandboxResultsTopic(options.topicPrefix);
    this.joined = new Promise((resolve) => (this.markJoined = resolve));
  }

  /** Joins the results topic in the background (a run worker starts while Kafka is down too). */
  start(): void {
    const { kafka, logger } = this.options;
    startWhenKafkaIsReachable(kafka, logger, 'sandbox results consumer', async () => {
      await ensureTopics(kafka, [queueTopic('sandbox', this.options.topicPrefix), this.replyTo], { logger });
      this.consumer = await runConsumer(kafka, {
        groupId: `workflows.sandbox-results.${settingsCacheInstance()}`,
        topics: [this.replyTo],
        // Only results sent from now on matter: a new process waits for none of the older ones.
        fromBeginning: false,
        // A result is only looked up; a duplicate finds nobody waiting.
        processedStore: { isProcessed: async () => false, markProcessed: async () => undefined },
        logger,
        maxRetries: 0,
        handler: (message) => {
          if (isSandboxReply(message.value)) this.waiting.get(message.value.task_id)?.(message.value);
        },
      });
      void this.consumer.ready.then(() => this.markJoined());
    });
  }

  async stop(): Promise<void> {
    await this.consumer?.stop();
    await this.producer.disconnect();
    this.markJoined();
  }

  worstCaseMs(timeoutMs: number): number {
    // + a margin: the runner's own answer (`sandbox_unavailable`) must come before the engine's cut.
    return ATTEMPTS * (timeoutMs + this.options.lostAfterMs) + REBALANCE_ALLOWANCE_MS + ANSWER_MARGIN_MS;
  }

  run(task: CodeTask, signal: AbortSignal): Promise<CodeRunOutcome> {
    const { logger } = this.options;
    const log = logger.child({ run_id: task.runId, node_id: task.nodeId });
    const taskIds: string[] = [];
    return new Promise<CodeRunOutcome>((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      let attempt = 0;
      let settled = false;
      const finish = (outcome: CodeRunOutcome) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        for (const id of taskIds) this.waiting.delete(id);
        signal.removeEventListener('abort', onAbort);
        // An abort is the engine giving up (its own timeout or the worker's drain): not the sandbox's.
        if (attempt > 1 && !signal.aborted) {
          retries.inc({ outcome: outcome.kind === 'result' ? 'answered' : 'unavailable' });
        }
        resolve(outcome);
      };
      // The engine has already given up (its timeout decides the outcome); only clean up.
      const onAbort = () => finish({ kind: 'unavailable', attempts: attempt, message: 'aborted' });
      signal.addEventListener('abort', onAbort, { once: true });
      const unavailable = (message: string) => finish({ kind: 'unavailable', attempts: attempt, message });

      const send = async () => {
        attempt += 1;
        const taskId = randomUUID();
        taskIds.push(taskId);
        this.waiting.set(taskId, (reply) =>
          finish({ kind: 'result', result: reply.result, attempts: attempt, worker: reply.worker }),
        );
        const windowMs =
          task.timeoutMs + this.options.lostAfterMs + (attempt > 1 ? REBALANCE_ALLOWANCE_MS : 0);
        timer = setTimeout(() => {
          if (settled) return;
          if (attempt < ATTEMPTS) {
            log.warn(
              { attempt, waited_ms: windowMs },
              'no sandbox worker answered in time; sending the code node once more',
            );
            void send();
          } else {
            unavailable(`no sandbox worker answered within ${windowMs} ms (${attempt} attempts)`);
          }
        }, windowMs);
        // The results consumer must be in its group before the task leaves: it reads from "now".
        await this.joined;
        if (settled) return;
        const args: SandboxTaskArgs = {
          task_id: taskId,
          run_id: task.runId,
          node_id: task.nodeId,
          attempt,
          reply_to: this.replyTo,
          expires_at: Date.now() + windowMs,
          language: 'javascript',
          code: task.code,
          inputs: task.inputs,
          timeout_ms: task.timeoutMs,
          memory_mb: this.options.memoryMb,
          max_output_bytes: task.maxBytes,
        };
        try {
          await this.queue.enqueue('sandbox', SANDBOX_TASK, args, { id: taskId });
        } catch (error) {
          log.error({ err: error, attempt }, 'could not send the code node to the sandbox queue');
          unavailable(`the sandbox queue could not be reached: ${(error as Error).message}`);
        }
      };
      void send();
    });
  }
}
