import { createProducer, ensureTopics, queueTopic, TaskWorker, workerGroup } from '@platform/kafka';
import { startMetricsServer, type MetricsServer } from '@platform/telemetry';
import { waitUntil } from '@platform/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSystemHarness, testLogger, type SystemHarness } from './support/system-harness.js';

let harness: SystemHarness;
let metrics: MetricsServer;
let worker: TaskWorker | undefined;

beforeAll(async () => {
  // The gauges re-read the brokers every 100 ms here (5 s by default); only this run's groups.
  harness = await startSystemHarness({ CONSUMER_LAG_CACHE_MS: '100', CONSUMER_LAG_EVENT_GROUPS: '' });
  metrics = await startMetricsServer({ port: 0, host: '127.0.0.1', logger: testLogger });
}, 120_000);

afterAll(async () => {
  await worker?.stop();
  await metrics?.close();
  await harness?.stop();
}, 60_000);

/** The series of `name` in a real scrape of this process's /metrics, with their labels. */
async function scrape(name: string): Promise<{ labels: Record<string, string>; value: number }[]> {
  const text = await (await fetch(`http://127.0.0.1:${metrics.port}/metrics`)).text();
  const series = [];
  for (const line of text.split('\n')) {
    const match = new RegExp(`^${name}\\{([^}]*)\\} (\\S+)$`).exec(line);
    if (!match) continue;
    const labels = Object.fromEntries([...match[1]!.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
    series.push({ labels, value: Number(match[2]) });
  }
  return series;
}

it('exports the lag per partition and the members of the worker groups: the figures /system/workers shows', async () => {
  const prefix = harness.config.QUEUE_TOPIC_PREFIX;
  const { kafka } = harness.dependencies;
  const knowledge = queueTopic('knowledge', prefix);
  await waitUntil(
    () =>
      ensureTopics(kafka, [
        { topic: knowledge, partitions: 2 },
        { topic: queueTopic('default', prefix), partitions: 1 },
      ]).then(
        () => true as const,
        () => undefined,
      ),
    30_000,
  );
  // Seven tasks on a queue nobody consumes, spread over both partitions by key.
  await createProducer(kafka).publishRaw(
    knowledge,
    Array.from({ length: 7 }, (_, i) => ({
      key: `k${i}`,
      value: JSON.stringify({ task: 'doc.index' }),
      headers: {},
    })),
  );
  worker = new TaskWorker(kafka, {
    queue: 'default',
    topicPrefix: prefix,
    redis: harness.dependencies.redis,
    logger: testLogger,
  });
  await worker.start();
  await worker.ready;

  const admin = await harness.createUser({ roles: ['Admin'] });
  const { body } = await harness.request('GET', '/admin/observability/system/workers', {
    token: admin.token,
  });
  expect(body.data.queues.knowledge).toBe(7);
  expect(body.data.worker_count).toBe(1);

  const lagGroup = workerGroup('knowledge', prefix);
  const partitions = await waitUntil(
    async () => {
      const series = (await scrape('kafka_consumer_group_lag')).filter((s) => s.labels.group === lagGroup);
      return series.reduce((sum, s) => sum + s.value, 0) === body.data.queues.knowledge ? series : undefined;
    },
    10_000,
    'the lag gauge never showed the figure /system/workers shows',
  );
  expect(partitions.map((s) => [s.labels.topic, s.labels.partition]).sort()).toEqual([
    [knowledge, '0'],
    [knowledge, '1'],
  ]);
  const members = await scrape('kafka_consumer_group_members');
  const byGroup = Object.fromEntries(members.map((s) => [s.labels.group, s.value]));
  expect(byGroup[workerGroup('default', prefix)]).toBe(body.data.worker_count);
  expect(byGroup[lagGroup]).toBe(0);
  expect(byGroup[harness.config.TELEMETRY_GROUP]).toBeDefined();
}, 120_000);
