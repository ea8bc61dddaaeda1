import { DEAD_LETTER_SUFFIX, deadLetterTopic, QUEUES, queueTopic, Topics, type QueueName } from './topics.js';

/** The services of this repository that talk to Kafka (their Kafka users and group prefixes). */
export const KAFKA_SERVICES = [
  'apikeys',
  'identity',
  'models',
  'notifications',
  'observability',
  'workflows',
  // The sandbox worker: the workflows image with PROCESS_ROLE=sandbox. Its own Kafka user, because
  // the process that runs user code may read its tasks and write their results, and nothing else.
  'sandbox',
] as const;
export type KafkaService = (typeof KAFKA_SERVICES)[number];

/**
 * One platform topic as production runs it. The replication factor and `min.insync.replicas` are
 * for a cluster of at least three brokers; a smaller cluster (the local stack's one broker) gets
 * them capped (`effectiveTopicSpec`). Partitions are never capped: they are the parallelism.
 */
export interface TopicDeclaration {
  name: string;
  partitions: number;
  replicationFactor: number;
  minInsyncReplicas: number;
  /** `retention.ms`; -1 keeps messages for ever (the compacted directory). */
  retentionMs: number;
  cleanupPolicy: 'delete' | 'compact';
  /** `max.message.bytes`, when the broker's default (1 MiB) is too small for what the topic carries. */
  maxMessageBytes?: number;
  /** Services of this repository that write to it (Write ACL; they verify it at start). */
  producers: readonly KafkaService[];
  /** Services that consume it in a group (Read ACL; they write its `.dlq` and verify both). */
  consumers: readonly KafkaService[];
  /** Services that only read offsets or scan it (observability's lag and /system/workers). */
  observers: readonly KafkaService[];
  /** Producers or consumers outside this repository, for the reader. */
  external?: string;
  /** Why these numbers (deploy/README.md prints it). */
  why: string;
}

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const MIB = 1_048_576;
/**
 * A sandbox task carries the code (64 KiB) and its inputs, a result the output and the logs
 * (64 KiB); inputs and output are each bounded by RUN_MAX_NODE_OUTPUT_BYTES (2 MiB by default, at
 * most 4 MiB), so 5 MiB holds either at the largest setting.
 */
export const SANDBOX_MESSAGE_BYTES = 5 * MIB;
/** Three brokers, two in sync: one broker may be down (a rolling restart) without refusing writes. */
const DURABLE = { replicationFactor: 3, minInsyncReplicas: 2 } as const;

/**
 * The rule for the work queues: a consumer group uses at most one consumer per partition, and a
 * worker handles `concurrency` partitions at once (TaskWorker's `concurrency`), so
 * partitions ≥ the largest worker replica count × that concurrency, or replicas beyond sit idle.
 */
export function queuePartitions(maxReplicas: number, concurrency: number): number {
  return maxReplicas * concurrency;
}

const queue = (
  name: QueueName,
  partitions: number,
  owner: { producers: readonly KafkaService[]; consumers: readonly KafkaService[]; external?: string },
  why: string,
): TopicDeclaration => ({
  name: queueTopic(name),
  partitions,
  ...DURABLE,
  // Older tasks are useless: the owners' reconcilers re-submit pending work from their stores.
  retentionMs: 7 * DAY_MS,
  cleanupPolicy: 'delete',
  observers: ['observability'],
  ...owner,
  why,
});

/** Every platform topic (their `.dlq` twins come from `deadLetterDeclaration`). */
export const TOPIC_CATALOG: readonly TopicDeclaration[] = [
  {
    name: Topics.NOTIFICATION_EVENTS,
    partitions: 6,
    ...DURABLE,
    retentionMs: 7 * DAY_MS,
    cleanupPolicy: 'delete',
    producers: ['apikeys', 'identity', 'models', 'workflows'],
    consumers: ['notifications'],
    observers: ['observability'],
    why: 'keyed by user; 6 = the notifications HPA maximum with one partition each; 7 days to replay after an outage',
  },
  {
    name: Topics.AGENT_ROUNDS,
    partitions: 12,
    ...DURABLE,
    retentionMs: 7 * DAY_MS,
    cleanupPolicy: 'delete',
    producers: [],
    consumers: ['observability'],
    observers: [],
    external: 'produced by the agent runtime',
    why: 'the highest-volume facts; 12 lets the fact consumer scale to 6 pods × 2 partitions; 7 days to rebuild facts',
  },
  {
    name: Topics.WORKFLOW_RUNS,
    partitions: 6,
    ...DURABLE,
    retentionMs: 7 * DAY_MS,
    cleanupPolicy: 'delete',
    producers: ['workflows'],
    consumers: ['observability'],
    observers: [],
    why: 'one fact per finished run; 6 = the fact consumer maximum; 7 days to rebuild facts',
  },
  {
    name: Topics.DOMAIN_EVENTS,
    partitions: 3,
    ...DURABLE,
    retentionMs: 3 * DAY_MS,
    cleanupPolicy: 'delete',
    producers: ['identity'],
    consumers: ['identity', 'models', 'notifications', 'workflows'],
    observers: [],
    why: 'low volume, read whole by every replica (one group per pod: cache drops), so partitions buy nothing; 3 spreads leaders over the brokers',
  },
  {
    name: Topics.AGENT_DIRECTORY,
    partitions: 3,
    ...DURABLE,
    retentionMs: -1,
    cleanupPolicy: 'compact',
    producers: [],
    consumers: ['apikeys', 'observability'],
    observers: [],
    external: 'produced by the agent runtime',
    why: 'compacted: the latest entry per agent, kept for ever, so a new deployment rebuilds its table from offset 0',
  },
  queue(
    'default',
    queuePartitions(6, 4),
    { producers: ['identity', 'notifications'], consumers: ['notifications'] },
    'notifications delivery workers: 6 replicas × DEFAULT_QUEUE_CONCURRENCY 4',
  ),
  queue(
    'knowledge',
    queuePartitions(6, 2),
    { producers: [], consumers: [], external: 'served by workers outside this repository' },
    'sized for an external fleet of 6 × 2; raise it with KAFKA_TOPIC_PARTITIONS',
  ),
  queue(
    'workflow',
    queuePartitions(6, 4),
    { producers: ['workflows'], consumers: ['workflows'] },
    'run workers: 6 replicas × the workflow TaskWorker concurrency 4 (runs are claimed from Postgres; a partition only carries the prompt)',
  ),
  queue(
    'agent',
    queuePartitions(6, 2),
    { producers: [], consumers: [], external: 'served by workers outside this repository' },
    'sized for an external fleet of 6 × 2; raise it with KAFKA_TOPIC_PARTITIONS',
  ),
  {
    ...queue(
      'sandbox',
      queuePartitions(6, 2),
      { producers: ['workflows'], consumers: ['sandbox'] },
      'sandbox workers: 6 replicas × SANDBOX_CONCURRENCY 2; 1 hour: a task is useless past its deadline (30 s at most)',
    ),
    retentionMs: HOUR_MS,
    maxMessageBytes: SANDBOX_MESSAGE_BYTES,
  },
  {
    name: Topics.SANDBOX_RESULTS,
    partitions: 3,
    ...DURABLE,
    retentionMs: HOUR_MS,
    cleanupPolicy: 'delete',
    maxMessageBytes: SANDBOX_MESSAGE_BYTES,
    producers: ['sandbox'],
    consumers: ['workflows'],
    observers: [],
    why: 'code-node results, read whole by every run worker (one group per pod; each keeps the ones it waits for), so partitions buy nothing; 1 hour: a result is useless once its node gave up',
  },
];

/**
 * `<topic>.dlq`: written by the topic's consumers when they give up on a message, read by people
 * and replay tools. One partition (a trickle; one ordered list to inspect), 30 days to look.
 */
export function deadLetterDeclaration(topic: TopicDeclaration): TopicDeclaration {
  return {
    name: deadLetterTopic(topic.name),
    partitions: 1,
    ...DURABLE,
    retentionMs: 30 * DAY_MS,
    cleanupPolicy: 'delete',
    // A dead letter is the message as it came: as large as the topic allows.
    ...(topic.maxMessageBytes ? { maxMessageBytes: topic.maxMessageBytes } : {}),
    producers: topic.consumers,
    consumers: [],
    observers: [],
    why: `dead letters of ${topic.name}: a trickle, read by people; 30 days to inspect and replay`,
  };
}

/** The catalog with every dead-letter topic, in a stable order (each topic, then its `.dlq`). */
export function catalogWithDeadLetters(): TopicDeclaration[] {
  return TOPIC_CATALOG.flatMap((topic) => [topic, deadLetterDeclaration(topic)]);
}

/** Every topic the platform uses, dead-letter topics included: what a deploy step provisions. */
export function platformTopics(prefix = ''): string[] {
  return catalogWithDeadLetters().map((topic) => `${prefix}${topic.name}`);
}

/** The declaration of a catalog name (`queue.workflow`, `queue.workflow.dlq`), if any. */
export function catalogEntry(name: string): TopicDeclaration | undefined {
  return catalogWithDeadLetters().find((topic) => topic.name === name);
}

/**
 * The declaration a (possibly prefixed) topic name falls under: `t1.queue.workflow` is
 * `queue.workflow` with the prefix `t1.` (tests isolate themselves with one).
 */
export function catalogEntryOf(topic: string): { entry: TopicDeclaration; prefix: string } | undefined {
  const exact = catalogEntry(topic);
  if (exact) return { entry: exact, prefix: '' };
  // The longest name first, so `x.queue.default.dlq` is the dead-letter topic, not a prefix of `.dlq`.
  const byLength = catalogWithDeadLetters().sort((a, b) => b.name.length - a.name.length);
  const entry = byLength.find((t) => topic.endsWith(t.name));
  return entry ? { entry, prefix: topic.slice(0, topic.length - entry.name.length) } : undefined;
}

/**
 * The catalog names a service must find at start: what it produces to or consumes, and the
 * dead-letter topics of what it consumes (it writes them).
 */
export function topicsOfService(service: KafkaService): string[] {
  const names: string[] = [];
  for (const topic of TOPIC_CATALOG) {
    if (topic.producers.includes(service) || topic.consumers.includes(service)) names.push(topic.name);
    if (topic.consumers.includes(service)) names.push(deadLetterTopic(topic.name));
  }
  return names;
}

/** Prefixes a service's tests put in front of topic names (production: none). */
export interface TopicPrefixes {
  /** `QUEUE_TOPIC_PREFIX`: every work queue and its `.dlq`. */
  queues?: string;
  /** Per catalog name (its `.dlq` too), e.g. notifications' `EVENTS_TOPIC_PREFIX`. */
  topics?: Readonly<Record<string, string>>;
}

/** `topicsOfService` as the service names them on the wire, its prefixes applied. */
export function serviceTopics(service: KafkaService, prefixes: TopicPrefixes = {}): string[] {
  return topicsOfService(service).map((name) => {
    const base = name.endsWith(DEAD_LETTER_SUFFIX) ? name.slice(0, -DEAD_LETTER_SUFFIX.length) : name;
    const prefix = isQueueTopic(name) ? (prefixes.queues ?? '') : (prefixes.topics?.[base] ?? '');
    return `${prefix}${name}`;
  });
}

/** Whether a catalog name is one of the work queues (those take `QUEUE_TOPIC_PREFIX` in tests). */
export function isQueueTopic(name: string): boolean {
  const base = name.endsWith(DEAD_LETTER_SUFFIX) ? name.slice(0, -DEAD_LETTER_SUFFIX.length) : name;
  return QUEUES.some((q) => queueTopic(q) === base);
}
