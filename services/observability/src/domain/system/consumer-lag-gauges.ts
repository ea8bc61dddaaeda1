import {
  consumerGroupLags,
  groupMembers,
  queueTopic,
  QUEUES,
  Topics,
  workerGroup,
  type ConsumerLag,
  type KafkaClient,
} from '@platform/kafka';
import type { Logger } from '@platform/logger';
import { cachedReading, gauge, type CachedReading } from '@platform/telemetry';

export interface LagGroup {
  groupId: string;
  topic: string;
}

/**
 * The groups whose lag is exported: the five worker groups on their queues (what `/system/workers`
 * reports), this service's fact and agent-directory consumers, and the other services' event
 * consumer groups named in config. All names come from config: a closed set.
 */
export function lagGroups(config: {
  QUEUE_TOPIC_PREFIX: string;
  TELEMETRY_TOPIC_PREFIX: string;
  TELEMETRY_GROUP: string;
  AGENT_DIRECTORY_GROUP: string;
  CONSUMER_LAG_EVENT_GROUPS: LagGroup[];
}): LagGroup[] {
  const prefix = config.QUEUE_TOPIC_PREFIX;
  return [
    ...QUEUES.map((queue) => ({ groupId: workerGroup(queue, prefix), topic: queueTopic(queue, prefix) })),
    { groupId: config.TELEMETRY_GROUP, topic: `${config.TELEMETRY_TOPIC_PREFIX}${Topics.AGENT_ROUNDS}` },
    { groupId: config.TELEMETRY_GROUP, topic: `${config.TELEMETRY_TOPIC_PREFIX}${Topics.WORKFLOW_RUNS}` },
    { groupId: config.AGENT_DIRECTORY_GROUP, topic: Topics.AGENT_DIRECTORY },
    ...config.CONSUMER_LAG_EVENT_GROUPS,
  ];
}

interface GroupFigures {
  lags: ConsumerLag[];
  members: Record<string, number>;
}

/** Readings of the brokers this process exports (one per started service; tests may start several). */
const readings = new Set<CachedReading<GroupFigures>>();

async function collectAll(): Promise<GroupFigures[]> {
  return Promise.all([...readings].map((reading) => reading.current()));
}

gauge({
  name: 'kafka_consumer_group_lag',
  help: 'Messages a consumer group has not consumed yet, per topic and partition (high watermark minus committed offset)',
  labelNames: ['group', 'topic', 'partition'] as const,
  async collect() {
    const all = await collectAll();
    this.reset();
    for (const { lags } of all) {
      for (const lag of lags) {
        for (const p of lag.partitions) {
          this.set({ group: lag.groupId, topic: lag.topic, partition: String(p.partition) }, p.lag);
        }
      }
    }
  },
});

gauge({
  name: 'kafka_consumer_group_members',
  help: 'Members of a consumer group (0 when it is empty or unknown)',
  labelNames: ['group'] as const,
  async collect() {
    const all = await collectAll();
    this.reset();
    for (const { members } of all) {
      for (const [group, count] of Object.entries(members)) this.set({ group }, count);
    }
  },
});

/**
 * Exports the lag and members of `groups` on scrape, read from the brokers at most every
 * `cacheMs` (several Prometheus replicas must not each hit Kafka's admin API); when Kafka does not
 * answer, the last figures stay. Returns the function that stops exporting them.
 */
export function exportConsumerLag(options: {
  kafka: KafkaClient;
  logger: Logger;
  groups: LagGroup[];
  cacheMs: number;
}): () => void {
  const groupIds = [...new Set(options.groups.map((g) => g.groupId))];
  const reading = cachedReading<GroupFigures>({
    read: async () => {
      const [lags, members] = await Promise.all([
        consumerGroupLags(options.kafka, options.groups),
        groupMembers(options.kafka, groupIds),
      ]);
      return { lags, members };
    },
    initial: { lags: [], members: {} },
    ttlMs: options.cacheMs,
    timeoutMs: 5_000,
    logger: options.logger,
    what: 'consumer group lag',
  });
  readings.add(reading);
  return () => readings.delete(reading);
}
