import * as systemV1 from '@platform/contracts/platform/observability/v1/system';
import { BusinessError, ErrorCode } from '@platform/errors';
import { registration, type Principal } from '@platform/grpc';
import { isGlobalAdmin, requirePrincipal } from '@platform/rbac';
import { HealthSnapshots } from '../data/health-snapshots.js';
import { getSystemHealth, type SystemHealth } from '../domain/system/get-system-health.js';
import { getSystemWorkers } from '../domain/system/get-system-workers.js';
import { listSlowQueries, normalizeSlowQueryRequest } from '../domain/system/list-slow-queries.js';
import type { SystemMonitorDeps } from '../domain/system/system-deps.js';
import { encodeHealth, encodeSlowQueries, encodeWorkers } from './encode-system.js';

export const SYSTEM_SERVICE_NAME = 'platform.observability.v1.SystemMonitorService';

/** The gateway checked `admin:dashboard:access`; checked again so no other caller reads host state. */
function requireAdmin(principal: Principal | undefined): void {
  if (!isGlobalAdmin(requirePrincipal(principal))) throw new BusinessError(ErrorCode.PERMISSION_DENIED);
}

/**
 * `/system/*`: health (appends a snapshot, never cached), trend (the snapshot list as it is), and
 * workers and slow queries (cached 30 s per parameters: both read a lot to answer).
 */
export function systemGrpc(deps: SystemMonitorDeps) {
  const snapshots = new HealthSnapshots(deps.redis, deps.redisKeyPrefix);
  return registration(SYSTEM_SERVICE_NAME, systemV1.SystemMonitorServiceService, {
    getSystemHealth: async (_request, { principal }) => {
      requireAdmin(principal);
      return encodeHealth(await getSystemHealth(deps, snapshots));
    },
    getSystemTrend: async (_request, { principal }) => {
      requireAdmin(principal);
      return { snapshots: (await snapshots.list<Partial<SystemHealth>>()).map(encodeHealth) };
    },
    getSystemWorkers: async (_request, { principal }) => {
      requireAdmin(principal);
      return encodeWorkers(await deps.cache.through('system-workers', {}, () => getSystemWorkers(deps)));
    },
    listSlowQueries: async (request, { principal }) => {
      requireAdmin(principal);
      const normalized = normalizeSlowQueryRequest(request);
      const answer = await deps.cache.through('system-slow-queries', { ...normalized }, () =>
        deps.gate.run(() => listSlowQueries(deps.pool, deps.slowQueryDatabases, normalized)),
      );
      return encodeSlowQueries(answer);
    },
  });
}
