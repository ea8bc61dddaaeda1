import type { Pool } from '@platform/db';
import type { KafkaClient, Producer } from '@platform/kafka';
import type { Logger } from '@platform/logger';
import type { Redis } from '@platform/redis';
import type { ApiKeysConfig } from './config.js';
import type { UserDirectory } from './adapters/identity-users.js';
import type { WorkflowDirectory } from './adapters/workflow-names.js';
import type { KeyRevisions } from './domain/keys/key-revisions.js';
import type { LastUsedBuffer } from './domain/usage/last-used-buffer.js';

// Kept apart from the composition root (apikeys-service.ts) so use cases can name their
// dependencies without importing the file that imports them: no import cycles.
/** What every apikeys use case may depend on, built once at start. */
export interface ApiKeysDependencies {
  config: ApiKeysConfig;
  logger: Logger;
  pool: Pool;
  redis: Redis;
  kafka: KafkaClient;
  producer: Producer;
  users: UserDirectory;
  workflows: WorkflowDirectory;
  revisions: KeyRevisions;
  lastUsed: LastUsedBuffer;
  /** The time key checks go by; tests pass a clock they move instead of waiting. */
  now: () => Date;
  version: string;
}
