// Proof with the real tool: the local stack's Prometheus (deploy/local/stack.sh, 127.0.0.1:59090)
// scrapes the running services (deploy/local/services.sh; metrics ports 9470…9477 of env.sh, the
// sandbox worker's the last), and
// its query API returns what this test just did: the requests it made in the gateway's histogram,
// and the consumer lag it caused in the observability service's gauge.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GATEWAY_URL, nextScrape, promQuery, promValue, waitFor } from './support/telemetry-backends.js';
import { REPO, SANDBOX_WORKER, SERVICES } from './support/topology.js';

// kafkajs from the kafka package (the root has no dependency on it); only what this test uses.
interface KafkaAdmin {
  connect(): Promise<void>;
  disconnect(): Promise<void>;
  fetchTopicOffsets(topic: string): Promise<Array<{ partition: number; high: string }>>;
  setOffsets(options: {
    groupId: string;
    topic: string;
    partitions: Array<{ partition: number; offset: string }>;
  }): Promise<void>;
}
interface KafkaProducer {
  connect(): Promise<void>;
  disconnect(): Promise<void>;
  send(options: { topic: string; messages: Array<{ value: string }> }): Promise<unknown>;
}
interface KafkaJs {
  Kafka: new (options: { clientId: string; brokers: string[]; logLevel?: number }) => {
    admin(): KafkaAdmin;
    producer(): KafkaProducer;
  };
}
const { Kafka } = createRequire(join(REPO, 'packages', 'kafka', 'package.json'))('kafkajs') as KafkaJs;

describe('the local Prometheus scrapes the platform', () => {
  it('every process of the platform is up', async () => {
    // The seven services always; the sandbox worker when the stack's Prometheus has its target
    // (a stack started before deploy/local/lib/prometheus.sh listed it scrapes the seven only).
    const services = SERVICES.map((s) => s.name);
    const targets = (await promQuery('up')).map((s) => s.metric.instance ?? '');
    expect(targets.filter((t) => ![...services, SANDBOX_WORKER].includes(t))).toEqual([]);
    const names = [...services, ...(targets.includes(SANDBOX_WORKER) ? [SANDBOX_WORKER] : [])].sort();
    const up = await waitFor(
      async () => {
        const samples = await promQuery('up');
        const healthy = samples.filter((s) => s.value[1] === '1').map((s) => s.metric.instance ?? '');
        return names.every((name) => healthy.includes(name)) ? samples : undefined;
      },
      20_000,
      `up == 1 for ${names.join(', ')}`,
    );
    expect(
      up
        .filter((s) => s.value[1] === '1')
        .map((s) => s.metric.instance)
        .sort(),
    ).toEqual(names);
  });

  it("counts this test's requests in the gateway's request histogram", async () => {
    // HEAD on the health route: a real route (so a real template) that nothing else here calls with
    // HEAD (readiness checks use GET), so the series grows by exactly what this test sends.
    const selector = 'service="gateway",route="/api/v1/health",method="HEAD",status="200",code_class="ok"';
    // Prometheus 3 writes bucket bounds as floats (`le="10.0"`); prom-client sends `le="10"`.
    const count = `sum(http_server_request_duration_seconds_count{${selector}})`;
    const underTenSeconds = `sum(http_server_request_duration_seconds_bucket{${selector},le=~"10(.0)?"})`;
    // One request first, scraped before `before`: on a fresh gateway the series starts with it, and
    // increase() below needs a sample of the series from before this test's requests.
    expect((await fetch(`${GATEWAY_URL}/api/v1/health`, { method: 'HEAD' })).status).toBe(200);
    await nextScrape('gateway');
    const before = { count: (await promValue(count)) ?? 0, bucket: (await promValue(underTenSeconds)) ?? 0 };

    const requests = 7;
    const clientSeconds: number[] = [];
    for (let i = 0; i < requests; i++) {
      const started = performance.now();
      const response = await fetch(`${GATEWAY_URL}/api/v1/health`, { method: 'HEAD' });
      clientSeconds.push((performance.now() - started) / 1000);
      expect(response.status).toBe(200);
    }
    await nextScrape('gateway');
    expect((await promValue(count)) ?? 0).toBe(before.count + requests);
    expect((await promValue(underTenSeconds)) ?? 0).toBe(before.bucket + requests);

    // The median from the buckets: each request took less on the server than this test saw, so the
    // server's median lies in a bucket whose upper bound is at most the first bound at or above the
    // median the client measured (histogram_quantile interpolates inside that bucket).
    const p50 = await promValue(
      `histogram_quantile(0.5, sum by (le) (increase(http_server_request_duration_seconds_bucket{${selector}}[2m])))`,
    );
    const clientMedian = clientSeconds.sort((a, b) => a - b)[Math.floor(requests / 2)]!;
    const bounds = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
    expect(p50).toBeGreaterThan(0);
    expect(p50).toBeLessThanOrEqual(bounds.find((b) => b >= clientMedian) ?? 10);
  });

  describe('consumer lag', () => {
    // The `knowledge` work queue: its workers live outside this repository, so nothing here produces
    // to or consumes it, and its group (`workers.knowledge`, no members) moves only when this test
    // moves it. Not a test-only topic: the gauge (observability's consumer-lag-gauges.ts) exports a
    // closed set of groups, the five worker groups on their queues and the groups of its config, and
    // the running observability's config is not this test's to change. Not `sandbox` any more: the
    // sandbox worker (issue 24) consumes it and would take the probes. The test puts the group at
    // the end of the topic, publishes K messages and expects the gauge at exactly K; then puts the
    // group at the end again, so the shared stack keeps no backlog.
    const prefix = process.env.QUEUE_TOPIC_PREFIX ?? '';
    const topic = `${prefix}queue.knowledge`;
    const group = `${prefix}workers.knowledge`;
    const lag = `sum(kafka_consumer_group_lag{group="${group}",topic="${topic}"})`;
    const kafka = new Kafka({
      clientId: 'telemetry-lag-test',
      brokers: (process.env.KAFKA_BROKERS ?? '127.0.0.1:59092').split(','),
      logLevel: 1,
    });
    const admin = kafka.admin();
    // The high watermarks, committed as they are: `resetOffsets({earliest: false})` would commit
    // -1 ("no offset"), which counts as the whole retained topic (packages/kafka consumerLag).
    const skipToEnd = async () => {
      const ends = await admin.fetchTopicOffsets(topic);
      await admin.setOffsets({
        groupId: group,
        topic,
        partitions: ends.map(({ partition, high }) => ({ partition, offset: high })),
      });
    };

    afterAll(async () => {
      await skipToEnd().catch(() => undefined);
      await admin.disconnect();
    });

    it('kafka_consumer_group_lag returns the backlog this test causes', async () => {
      await admin.connect();
      await skipToEnd();
      await waitFor(async () => (await promValue(lag)) === 0, 30_000, `${lag} == 0`);

      const probes = 5;
      const producer = kafka.producer();
      await producer.connect();
      try {
        await producer.send({
          topic,
          messages: Array.from({ length: probes }, (_, i) => ({
            value: JSON.stringify({ task: 'telemetry.lag_probe', args: { probe: i } }),
          })),
        });
      } finally {
        await producer.disconnect();
      }
      const seen = await waitFor(
        async () => ((await promValue(lag)) === probes ? probes : undefined),
        30_000,
        `${lag} == ${probes}`,
      );
      expect(seen).toBe(probes);
    });
  });
});
