import type { identityV1 } from '@platform/contracts';
import type { Pool } from '@platform/db';
import { isUuid } from '@platform/errors';
import { findPrincipal } from '../../data/principal-repository.js';

/** The gateway's view of a user: active state, permissions, teams. Unknown ids are `found: false`. */
export async function getPrincipal(pool: Pool, userId: string): Promise<identityV1.PrincipalRecord> {
  const row = isUuid(userId) ? await findPrincipal(pool, userId) : undefined;
  if (!row) {
    return {
      found: false,
      user_id: '',
      username: '',
      is_superuser: false,
      permissions: [],
      team_ids: [],
      is_active: false,
      approval_status: '',
    };
  }
  return { found: true, ...row };
}
