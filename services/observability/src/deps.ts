import type { Pool } from '@platform/db';
import type { KafkaClient, Producer } from '@platform/kafka';
import type { Logger } from '@platform/logger';
import type { Redis } from '@platform/redis';
import type { QuotaUsageReader } from './adapters/quota-usage.js';
import type { WorkflowNameReader } from './adapters/workflow-names.js';
import type { ObservabilityConfig } from './config.js';
import type { PayloadCache } from './data/payload-cache.js';
import type { AggregateGate } from './data/aggregate-gate.js';

// Kept apart from the composition root (observability-service.ts) so use cases can name their
// dependencies without importing the file that imports them: no import cycles.
/** What every observability use case may depend on, built once at start. */
export interface ObservabilityDependencies {
  config: ObservabilityConfig;
  logger: Logger;
  pool: Pool;
  redis: Redis;
  kafka: KafkaClient;
  producer: Producer;
  /** The one process-wide bound every aggregate query passes (DB_AGGREGATE_CONCURRENCY). */
  gate: AggregateGate;
  /** 30 s payload cache per (endpoint, parameters). */
  cache: PayloadCache;
  workflowNames: WorkflowNameReader;
  quotaUsage: QuotaUsageReader;
  /** The time ranges go by; tests pass a fixed clock. */
  now: () => Date;
  version: string;
}
