import type { Pool } from '@platform/db';
import type { KafkaClient, Producer } from '@platform/kafka';
import type { Logger } from '@platform/logger';
import type { Redis } from '@platform/redis';
import type { WorkflowsConfig } from './config.js';
import type { TeamDirectory } from './adapters/identity-teams.js';
import type { NodeModules } from './domain/runs/engine/contract.js';

/**
 * Whatever else keeps data under a workflow's id outside Postgres (the ephemeral
 * `/workflow-versions` store in Redis); deleting a workflow purges it there too.
 */
export interface WorkflowDataPurger {
  deleteAllVersions(workflowId: string): Promise<unknown>;
}

// Kept apart from the composition root (workflows-service.ts) so use cases can name their
// dependencies without importing the file that imports them: no import cycles.
/** What every workflows use case may depend on, built once at start. */
export interface WorkflowsDependencies {
  config: WorkflowsConfig;
  logger: Logger;
  pool: Pool;
  redis: Redis;
  kafka: KafkaClient;
  producer: Producer;
  teams: TeamDirectory;
  /** Stores purged when a workflow is deleted (after its rows are gone). */
  purgers: WorkflowDataPurger[];
  /** The run engine's node set (`createNodeModules` over identity settings and models). */
  nodeModules: NodeModules;
  now: () => Date;
  version: string;
}
