import type { RequestOrigin } from '@platform/grpc';
import { writeAudit } from '../../data/audit-repository.js';
import type { AuthDeps } from './auth-context.js';

/** Writes one audit row about an account acting on itself. */
export type AccountAudit = (action: string, details: Record<string, unknown>) => Promise<void>;

/**
 * The audit writer of a login attempt on `accountId`: actor and target are the account, the
 * request's origin is recorded and `extra` (e.g. the login method) is added to every row's details.
 */
export function accountAudit(
  deps: Pick<AuthDeps, 'pool'>,
  accountId: string,
  meta: RequestOrigin,
  extra: Record<string, unknown> = {},
): AccountAudit {
  return (action, details) =>
    writeAudit(deps.pool, {
      actorUserId: accountId,
      action,
      targetType: 'user',
      targetId: accountId,
      ip: meta.ip,
      userAgent: meta.userAgent,
      requestId: meta.requestId,
      details: { ...details, ...extra },
    });
}
