import { workflowsV1 } from '@platform/contracts';
import { createServiceClient, type CallCredentials, type ServiceClient } from '@platform/grpc';
import { LRUCache } from 'lru-cache';

const NAME_TTL_MS = 30_000;
const MAX_CACHED = 10_000;

export interface WorkflowName {
  /** Empty when deleted. */
  name: string;
  deleted: boolean;
}

/** Names of bound workflows, from the workflows service (the owner of workflow records). */
export interface WorkflowDirectory {
  /** Known ids only: a deleted workflow is `{name: '', deleted: true}`, an unknown one is absent. */
  names(ids: string[]): Promise<Map<string, WorkflowName>>;
  close(): void;
}

/** `credentials`: apikeys' service token for workflows (GetWorkflowNames is internal-only). */
export function workflowsNameDirectory(address: string, credentials: CallCredentials): WorkflowDirectory {
  const client: ServiceClient<typeof workflowsV1.WorkflowsServiceService> = createServiceClient(
    workflowsV1.WorkflowsServiceService,
    'platform.workflows.v1.WorkflowsService',
    address,
    { defaultTimeoutMs: 5_000, credentials },
  );
  // Key lists show names on every page; a short per-process cache keeps a rename visible within
  // 30 s without a call per listed key. Unknown ids are cached too (as absent), so a binding to a
  // workflow that never existed does not ask again on every list.
  const cache = new LRUCache<string, { value: WorkflowName | null }>({ max: MAX_CACHED, ttl: NAME_TTL_MS });
  return {
    async names(ids) {
      const found = new Map<string, WorkflowName>();
      const missing: string[] = [];
      for (const id of new Set(ids)) {
        const hit = cache.get(id);
        if (hit) {
          if (hit.value) found.set(id, hit.value);
        } else missing.push(id);
      }
      if (missing.length === 0) return found;
      const { workflows } = await client.call('getWorkflowNames', { ids: missing });
      const answered = new Map(workflows.map((w) => [w.id, { name: w.name, deleted: w.deleted }]));
      for (const id of missing) {
        const value = answered.get(id) ?? null;
        cache.set(id, { value });
        if (value) found.set(id, value);
      }
      return found;
    },
    close: () => client.close(),
  };
}
