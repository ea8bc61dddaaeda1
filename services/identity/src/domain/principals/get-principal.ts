import type { Pool } from '@platform/db';
import { isUuid } from '@platform/errors';
import { findPrincipal, type PrincipalRow } from '../../data/principal-repository.js';

export type { PrincipalRow } from '../../data/principal-repository.js';

/**
 * The gateway's view of a user: active state, approval, permissions, teams. Unknown ids (and ids
 * that are not UUIDs) are undefined; the gRPC edge answers them `found: false`.
 */
export async function getPrincipal(pool: Pool, userId: string): Promise<PrincipalRow | undefined> {
  return isUuid(userId) ? await findPrincipal(pool, userId) : undefined;
}
