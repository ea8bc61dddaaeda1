// GET /admin/observability/system/workers (gateway routes/observability-system-routes.ts): task
// workers, the five queues and the capped scan by task over real Kafka topics and workers, and the
// security cases. The Prometheus gauges with the same figures: consumer-lag-gauges.int.test.ts.
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  buildTask,
  createProducer,
  ensureTopics,
  queueTopic,
  QUEUES,
  TaskQueue,
  TaskWorker,
  type QueueName,
} from '@platform/kafka';
import { routeSecurity, waitUntil } from '@platform/testing';
import { getSystemWorkers } from '../../src/domain/system/get-system-workers.js';
import { systemMonitorDeps } from '../../src/system-area.js';
import { startSystemHarness, testLogger, type SystemHarness } from '../support/system-harness.js';

let harness: SystemHarness;
const workers: TaskWorker[] = [];
let release: () => void = () => undefined;
const fast = { sessionTimeoutMs: 6000, heartbeatIntervalMs: 500, rebalanceTimeoutMs: 10_000 };

beforeAll(async () => {
  harness = await startSystemHarness();
}, 120_000);

afterAll(async () => {
  release();
  await Promise.all(workers.map((w) => w.stop()));
  // The topics carry this run's unique prefix, so nothing else ever reads them.
  await harness?.stop();
}, 60_000);

/** `count` tasks named by `name(i)` on `queue`, published in chunks (the scan test needs thousands). */
async function enqueueMany(queue: QueueName, count: number, name: (i: number) => string): Promise<void> {
  const { producer } = harness.dependencies;
  const prefix = harness.config.QUEUE_TOPIC_PREFIX;
  for (let start = 0; start < count; start += 1000) {
    const batch = Array.from({ length: Math.min(1000, count - start) }, (_, j) => {
      const task = buildTask(queue, name(start + j), { n: start + j }, { topicPrefix: prefix });
      return { key: task.key, value: JSON.stringify(task.value), headers: {} };
    });
    await producer.publishRaw(queueTopic(queue, prefix), batch);
  }
}

it('reports workers, running, fetched and retrying tasks, each queue backlog and a capped scan by task', async () => {
  const prefix = harness.config.QUEUE_TOPIC_PREFIX;
  const { kafka, redis } = harness.dependencies;
  // Right after creation a broker may still answer "does not host this topic-partition" while
  // leaders settle (seen when other suites create topics at the same time): ask again.
  const topics = QUEUES.map((q) => ({ topic: queueTopic(q, prefix), partitions: 1 }));
  await waitUntil(
    () =>
      ensureTopics(kafka, topics).then(
        () => true as const,
        () => undefined,
      ),
    30_000,
  );
  await enqueueMany('default', 5, (i) => (i < 3 ? 'email.send' : 'channel.deliver'));
  await enqueueMany('knowledge', 5003, (i) => (i % 2 === 0 ? 'doc.index' : 'doc.delete'));
  const queue = new TaskQueue(createProducer(kafka), { topicPrefix: prefix });
  for (let i = 0; i < 3; i += 1) await queue.enqueue('sandbox', 'sandbox.run', { i });
  await queue.enqueue('agent', 'agent.flaky', {});

  // A sandbox worker stuck in its first task (two more fetched behind it), an agent worker whose
  // only task failed and waits two minutes for its retry.
  const gate = new Promise<void>((resolve) => (release = resolve));
  const sandbox = new TaskWorker(kafka, {
    queue: 'sandbox',
    topicPrefix: prefix,
    redis,
    logger: testLogger,
    ...fast,
  }).register('sandbox.run', () => gate);
  const agent = new TaskWorker(kafka, {
    queue: 'agent',
    topicPrefix: prefix,
    redis,
    logger: testLogger,
    retryBackoffMs: 120_000,
    maxRetryBackoffMs: 120_000,
    ...fast,
  }).register('agent.flaky', () => {
    throw new Error('not yet');
  });
  workers.push(sandbox, agent);
  await Promise.all([sandbox.start(), agent.start()]);
  const deps = systemMonitorDeps(harness.dependencies);
  await waitUntil(async () => {
    const state = await getSystemWorkers(deps);
    return state.worker_count === 2 && state.active_tasks === 1 && state.scheduled_tasks === 1
      ? true
      : undefined;
  }, 60_000);

  const admin = await harness.createUser({ roles: ['Admin'] });
  const { status, body } = await harness.request('GET', '/admin/observability/system/workers', {
    token: admin.token,
  });
  expect([status, body.code]).toEqual([200, 0]);
  expect(body.data).toEqual({
    // knowledge has a backlog and no worker at all
    status: 'danger',
    worker_count: 2,
    active_tasks: 1,
    reserved_tasks: 2,
    scheduled_tasks: 1,
    queues: { default: 5, knowledge: 5003, workflow: 0, agent: 1, sandbox: 3 },
    tasks: {
      default: { 'email.send': 3, 'channel.deliver': 2 },
      knowledge: { 'doc.index': 2500, 'doc.delete': 2500 },
      workflow: {},
      agent: { 'agent.flaky': 1 },
      sandbox: { 'sandbox.run': 3 },
      'unscanned:knowledge': 3,
    },
  });

  // Cached for 30 s per endpoint: a new task does not show until then.
  await queue.enqueue('default', 'email.send', {});
  const again = await harness.request('GET', '/admin/observability/system/workers', { token: admin.token });
  expect(again.body.data.queues.default).toBe(5);
  expect((await getSystemWorkers(deps)).queues.default).toBe(6);

  // The health snapshot carries the same figures (it reads uncached).
  const health = await harness.request('GET', '/admin/observability/system/health', { token: admin.token });
  expect(health.body.data.workers).toEqual({
    status: 'danger',
    worker_count: 2,
    active_tasks: 1,
    backlog: 5013,
  });
}, 180_000);

it('security: no token → 401 / 2000; a malformed or forged token → 403 / 2003; a plain user → 403 / 3000', async () => {
  const plain = await harness.createUser({ roles: ['User'] });
  const route = ['GET', '/admin/observability/system/workers'] as const;
  const { answers, expected } = await routeSecurity(harness.request, [route], plain.token);
  expect(answers).toEqual(expected);
});
