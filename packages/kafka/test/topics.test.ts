import { describe, expect, it } from 'vitest';
import {
  deadLetterTopic,
  isDeadLetterTopic,
  parseBrokers,
  platformTopics,
  queueTopic,
  QUEUES,
  Topics,
  workerGroup,
} from '../src/index.js';

describe('topic naming', () => {
  it('names the platform topics', () => {
    expect(Topics).toEqual({
      NOTIFICATION_EVENTS: 'platform.notification-events',
      AGENT_ROUNDS: 'platform.agent-rounds',
      WORKFLOW_RUNS: 'platform.workflow-runs',
      DOMAIN_EVENTS: 'platform.domain-events',
      AGENT_DIRECTORY: 'platform.agent-directory',
      SANDBOX_RESULTS: 'platform.sandbox-results',
    });
  });

  it('names queue topics, worker groups and dead-letter topics', () => {
    expect(QUEUES.map((q) => queueTopic(q))).toEqual([
      'queue.default',
      'queue.knowledge',
      'queue.workflow',
      'queue.agent',
      'queue.sandbox',
    ]);
    expect(queueTopic('agent', 'test-1.')).toBe('test-1.queue.agent');
    expect(workerGroup('sandbox')).toBe('workers.sandbox');
    expect(() => queueTopic('nope' as never)).toThrow(/unknown queue/);
    expect(deadLetterTopic('queue.default')).toBe('queue.default.dlq');
    expect(isDeadLetterTopic('queue.default.dlq')).toBe(true);
    expect(isDeadLetterTopic('queue.default')).toBe(false);
  });

  it('lists every platform topic with its dead-letter topic', () => {
    const all = platformTopics();
    expect(all).toHaveLength(22);
    expect(all).toContain('platform.sandbox-results.dlq');
    expect(all).toContain('platform.domain-events.dlq');
    expect(all).toContain('queue.workflow');
  });

  it('parses broker lists', () => {
    expect(parseBrokers('a:1, b:2,')).toEqual(['a:1', 'b:2']);
    expect(parseBrokers(['a:1'])).toEqual(['a:1']);
    expect(() => parseBrokers('')).toThrow(/no Kafka brokers/);
  });
});
