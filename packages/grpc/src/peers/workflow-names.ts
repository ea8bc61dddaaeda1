import { workflowsV1 } from '@platform/contracts';
import { LRUCache } from 'lru-cache';
import { createServiceClient } from '../client.js';
import type { CallCredentials } from '../trust/outgoing-trust.js';

export interface WorkflowName {
  /** Empty when deleted. */
  name: string;
  deleted: boolean;
}

/** Names of workflows by id, from the workflows service (the owner of workflow records). */
export interface WorkflowNamesClient {
  /** Known ids only: a deleted workflow is `{name: '', deleted: true}`, an unknown one is absent. */
  names(ids: readonly string[]): Promise<Map<string, WorkflowName>>;
  close(): void;
}

export interface WorkflowNamesOptions {
  timeoutMs?: number;
  /** How long a name (or "no such workflow") is trusted; a rename shows within this time. */
  ttlMs?: number;
  /**
   * Called when one batch cannot be answered; the batch's names are then left out instead of
   * failing the whole lookup. Without it the failure is thrown.
   */
  onBatchError?: (err: unknown) => void;
}

const MAX_CACHED = 10_000;
/** Ids per `GetWorkflowNames` call. */
const BATCH = 1000;

/**
 * Workflows' internal-only `GetWorkflowNames`, cached per process (`lru-cache`, 30 s by default).
 * Unknown ids are cached too (as absent), so a reference to a workflow that never existed does
 * not ask again on every list. `credentials`: the caller's service token for workflows.
 */
export function workflowNamesClient(
  address: string,
  credentials: CallCredentials,
  options: WorkflowNamesOptions = {},
): WorkflowNamesClient {
  const client = createServiceClient(
    workflowsV1.WorkflowsServiceService,
    'platform.workflows.v1.WorkflowsService',
    address,
    { defaultTimeoutMs: options.timeoutMs ?? 5_000, credentials },
  );
  // The wrapper keeps "no such workflow" cached too: lru-cache stores no null values.
  const cache = new LRUCache<string, { value: WorkflowName | null }>({
    max: MAX_CACHED,
    ttl: options.ttlMs ?? 30_000,
  });

  async function ask(ids: string[], found: Map<string, WorkflowName>): Promise<void> {
    const { workflows } = await client.call('getWorkflowNames', { ids });
    const answered = new Map(workflows.map((w) => [w.id, { name: w.name, deleted: w.deleted }]));
    for (const id of ids) {
      const value = answered.get(id) ?? null;
      cache.set(id, { value });
      if (value) found.set(id, value);
    }
  }

  return {
    async names(ids) {
      const unique = [...new Set(ids)];
      const cached = unique.map((id) => [id, cache.get(id)] as const);
      const found = new Map(cached.flatMap(([id, hit]) => (hit?.value ? [[id, hit.value] as const] : [])));
      const missing = cached.filter(([, hit]) => !hit).map(([id]) => id);
      for (let start = 0; start < missing.length; start += BATCH) {
        const batch = missing.slice(start, start + BATCH);
        try {
          await ask(batch, found);
        } catch (err) {
          if (!options.onBatchError) throw err;
          options.onBatchError(err);
        }
      }
      return found;
    },
    close: () => client.close(),
  };
}
