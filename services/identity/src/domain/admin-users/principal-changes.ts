import type { SessionRegistry } from '@platform/auth';
import type { Logger } from '@platform/logger';

interface PrincipalDeps {
  sessions: SessionRegistry;
  logger: Logger;
}

/**
 * After a committed change of what a user may do (roles, role permissions, active, approved): the
 * gateways' cached principals of these users are dropped on their very next request. A Redis
 * failure is retried once and then surfaces, because the answer would otherwise claim a change
 * the gateways do not yet apply.
 */
export async function invalidatePrincipals(deps: PrincipalDeps, userIds: readonly string[]): Promise<void> {
  const unique = [...new Set(userIds)];
  await deps.sessions.invalidatePrincipals(unique).catch(async (err: unknown) => {
    deps.logger.warn({ err, users: unique.length }, 'principal revisions: retrying');
    await deps.sessions.invalidatePrincipals(unique);
  });
}

/**
 * Every earlier token of the user ends (password changed or reset, deactivation, forced password
 * change), except `keepJti`, the token of the request that made the change.
 */
export async function endUserSessions(deps: PrincipalDeps, userId: string, keepJti = ''): Promise<void> {
  await deps.sessions.endSessionsBefore(userId, keepJti).catch(async (err: unknown) => {
    deps.logger.warn({ err, user_id: userId }, 'ending sessions: retrying');
    await deps.sessions.endSessionsBefore(userId, keepJti);
  });
}
