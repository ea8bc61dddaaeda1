import { describe, expect, it } from 'vitest';
import {
  catalogEntryOf,
  catalogWithDeadLetters,
  platformTopics,
  QUEUES,
  queueTopic,
  serviceTopics,
  TOPIC_CATALOG,
  Topics,
  topicPlan,
  topicsOfService,
  requiredPartitions,
} from '../src/index.js';

describe('topic catalog', () => {
  it('declares every platform topic and every queue once, each with its dead-letter topic', () => {
    const names = TOPIC_CATALOG.map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(
      expect.arrayContaining([...Object.values(Topics), ...QUEUES.map((q) => queueTopic(q))]),
    );
    expect(names).toHaveLength(Object.values(Topics).length + QUEUES.length);
    expect(platformTopics()).toHaveLength(2 * names.length);
    for (const name of names) expect(platformTopics()).toContain(`${name}.dlq`);
  });

  it('is durable in production: RF 3, min ISR 2 (one broker may be down), a reason for each', () => {
    for (const topic of catalogWithDeadLetters()) {
      expect(topic.replicationFactor, topic.name).toBeGreaterThanOrEqual(3);
      expect(topic.minInsyncReplicas, topic.name).toBe(topic.replicationFactor - 1);
      expect(topic.partitions, topic.name).toBeGreaterThanOrEqual(1);
      expect(topic.why.length, topic.name).toBeGreaterThan(10);
    }
    expect(catalogWithDeadLetters().find((t) => t.name === Topics.AGENT_DIRECTORY)).toMatchObject({
      cleanupPolicy: 'compact',
      retentionMs: -1,
    });
  });

  it('gives the queues this repository consumes partitions ≥ max replicas × worker concurrency', () => {
    // The HPA / KEDA maximum (6) times the TaskWorker concurrency of each fleet (workflows: 4,
    // notifications: DEFAULT_QUEUE_CONCURRENCY 4).
    const fleets = { 'queue.workflow': 6 * 4, 'queue.default': 6 * 4 };
    for (const [name, needed] of Object.entries(fleets))
      expect(requiredPartitions(name), name).toBeGreaterThanOrEqual(needed);
  });

  it('caps replication and min ISR by the broker count, never the partitions', () => {
    const workflow = TOPIC_CATALOG.find((t) => t.name === 'queue.workflow')!;
    expect(topicPlan(workflow, 1)).toEqual({
      topic: 'queue.workflow',
      partitions: workflow.partitions,
      replicationFactor: 1,
      config: {
        'min.insync.replicas': '1',
        'retention.ms': String(7 * 86_400_000),
        'cleanup.policy': 'delete',
      },
    });
    expect(topicPlan(workflow, 2).config['min.insync.replicas']).toBe('1');
    expect(topicPlan(workflow, 5)).toMatchObject({
      replicationFactor: 3,
      config: { 'min.insync.replicas': '2' },
    });
    expect(topicPlan(workflow, 3, { 'queue.workflow': 96 }, 't.')).toMatchObject({
      topic: 't.queue.workflow',
      partitions: 96,
    });
  });

  it('finds the declaration of a prefixed name, dead-letter topics included', () => {
    expect(catalogEntryOf('t-1.queue.default.dlq')).toMatchObject({
      prefix: 't-1.',
      entry: { name: 'queue.default.dlq', partitions: 1 },
    });
    expect(catalogEntryOf('platform.domain-events')).toMatchObject({ prefix: '' });
    expect(catalogEntryOf('something.else')).toBeUndefined();
    expect(requiredPartitions('x.queue.workflow', { 'queue.workflow': 7 })).toBe(7);
  });

  it('declares per service what it produces and consumes (with the dead letters it writes)', () => {
    expect(topicsOfService('workflows').sort()).toEqual(
      [
        'platform.domain-events',
        'platform.domain-events.dlq',
        'platform.notification-events',
        'platform.sandbox-results',
        'platform.sandbox-results.dlq',
        'platform.workflow-runs',
        'queue.sandbox',
        'queue.workflow',
        'queue.workflow.dlq',
      ].sort(),
    );
    // The sandbox worker may read its tasks and write their results: nothing else.
    expect(topicsOfService('sandbox').sort()).toEqual(
      ['platform.sandbox-results', 'queue.sandbox', 'queue.sandbox.dlq'].sort(),
    );
    expect(topicsOfService('apikeys').sort()).toEqual(
      ['platform.agent-directory', 'platform.agent-directory.dlq', 'platform.notification-events'].sort(),
    );
    expect(
      serviceTopics('notifications', { queues: 'q.', topics: { [Topics.NOTIFICATION_EVENTS]: 'e.' } }),
    ).toEqual(
      expect.arrayContaining([
        'e.platform.notification-events',
        'e.platform.notification-events.dlq',
        'q.queue.default.dlq',
        'platform.domain-events',
      ]),
    );
    // Every in-repo consumer of a topic also writes its dead letters.
    for (const topic of TOPIC_CATALOG)
      for (const service of topic.consumers) expect(topicsOfService(service)).toContain(`${topic.name}.dlq`);
  });
});
