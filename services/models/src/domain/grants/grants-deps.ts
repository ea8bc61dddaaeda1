import type { Pool } from '@platform/db';
import type { Logger } from '@platform/logger';
import type { TeamDirectory } from './team-directory-port.js';

/** What the grant and quota use cases depend on (a narrow view of the service's dependencies). */
export interface GrantsDeps {
  pool: Pool;
  logger: Logger;
  teams: TeamDirectory;
  /** The time periods go by; tests pass a clock they move. */
  now: () => Date;
}
