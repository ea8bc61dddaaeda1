import { workflowNamesClient, type CallCredentials, type WorkflowName } from '@platform/grpc';

export type { WorkflowName };

/** Names of bound workflows, from the workflows service (the owner of workflow records). */
export interface WorkflowDirectory {
  /** Known ids only: a deleted workflow is `{name: '', deleted: true}`, an unknown one is absent. */
  names(ids: string[]): Promise<Map<string, WorkflowName>>;
  close(): void;
}

/**
 * `credentials`: apikeys' service token for workflows (GetWorkflowNames is internal-only). Key
 * lists show names on every page; the shared client's 30 s cache keeps a rename visible within
 * 30 s without a call per listed key. A failure fails the list (names are part of the answer).
 */
export function workflowsNameDirectory(address: string, credentials: CallCredentials): WorkflowDirectory {
  return workflowNamesClient(address, credentials, { timeoutMs: 5_000, ttlMs: 30_000 });
}
