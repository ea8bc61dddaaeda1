import { randomUUID } from 'node:crypto';
import type { KafkaClient } from './client.js';
import { consumerLag, type ConsumerLag, type PartitionLag } from './admin.js';
import { rawKafka, retryRetriable, sleep, withAdmin } from './internal.js';

/** Members per consumer group (0 for a group that is empty, dead or unknown). */
export async function groupMembers(client: KafkaClient, groupIds: string[]): Promise<Record<string, number>> {
  const result: Record<string, number> = Object.fromEntries(groupIds.map((g) => [g, 0]));
  if (groupIds.length === 0) return result;
  await withAdmin(client, async (admin) => {
    const { groups } = await retryRetriable(() => admin.describeGroups(groupIds));
    for (const group of groups) result[group.groupId] = group.members.length;
  });
  return result;
}

/**
 * Whether a consumer group has settled (`Stable`: a rebalance finished and every member holds its
 * partitions) with exactly `members` members; a count alone also matches mid-rebalance.
 */
export async function groupIsStable(client: KafkaClient, groupId: string, members: number): Promise<boolean> {
  return withAdmin(client, async (admin) => {
    const { groups } = await retryRetriable(() => admin.describeGroups([groupId]));
    const group = groups.find((g) => g.groupId === groupId);
    return group?.state === 'Stable' && group.members.length === members;
  });
}

/**
 * Consumer-group lag per (group, topic) pair, by partition; a topic nobody created yet has no
 * partitions and no lag (one metadata call for all: asking for a missing topic's offsets would
 * retry for seconds). What `/system/workers` reports and `kafka_consumer_group_lag` exports.
 */
export async function consumerGroupLags(
  client: KafkaClient,
  pairs: { groupId: string; topic: string }[],
): Promise<ConsumerLag[]> {
  const existing = new Set(await withAdmin(client, (admin) => admin.listTopics()));
  return Promise.all(
    pairs.map(({ groupId, topic }) =>
      existing.has(topic)
        ? consumerLag(client, groupId, topic)
        : Promise.resolve({ groupId, topic, total: 0, partitions: [] }),
    ),
  );
}

/** Consumer-group lag per topic (summed over partitions), 0 for a topic nobody created yet. */
export async function pendingCounts(
  client: KafkaClient,
  pairs: { groupId: string; topic: string }[],
): Promise<number[]> {
  return (await consumerGroupLags(client, pairs)).map((lag) => lag.total);
}

export interface PendingScanOptions {
  groupId: string;
  topic: string;
  /** Messages counted per step (default 500). */
  batchSize?: number;
  /** Most messages read per topic (default 5000); the rest is reported as `unscanned`. */
  cap?: number;
  /** The bucket a message counts under (e.g. its task name); undefined counts as `unknown`. */
  classify: (value: string | null) => string | undefined;
  /** Longest the scan may take before it reports what it has (default 10 000 ms). */
  timeoutMs?: number;
  /**
   * Start of the throw-away group's name (`<scanGroupPrefix><uuid>`): the scanning service's own
   * prefix, so its prefixed group ACL covers it. Default `<groupId>.scan.`.
   */
  scanGroupPrefix?: string;
}

export interface PendingScan {
  /** Consumer-group lag: messages not yet consumed by the group. */
  pending: number;
  scanned: number;
  /** `pending - scanned`: the backlog beyond the cap (or not reached before the timeout). */
  unscanned: number;
  counts: Record<string, number>;
}

/** Which offsets of each partition the scan reads: from the group's position, at most `cap` overall. */
function scanPlan(partitions: PartitionLag[], cap: number): Map<number, { from: number; to: number }> {
  const plan = new Map<number, { from: number; to: number }>();
  let budget = cap;
  for (const p of partitions) {
    if (budget <= 0 || p.lag === 0) continue;
    const from = p.committed === null ? p.low : Math.max(p.committed, p.low);
    const take = Math.min(p.lag, budget);
    budget -= take;
    plan.set(p.partition, { from, to: from + take });
  }
  return plan;
}

/**
 * Counts the messages `groupId` has not consumed yet on `topic`, by `classify`, reading at most `cap`
 * of them in steps of `batchSize`. Reads with a throw-away consumer group (deleted afterwards) that
 * seeks to the group's committed offsets, so the workers' own group is never touched.
 */
export async function scanPending(client: KafkaClient, options: PendingScanOptions): Promise<PendingScan> {
  const batchSize = options.batchSize ?? 500;
  const cap = options.cap ?? 5000;
  const counts: Record<string, number> = {};
  // A queue nobody created yet has no backlog (asking for its offsets would retry for seconds).
  const exists = await withAdmin(client, async (admin) => (await admin.listTopics()).includes(options.topic));
  const lag = exists ? await consumerLag(client, options.groupId, options.topic) : undefined;
  if (!lag || lag.total === 0) return { pending: 0, scanned: 0, unscanned: 0, counts };
  const plan = scanPlan(lag.partitions, cap);
  const target = [...plan.values()].reduce((sum, r) => sum + (r.to - r.from), 0);
  let scanned = 0;
  let step: (string | null)[] = [];
  const flush = () => {
    for (const value of step) {
      const bucket = options.classify(value) ?? 'unknown';
      counts[bucket] = (counts[bucket] ?? 0) + 1;
    }
    scanned += step.length;
    step = [];
  };

  const scanGroup = `${options.scanGroupPrefix ?? `${options.groupId}.scan.`}${randomUUID()}`;
  const consumer = rawKafka(client).consumer({ groupId: scanGroup, maxWaitTimeInMs: 200 });
  const done = new Set<number>();
  const finished = () => done.size === plan.size;
  try {
    await consumer.connect();
    await consumer.subscribe({ topics: [options.topic], fromBeginning: true });
    consumer.on(consumer.events.GROUP_JOIN, () => {
      for (const [partition, range] of plan) {
        consumer.seek({ topic: options.topic, partition, offset: String(range.from) });
      }
    });
    await consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      eachBatch: async ({ batch, resolveOffset }) => {
        const range = plan.get(batch.partition);
        if (!range || done.has(batch.partition)) return;
        for (const message of batch.messages) {
          const offset = Number(message.offset);
          if (offset < range.from) continue;
          if (offset >= range.to) break;
          step.push(message.value?.toString() ?? null);
          if (step.length >= batchSize) flush();
          resolveOffset(message.offset);
          if (offset + 1 >= range.to) done.add(batch.partition);
        }
        flush();
      },
    });
    const until = Date.now() + (options.timeoutMs ?? 10_000);
    while (!finished() && scanned < target && Date.now() < until) await sleep(50);
  } finally {
    await consumer.disconnect().catch(() => undefined);
    await withAdmin(client, (admin) => admin.deleteGroups([scanGroup])).catch(() => undefined);
  }
  return { pending: lag.total, scanned, unscanned: Math.max(0, lag.total - scanned), counts };
}
