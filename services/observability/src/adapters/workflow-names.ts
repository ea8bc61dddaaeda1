import { isUuid } from '@platform/errors';
import { workflowNamesClient, type CallCredentials } from '@platform/grpc';
import type { Logger } from '@platform/logger';

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
  const client = workflowNamesClient(address, credentials, {
    timeoutMs: 3_000,
    ttlMs: 30_000,
    onBatchError: (err) => logger.warn({ err }, 'workflow names unavailable; lists show ids without names'),
  });
  return {
    async names(ids) {
      // Workflow ids are UUIDs; a fact with any other id has no name to ask for.
      const known = await client.names(ids.filter(isUuid));
      const found = new Map<string, string>();
      for (const [id, workflow] of known)
        if (!workflow.deleted && workflow.name) found.set(id, workflow.name);
      return found;
    },
    close: () => client.close(),
  };
}
