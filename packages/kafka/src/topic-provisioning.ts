import type { Admin } from 'kafkajs';
import type { Logger } from '@platform/logger';
import type { KafkaClient } from './client.js';
import { retryRetriable, withAdmin } from './internal.js';
import { catalogEntryOf, catalogWithDeadLetters, type TopicDeclaration } from './topic-catalog.js';

/** Partitions per catalog name (`KAFKA_TOPIC_PARTITIONS`), replacing the catalog's figure. */
export type PartitionOverrides = Readonly<Record<string, number>>;

/** What one topic should look like on this cluster. */
export interface TopicPlan {
  topic: string;
  partitions: number;
  replicationFactor: number;
  /** Topic configs the catalog owns: min.insync.replicas, retention.ms, cleanup.policy, max.message.bytes. */
  config: Record<string, string>;
}

/**
 * The catalog's declaration for a cluster of `brokers` brokers: the replication factor capped by
 * the broker count (one broker locally), `min.insync.replicas` kept below it so a one-broker
 * outage never refuses writes (and 1 on one broker), partitions as declared or overridden.
 */
export function topicPlan(
  declaration: TopicDeclaration,
  brokers: number,
  overrides: PartitionOverrides = {},
  prefix = '',
): TopicPlan {
  const replicationFactor = Math.max(1, Math.min(declaration.replicationFactor, brokers));
  const minInsync = Math.min(declaration.minInsyncReplicas, Math.max(1, replicationFactor - 1));
  return {
    topic: `${prefix}${declaration.name}`,
    partitions: overrides[declaration.name] ?? declaration.partitions,
    replicationFactor,
    config: {
      'min.insync.replicas': String(minInsync),
      'retention.ms': String(declaration.retentionMs),
      'cleanup.policy': declaration.cleanupPolicy,
      ...(declaration.maxMessageBytes ? { 'max.message.bytes': String(declaration.maxMessageBytes) } : {}),
    },
  };
}

/** The partitions a (possibly prefixed) topic needs, or undefined for a name outside the catalog. */
export function requiredPartitions(topic: string, overrides: PartitionOverrides = {}): number | undefined {
  const found = catalogEntryOf(topic);
  return found ? (overrides[found.entry.name] ?? found.entry.partitions) : undefined;
}

export async function brokerCount(admin: Admin): Promise<number> {
  const { brokers } = await retryRetriable(() => admin.describeCluster());
  return brokers.length;
}

async function partitionCounts(admin: Admin, topics: string[]): Promise<Map<string, number>> {
  if (topics.length === 0) return new Map();
  const { topics: metadata } = await retryRetriable(() => admin.fetchTopicMetadata({ topics }));
  return new Map(metadata.map((t) => [t.name, t.partitions.length]));
}

/**
 * What is wrong with `topics` on the cluster for a service that may not create them: each missing
 * topic, and each with fewer partitions than the catalog (or `overrides`) asks for. Empty: all good.
 */
export async function checkTopics(
  client: KafkaClient,
  topics: string[],
  overrides: PartitionOverrides = {},
): Promise<string[]> {
  return withAdmin(client, async (admin) => {
    const existing = new Set(await retryRetriable(() => admin.listTopics()));
    const problems = topics.filter((t) => !existing.has(t)).map((t) => `${t} is missing`);
    const counts = await partitionCounts(
      admin,
      topics.filter((t) => existing.has(t)),
    );
    for (const [topic, count] of counts) {
      const needed = requiredPartitions(topic, overrides);
      if (needed !== undefined && count < needed)
        problems.push(
          `${topic} has ${count} partition${count === 1 ? '' : 's'}, the catalog asks for ${needed}`,
        );
    }
    return problems;
  });
}

export interface ProvisionOptions {
  /** Names every topic `<prefix><name>` (tests); production leaves it empty. */
  prefix?: string;
  partitionOverrides?: PartitionOverrides;
  logger: Logger;
}

export interface ProvisionReport {
  brokers: number;
  created: string[];
  /** Topics whose partitions were raised to the catalog's count. */
  raised: { topic: string; from: number; to: number }[];
  /** Topics with more partitions than the catalog: left as they are (never lowered). */
  wider: { topic: string; partitions: number; catalog: number }[];
  /** Topics whose catalog configs were (re)set. */
  configured: string[];
  /** Topics whose replication factor is below the plan (raising it needs a partition reassignment). */
  underReplicated: { topic: string; replicas: number; planned: number }[];
}

async function differingConfigs(admin: Admin, plans: TopicPlan[]): Promise<TopicPlan[]> {
  if (plans.length === 0) return [];
  const { resources } = await retryRetriable(() =>
    admin.describeConfigs({
      includeSynonyms: false,
      resources: plans.map((p) => ({
        type: 2 /* TOPIC */,
        name: p.topic,
        configNames: Object.keys(p.config),
      })),
    }),
  );
  const current = new Map(
    resources.map((r) => [
      r.resourceName,
      new Map(r.configEntries.map((e) => [e.configName, e.configValue])),
    ]),
  );
  return plans.filter((p) =>
    Object.entries(p.config).some(([name, value]) => current.get(p.topic)?.get(name) !== value),
  );
}

/**
 * Makes the cluster match the catalog (the `kafka-topics` command, deploy/local/ensure-topics.mjs):
 * creates missing topics, raises partition counts below the catalog's (never lowers them: Kafka
 * cannot), and sets the catalog's topic configs where they differ. Idempotent.
 */
export async function provisionTopics(
  client: KafkaClient,
  options: ProvisionOptions,
): Promise<ProvisionReport> {
  return withAdmin(client, async (admin) => {
    const brokers = await brokerCount(admin);
    const plans = catalogWithDeadLetters().map((d) =>
      topicPlan(d, brokers, options.partitionOverrides, options.prefix),
    );
    const report: ProvisionReport = {
      brokers,
      created: [],
      raised: [],
      wider: [],
      configured: [],
      underReplicated: [],
    };
    const existing = new Set(await retryRetriable(() => admin.listTopics()));
    const missing = plans.filter((p) => !existing.has(p.topic));
    if (missing.length > 0) {
      await retryRetriable(() =>
        admin.createTopics({
          waitForLeaders: true,
          topics: missing.map((p) => ({
            topic: p.topic,
            numPartitions: p.partitions,
            replicationFactor: p.replicationFactor,
            configEntries: Object.entries(p.config).map(([name, value]) => ({ name, value })),
          })),
        }),
      );
      report.created = missing.map((p) => p.topic);
    }
    const present = plans.filter((p) => existing.has(p.topic));
    const { topics: metadata } =
      present.length > 0
        ? await retryRetriable(() => admin.fetchTopicMetadata({ topics: present.map((p) => p.topic) }))
        : { topics: [] };
    const byName = new Map(metadata.map((t) => [t.name, t.partitions]));
    const raise: { topic: string; count: number }[] = [];
    for (const plan of present) {
      const partitions = byName.get(plan.topic) ?? [];
      if (partitions.length < plan.partitions) {
        raise.push({ topic: plan.topic, count: plan.partitions });
        report.raised.push({ topic: plan.topic, from: partitions.length, to: plan.partitions });
      } else if (partitions.length > plan.partitions) {
        report.wider.push({ topic: plan.topic, partitions: partitions.length, catalog: plan.partitions });
      }
      const replicas = Math.min(...partitions.map((p) => p.replicas.length));
      if (partitions.length > 0 && replicas < plan.replicationFactor)
        report.underReplicated.push({ topic: plan.topic, replicas, planned: plan.replicationFactor });
    }
    if (raise.length > 0) {
      await retryRetriable(() => admin.createPartitions({ topicPartitions: raise, validateOnly: false }));
    }
    const stale = await differingConfigs(admin, present);
    for (const plan of stale) {
      // AlterConfigs replaces the topic's dynamic configs: the catalog owns them all.
      await retryRetriable(() =>
        admin.alterConfigs({
          validateOnly: false,
          resources: [
            {
              type: 2 /* TOPIC */,
              name: plan.topic,
              configEntries: Object.entries(plan.config).map(([name, value]) => ({ name, value })),
            },
          ],
        }),
      );
      report.configured.push(plan.topic);
    }
    logReport(options.logger, report);
    return report;
  });
}

function logReport(logger: Logger, report: ProvisionReport): void {
  const { brokers, created, raised, configured } = report;
  logger.info({ brokers, created, raised, configured }, 'kafka topics provisioned from the catalog');
  for (const w of report.wider)
    logger.warn(
      w,
      `${w.topic} has ${w.partitions} partitions, more than the catalog's ${w.catalog}: left as is (partitions are never lowered)`,
    );
  for (const u of report.underReplicated)
    logger.warn(
      u,
      `${u.topic} has ${u.replicas} replicas, the plan ${u.planned}: raise it with a partition reassignment (kafka-reassign-partitions)`,
    );
}
