import type { SecretBox } from '@platform/crypto';
import type { Pool } from '@platform/db';
import type { Logger } from '@platform/logger';
import type { Resolver } from '@platform/outbound-http';
import type { ModelsConfig } from './config.js';
import type { EndpointAllowlist } from './adapters/endpoint-allowlist.js';

// Kept apart from the composition root (models-service.ts) so use cases can name their
// dependencies without importing the file that imports them: no import cycles.
/** What the catalog, model administration, test and discovery use cases depend on. */
export interface ModelsDependencies {
  config: ModelsConfig;
  logger: Logger;
  pool: Pool;
  /** Seals model API keys at rest (SECRET_KEY). */
  secrets: SecretBox;
  /** identity's `model_endpoint_allowlist`, read when a URL is checked. */
  allowlist: EndpointAllowlist;
  /** DNS for outbound calls; the system resolver unless a test plays DNS. */
  resolve?: Resolver;
  version: string;
}
