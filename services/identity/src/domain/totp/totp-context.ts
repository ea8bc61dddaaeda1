import type { RequestOrigin } from '@platform/grpc';
import type { Pool, PoolClient } from '@platform/db';
import { writeAudit } from '../../data/audit-repository.js';
import type { IdentityDependencies } from '../../deps.js';
import type { TotpThrottle } from './totp-throttle.js';

/** What the TOTP use cases depend on: the identity dependencies plus the Redis throttle. */
export interface TotpDeps extends IdentityDependencies {
  throttle: TotpThrottle;
}

/** One `audit_log` row of a TOTP change the user made to their own account. */
export async function writeTotpAudit(
  db: Pool | PoolClient,
  userId: string,
  action: string,
  meta: RequestOrigin,
  details: Record<string, unknown>,
): Promise<void> {
  await writeAudit(db, {
    actorUserId: userId,
    action,
    targetType: 'user',
    targetId: userId,
    ip: meta.ip,
    userAgent: meta.userAgent,
    requestId: meta.requestId,
    details,
  });
}
