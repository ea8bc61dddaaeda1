/** Topic names shared by every service. Payloads are proto messages, JSON-encoded on the wire. */
export const Topics = {
  /** Automatic-notification events; consumed by notifications. */
  NOTIFICATION_EVENTS: 'platform.notification-events',
  /** Agent-round telemetry facts; consumed by observability. */
  AGENT_ROUNDS: 'platform.agent-rounds',
  /** Workflow-run telemetry facts; consumed by observability. */
  WORKFLOW_RUNS: 'platform.workflow-runs',
  /**
   * Domain events (`settings.changed`, `user.*`, `team.*`, `apikey.revoked`, …; payload
   * `platform.events.v1.DomainEvent`, the type also in `x-event-type`): facts other services react
   * to, e.g. by dropping a cache.
   */
  DOMAIN_EVENTS: 'platform.domain-events',
  /**
   * Agent directory entries (`platform.events.v1.AgentDirectoryEntry`, keyed by agent id) from the
   * agent runtime outside this repository; apikeys keeps a copy to name the agents a key is bound to.
   */
  AGENT_DIRECTORY: 'platform.agent-directory',
  /**
   * Results of code-node tasks (`queue.sandbox`), written by the sandbox worker, read by every
   * workflows run worker (docs/workflows.md "code").
   */
  SANDBOX_RESULTS: 'platform.sandbox-results',
} as const;

export type Topic = (typeof Topics)[keyof typeof Topics];

/** The five work queues of the spec. */
export const QUEUES = ['default', 'knowledge', 'workflow', 'agent', 'sandbox'] as const;
export type QueueName = (typeof QUEUES)[number];

export function isQueueName(value: string): value is QueueName {
  return (QUEUES as readonly string[]).includes(value);
}

/**
 * `queue.<name>` for one of the five queues. `prefix` namespaces the topic (tests use a unique one
 * per run so reruns never see old messages); production code leaves it empty.
 */
export function queueTopic(queue: QueueName, prefix = ''): string {
  if (!isQueueName(queue)) throw new Error(`unknown queue: ${String(queue)}`);
  return `${prefix}queue.${queue}`;
}

/** Consumer group of the workers of one queue: `workers.<name>`. */
export function workerGroup(queue: QueueName, prefix = ''): string {
  return `${prefix}workers.${queue}`;
}

export const DEAD_LETTER_SUFFIX = '.dlq';

/** `<topic>.dlq`: where a consumer parks messages it gave up on. */
export function deadLetterTopic(topic: string): string {
  return `${topic}${DEAD_LETTER_SUFFIX}`;
}

export function isDeadLetterTopic(topic: string): boolean {
  return topic.endsWith(DEAD_LETTER_SUFFIX);
}
