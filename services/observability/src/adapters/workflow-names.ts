import { workflowsV1 } from '@platform/contracts';
import { isUuid } from '@platform/errors';
import { createServiceClient, type CallCredentials, type ServiceClient } from '@platform/grpc';
import type { Logger } from '@platform/logger';
import { LRUCache } from 'lru-cache';

const NAME_TTL_MS = 30_000;
const MAX_CACHED = 10_000;
/** Names of workflows by id; ids it does not know (or deleted ones) are left out: the lists show null. */
export interface WorkflowNameReader {
  names(ids: string[]): Promise<Map<string, string>>;
  close(): void;
}

/**
 * Names from workflows' internal `GetWorkflowNames`, cached 30 s per process (pages are cached 30 s
 * anyway). A dashboard never fails for want of a name: if workflows cannot answer, names are
 * missing (null over HTTP) and the figures are served.
 */
export function workflowsNameReader(
  address: string,
  credentials: CallCredentials,
  logger: Logger,
): WorkflowNameReader {
  const client: ServiceClient<typeof workflowsV1.WorkflowsServiceService> = createServiceClient(
    workflowsV1.WorkflowsServiceService,
    'platform.workflows.v1.WorkflowsService',
    address,
    { defaultTimeoutMs: 3_000, credentials },
  );
  // The wrapper keeps "no name" (unknown or deleted) cached too: lru-cache stores no null values.
  const cache = new LRUCache<string, { name: string | null }>({ max: MAX_CACHED, ttl: NAME_TTL_MS });
  return {
    async names(ids) {
      const found = new Map<string, string>();
      const missing: string[] = [];
      // Workflow ids are UUIDs; a fact with any other id has no name to ask for.
      for (const id of new Set(ids.filter(isUuid))) {
        const hit = cache.get(id);
        if (hit) {
          if (hit.name) found.set(id, hit.name);
        } else missing.push(id);
      }
      for (let i = 0; i < missing.length; i += 1000) {
        const ask = missing.slice(i, i + 1000);
        try {
          const { workflows } = await client.call('getWorkflowNames', { ids: ask });
          const answered = new Map(workflows.map((w) => [w.id, w.deleted ? '' : w.name]));
          for (const id of ask) {
            const name = answered.get(id) || null;
            cache.set(id, { name });
            if (name) found.set(id, name);
          }
        } catch (err) {
          logger.warn({ err }, 'workflow names unavailable; lists show ids without names');
        }
      }
      return found;
    },
    close: () => client.close(),
  };
}
