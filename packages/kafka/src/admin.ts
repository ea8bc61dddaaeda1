import type { Admin } from 'kafkajs';
import type { Logger } from '@platform/logger';
import { KafkaClient } from './client.js';
import { retryRetriable, withAdmin } from './internal.js';
import { catalogEntry, platformTopics } from './topic-catalog.js';
import { brokerCount, topicPlan } from './topic-provisioning.js';

export interface TopicSpec {
  topic: string;
  /** Default: the broker's `num.partitions`. */
  partitions?: number;
  /** Default: the broker's `default.replication.factor`. */
  replicationFactor?: number;
  /** Topic-level configs, e.g. `{ 'retention.ms': '604800000' }`. */
  config?: Record<string, string>;
}

export interface EnsureTopicsOptions {
  logger?: Logger;
  clientId?: string;
}

/**
 * Creates the topics that do not exist yet and waits for their partition leaders; returns the names
 * it created. Idempotent, and safe when several processes run it at once. `target` is a client or a
 * broker list (a temporary client is then used). A bare name of the catalog (topic-catalog.ts) is
 * created as the catalog declares it (replication capped by the broker count); other names (tests'
 * prefixed topics) get the broker's defaults. A client in `verify` topic mode creates nothing: its
 * topics are provisioned by the `kafka-topics` command and checked at start.
 */
export async function ensureTopics(
  target: KafkaClient | string[] | string,
  topics: (string | TopicSpec)[],
  options: EnsureTopicsOptions = {},
): Promise<string[]> {
  const client =
    target instanceof KafkaClient
      ? target
      : new KafkaClient({
          brokers: target,
          clientId: options.clientId ?? 'ensure-topics',
          logger: options.logger,
        });
  if (client.topicMode === 'verify') return [];
  return withAdmin(client, async (admin) => {
    const specs = await withCatalogSpecs(admin, topics);
    // A single KRaft broker can answer "does not host this topic-partition" (retriable) while a
    // topic it just created, or one another process is creating, is not yet in its metadata. Such
    // a failure is retried from the top: topics that exist by then are not created again.
    const attempted = new Set<string>();
    await retryRetriable(async () => {
      const existing = new Set(await admin.listTopics());
      const missing = specs.filter((s) => !existing.has(s.topic));
      if (missing.length === 0) return;
      for (const s of missing) attempted.add(s.topic);
      await admin.createTopics({
        waitForLeaders: true,
        topics: missing.map((s) => ({
          topic: s.topic,
          numPartitions: s.partitions ?? -1,
          replicationFactor: s.replicationFactor ?? -1,
          configEntries: Object.entries(s.config ?? {}).map(([name, value]) => ({ name, value })),
        })),
      });
    });
    if (attempted.size === 0) return [];
    // Served with leaders before anyone produces to them.
    const created = [...attempted];
    await retryRetriable(() => admin.fetchTopicMetadata({ topics: created }));
    // Another process may have created some of them in between; report only what we tried to create.
    (options.logger ?? client.logger).info({ topics: created }, 'ensured kafka topics');
    return created;
  });
}

/** Bare names of the catalog become its declaration for this cluster; everything else as given. */
async function withCatalogSpecs(admin: Admin, topics: (string | TopicSpec)[]): Promise<TopicSpec[]> {
  const declared = topics.some((t) => typeof t === 'string' && catalogEntry(t));
  const brokers = declared ? await brokerCount(admin) : 1;
  return topics.map((t) => {
    if (typeof t !== 'string') return t;
    const entry = catalogEntry(t);
    if (!entry) return { topic: t };
    const plan = topicPlan(entry, brokers);
    return {
      topic: t,
      partitions: plan.partitions,
      replicationFactor: plan.replicationFactor,
      config: plan.config,
    };
  });
}

export interface PartitionLag {
  partition: number;
  /** Next offset the group will read; null when the group never committed on this partition. */
  committed: number | null;
  low: number;
  high: number;
  lag: number;
}

export interface ConsumerLag {
  groupId: string;
  topic: string;
  /** Messages not yet consumed by the group, summed over partitions. */
  total: number;
  partitions: PartitionLag[];
}

/**
 * Backlog of `groupId` on `topic`: high watermark minus the committed offset per partition. A
 * partition the group never committed counts from the low watermark (everything still retained).
 */
export async function consumerLag(client: KafkaClient, groupId: string, topic: string): Promise<ConsumerLag> {
  return withAdmin(client, async (admin) => {
    const [watermarks, committed] = await Promise.all([
      admin.fetchTopicOffsets(topic),
      retryRetriable(() => admin.fetchOffsets({ groupId, topics: [topic] })),
    ]);
    const committedByPartition = new Map<number, number>();
    for (const p of committed.find((c) => c.topic === topic)?.partitions ?? []) {
      const offset = Number(p.offset);
      if (offset >= 0) committedByPartition.set(p.partition, offset);
    }
    const partitions = watermarks
      .map((w): PartitionLag => {
        const low = Number(w.low);
        const high = Number(w.high);
        const offset = committedByPartition.get(w.partition);
        const from = offset === undefined ? low : Math.max(offset, low);
        return {
          partition: w.partition,
          committed: offset ?? null,
          low,
          high,
          lag: Math.max(0, high - from),
        };
      })
      .sort((a, b) => a.partition - b.partition);
    return { groupId, topic, total: partitions.reduce((sum, p) => sum + p.lag, 0), partitions };
  });
}

/**
 * Creates every platform topic (and its dead-letter topic) without holding up the caller: a
 * service calls this at start so a fresh deployment needs no separate topic step, and keeps
 * retrying with a capped back-off while Kafka is unreachable (the outbox keeps events meanwhile).
 */
export function ensurePlatformTopicsInBackground(
  client: KafkaClient,
  logger: Logger,
  maxDelayMs = 30_000,
): void {
  if (client.topicMode === 'verify') return;
  let delay = 1_000;
  const attempt = (): void => {
    ensureTopics(client, platformTopics(), { logger }).then(
      () => undefined,
      (error: unknown) => {
        logger.warn({ err: error, retry_in_ms: delay }, 'could not ensure kafka topics; retrying');
        setTimeout(attempt, delay).unref();
        delay = Math.min(delay * 2, maxDelayMs);
      },
    );
  };
  attempt();
}

/** Deletes topics that exist (tests clean up their prefixed topics); missing ones are skipped. */
export async function deleteTopics(client: KafkaClient, topics: string[]): Promise<void> {
  await withAdmin(client, async (admin) => {
    const existing = new Set(await admin.listTopics());
    const present = topics.filter((t) => existing.has(t));
    if (present.length > 0) await admin.deleteTopics({ topics: present });
  });
}

/** Partition count per existing topic (topics that do not exist are left out). */
export async function topicPartitionCounts(
  client: KafkaClient,
  topics: string[],
): Promise<Record<string, number>> {
  return withAdmin(client, async (admin) => {
    const existing = new Set(await admin.listTopics());
    const present = topics.filter((t) => existing.has(t));
    if (present.length === 0) return {};
    const { topics: metadata } = await retryRetriable(() => admin.fetchTopicMetadata({ topics: present }));
    return Object.fromEntries(metadata.map((t) => [t.name, t.partitions.length]));
  });
}
