import { readFileSync } from 'node:fs';
import { SecretBox, TASK_ARGS_PURPOSE } from '@platform/crypto';
import { ensureTopics, TaskQueue, TaskWorker, type KafkaClient, type Producer } from '@platform/kafka';
import type { Logger } from '@platform/logger';
import type { Connection } from '@platform/mongo';
import type { Redis } from '@platform/redis';
import { startWhenKafkaIsReachable } from '@platform/runtime';
import { AppTokenCache } from './adapters/channels/app-token-cache.js';
import { channelSenders } from './adapters/channels/channel-senders.js';
import type { SettingsSource } from './domain/delivery/delivery-ports.js';
import type { RecipientDirectory } from './domain/identity-port.js';
import type { DeliveryPort } from './domain/delivery-port.js';
import {
  testChannel,
  type ChannelTestRequest,
  type ChannelTestResult,
} from './domain/delivery/channel-test.js';
import { ChannelTestAudit } from './data/channel-test-audit.js';
import { DeliveriesRepository } from './data/deliveries-repository.js';
import type { DeliveryConfig } from './domain/delivery/delivery-config.js';
import type { DeliveryDeps } from './domain/delivery/delivery-deps.js';
import { deliveryPort } from './domain/delivery/schedule-deliveries.js';
import { deliverOnce } from './domain/delivery/deliver.js';
import type { EmailTaskArgs } from '@platform/contracts';
import { EMAIL_SEND_TASK, sendQueuedEmail } from './domain/delivery/send-queued-email.js';
import { DestinationRateLimiter } from './data/rate-limiter.js';
import { startReconciler, type Reconciler } from './domain/delivery/reconciler.js';
import {
  DELIVER_TASK,
  SubmissionMarks,
  submitDelivery,
  type DeliverTaskArgs,
} from './domain/delivery/submit.js';

export { deliveryConfigShape, type DeliveryConfig } from './domain/delivery/delivery-config.js';
export { DELIVER_TASK } from './domain/delivery/submit.js';
export { EMAIL_SEND_TASK } from './domain/delivery/send-queued-email.js';
export type { ChannelTestRequest, ChannelTestResult } from './domain/delivery/channel-test.js';

export interface DeliveryServiceDeps {
  connection: Connection;
  redis: Redis;
  kafka: KafkaClient;
  producer: Producer;
  logger: Logger;
  config: DeliveryConfig;
  settings: SettingsSource;
  directory: RecipientDirectory;
  /** Tests pass a clock. */
  now?: () => number;
}

export interface Delivery {
  port: DeliveryPort;
  testChannel(request: ChannelTestRequest): Promise<ChannelTestResult>;
  /** Internals for the workers and tests. */
  deps: DeliveryDeps;
  repo: DeliveriesRepository;
}

/** Builds the delivery side once; the composition root hands `port` to the in-app side. */
export function createDelivery(service: DeliveryServiceDeps): Delivery {
  const { config } = service;
  const now = service.now ?? Date.now;
  const repo = new DeliveriesRepository(service.connection);
  const queue = new TaskQueue(service.producer, { topicPrefix: config.QUEUE_TOPIC_PREFIX });
  const logger = service.logger.child({ component: 'delivery' });
  const marks = new SubmissionMarks(service.redis, config.DELIVERY_RESUBMIT_AFTER_MS);
  const submit = (id: string) => submitDelivery(marks, queue, id);
  const deps: DeliveryDeps = {
    repo,
    marks,
    settings: service.settings,
    directory: service.directory,
    limiter: new DestinationRateLimiter(service.redis),
    testAudit: new ChannelTestAudit(service.connection),
    appTokens: new AppTokenCache(service.redis),
    http: {
      allowPrivateNetworks: config.DELIVERY_ALLOW_PRIVATE_NETWORKS,
      timeoutMs: config.DELIVERY_HTTP_TIMEOUT_MS,
    },
    appBaseUrls: {
      dingtalk: config.DINGTALK_API_BASE,
      wechat: config.WECOM_API_BASE,
      feishu: config.FEISHU_API_BASE,
    },
    senders: channelSenders({
      // SMTP hosts pass the same address rule as HTTP destinations (smtp-destination.ts).
      allowPrivateNetworks: config.DELIVERY_ALLOW_PRIVATE_NETWORKS,
      privateHosts: config.SMTP_PRIVATE_HOSTS,
      ...(config.SMTP_EXTRA_CA_FILE ? { ca: readFileSync(config.SMTP_EXTRA_CA_FILE, 'utf8') } : {}),
    }),
    logger,
    leaseMs: config.DELIVERY_LEASE_MS,
    inlineWaitMs: 2_000,
    emailBatchSize: config.DELIVERY_EMAIL_BATCH_SIZE,
    submit: async (id) => {
      await submit(id);
    },
    now,
    random: Math.random,
  };
  const port = deliveryPort({
    repo,
    settings: service.settings,
    submit,
    onSubmitError: (err, id) =>
      logger.warn({ err, delivery_id: id }, 'could not submit a delivery now; the reconciler will'),
    now,
  });
  return { port, deps, repo, testChannel: (request) => testChannel(deps, request) };
}

export interface DeliveryWorkers {
  reconciler: Reconciler;
  stop(): Promise<void>;
}

/**
 * The `default` queue's one worker fleet (group `<prefix>workers.default`): `email.send` (mails
 * other services queue) and `notifications.deliver` (one attempt of one delivery), plus the
 * reconciler. The worker starts in the background, retried while Kafka is unreachable, so the
 * service serves meanwhile; `kafka.disconnect()` stops it.
 */
export function startDeliveryWorkers(service: DeliveryServiceDeps, delivery: Delivery): DeliveryWorkers {
  const { config, logger } = service;
  const queue = new TaskQueue(service.producer, { topicPrefix: config.QUEUE_TOPIC_PREFIX });
  const worker = new TaskWorker(service.kafka, {
    queue: 'default',
    redis: service.redis,
    logger,
    topicPrefix: config.QUEUE_TOPIC_PREFIX,
    concurrency: config.DEFAULT_QUEUE_CONCURRENCY,
    // Mails carry codes and reset links: identity seals their args with TASK_SEAL_KEY.
    cipher: new SecretBox(config.TASK_SEAL_KEY, TASK_ARGS_PURPOSE),
  })
    .register<Partial<EmailTaskArgs>>(EMAIL_SEND_TASK, (args, meta) =>
      sendQueuedEmail({ settings: service.settings, senders: delivery.deps.senders, logger }, args, meta),
    )
    .register<Partial<DeliverTaskArgs>>(DELIVER_TASK, async (args) => {
      if (typeof args.delivery_id === 'string') await deliverOnce(delivery.deps, args.delivery_id);
    });
  startWhenKafkaIsReachable(service.kafka, logger, 'default queue worker', async () => {
    await ensureTopics(service.kafka, [worker.topic], { logger });
    await worker.start();
  });
  const reconciler = startReconciler({
    repo: delivery.repo,
    redis: service.redis,
    logger,
    intervalMs: config.DELIVERY_RECONCILE_INTERVAL_MS,
    submit: (id) => submitDelivery(delivery.deps.marks, queue, id),
    now: delivery.deps.now,
    lockKey: `delivery-reconciler:${config.QUEUE_TOPIC_PREFIX}`,
  });
  return {
    reconciler,
    async stop() {
      await reconciler.stop();
      await worker.stop();
    },
  };
}
